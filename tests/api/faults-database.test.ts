import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createCookie } from '@remix-run/node'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDb, ensureDatabase } from '#api/db/database.ts'
import { startEmbeddedPostgres, type EmbeddedCluster } from '#api/db/embedded-postgres.ts'
import { livenessLockClass } from '#api/jobs/queue.ts'
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.ts'
import { freePort, killChildServers, startChildServer, until, type ChildServer } from './child-server.ts'

/**
 * PostgreSQL stops under load and comes back (issue 18): the real server (a child process) on an
 * embedded PostgreSQL of this test's own, which the test stops and starts again on the same port
 * while contacts are being created. While it is away: /readyz 503, the API 503 with Retry-After and
 * a translated message, a page the translated "we'll be right back" screen, the process up. Once it
 * is back, requests succeed again within 5 s without a restart, and every write that got a 2xx is in
 * the database.
 */

// As a browser: a crawler gets a plain status line instead of the error screen (app/entry.server.tsx).
const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const quiet = { info: () => {}, debug: () => {}, error: () => {} }
let directory: string
let pgPort: number
let cluster: EmbeddedCluster | undefined
let databaseUrl: string
let server: ChildServer

const startCluster = () => startEmbeddedPostgres({ directory: path.join(directory, 'pg'), port: pgPort, log: quiet })

beforeAll(async () => {
	directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-faults-db-'))
	fs.chmodSync(directory, 0o755)
	pgPort = await freePort()
	cluster = await startCluster()
	await ensureDatabase(cluster.url('postgres'), 'crm')
	databaseUrl = cluster.url('crm')
	telegram = await startTelegramFake()
	server = await startChildServer({ DATA_DIR: path.join(directory, 'data'), DATABASE_URL: databaseUrl, TELEGRAM_API_URL: telegram.url })
})

afterAll(async () => {
	killChildServers()
	await cluster?.stop()
	await telegram?.close()
	fs.rmSync(directory, { recursive: true, force: true })
})

let telegram: TelegramFake

async function call<T>(method: string, route: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
	const response = await fetch(server.url + route, {
		method,
		headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
		body: JSON.stringify(body),
	})
	return { status: response.status, body: (await response.json().catch(() => null)) as T }
}

type Write = { name: string; status: number | string; id?: string }

test(
	'PostgreSQL stops under load and comes back: 503s meanwhile, success again without a restart, no acknowledged write lost',
	{ timeout: 90_000 },
	async () => {
		const json = async (method: string, route: string, body: unknown, headers: Record<string, string> = {}) => {
			const response = await fetch(server.url + route, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) })
			return { response, body: (await response.json().catch(() => null)) as Record<string, unknown> | null }
		}
		const registered = await json('POST', '/v1/auth/register', {
			name: 'Owner',
			email: `owner-${crypto.randomBytes(4).toString('hex')}@example.test`,
			password: 'Faults-password-1',
		})
		const token = registered.body?.access_token as string
		const auth = { Authorization: `Bearer ${token}` }
		const workspace = await json('POST', '/v1/workspaces', { name: 'Faults' }, auth)
		expect(workspace.response.status).toBe(201)
		const contactsPath = `/v1/workspaces/${workspace.body?.id as string}/contacts`
		const cookie = (await createCookie('crm-token').serialize(token)).split(';')[0]!
		const page = (locale: string) =>
			fetch(`${server.url}/${locale}/dashboard/contacts`, { headers: { Cookie: cookie, 'User-Agent': browser }, redirect: 'manual' })
		// The page renders while the database is up (and Vite has compiled it before the fault).
		expect((await page('fr-x')).status).toBe(200)

		// Light load: four writers creating contacts one after another, every answer recorded.
		const writes: Write[] = []
		let writing = true
		let counter = 0
		const writer = async () => {
			while (writing) {
				const name = `Fault ${++counter}`
				try {
					const { response, body } = await json('POST', contactsPath, { name }, auth)
					writes.push({ name, status: response.status, id: response.ok ? (body?.id as string) : undefined })
				} catch (error) {
					writes.push({ name, status: error instanceof Error ? String((error.cause as { code?: string } | undefined)?.code ?? error.message) : String(error) })
				}
				await new Promise((resolve) => setTimeout(resolve, 10))
			}
		}
		const writers = Promise.all(Array.from({ length: 4 }, writer))
		const acknowledged = () => writes.filter((write) => typeof write.status === 'number' && write.status >= 200 && write.status < 300).length
		await until('writes acknowledged before the fault', () => acknowledged() >= 20, 20_000)

		await cluster!.stop()
		cluster = undefined
		const writesAtStop = writes.length

		// While it is away (the process must not die of its pool's or job runner's lost connections).
		const alive = () => {
			if (!server.alive()) throw new Error(`the server died:\n${server.output.slice(-60).join('\n')}`)
			return true
		}
		await until('/readyz answers 503', async () => alive() && (await fetch(`${server.url}/readyz`)).status === 503, 10_000)
		await until('a write answers 503', () => writes.slice(writesAtStop).some((write) => write.status === 503), 10_000)
		const refused = await json('POST', contactsPath, { name: 'While away' }, { ...auth, 'Accept-Language': 'fr' })
		expect(refused.response.status).toBe(503)
		expect(refused.response.headers.get('retry-after')).toBe('5')
		expect(refused.body?.message).toMatch(/base de données/)
		expect(JSON.stringify(refused.body)).not.toMatch(/ECONNREFUSED|\bat \w|node_modules/)
		for (const [locale, words] of [
			['fr-x', 'Nous revenons tout de suite'],
			['ar-eg', 'سنعود بعد لحظات'],
			['en-us', 'We’ll be right back'],
		] as const) {
			const response = await page(locale)
			const html = await response.text()
			expect(response.status, locale).toBe(503)
			expect(html, locale).toContain(words)
			expect(html, locale).not.toMatch(/ECONNREFUSED|node_modules/)
		}
		expect(server.alive()).toBe(true)

		// Back on the same port: success again within 5 s, without a restart of the server.
		cluster = await startCluster()
		const writesAtStart = writes.length
		await until('/readyz answers 200 after PostgreSQL came back', async () => (await fetch(`${server.url}/readyz`)).status === 200, 5_000)
		await until('a write succeeds after PostgreSQL came back', () => writes.slice(writesAtStart).some((write) => write.status === 201), 5_000)
		expect((await page('fr-x')).status).toBe(200)
		await until('writes acknowledged after the fault', () => writes.slice(writesAtStart).filter((write) => write.status === 201).length >= 20, 20_000)
		writing = false
		await writers

		// Statuses: created, or 503 while it was away; never a 500 nor a broken connection.
		const statuses = [...new Set(writes.map((write) => write.status))]
		expect(
			statuses.filter((status) => status !== 201 && status !== 503),
			JSON.stringify(statuses),
		).toEqual([])
		const db = createDb(databaseUrl, 1)
		try {
			// Every acknowledged write is in the database.
			const ids = writes.flatMap((write) => (write.status === 201 && write.id ? [write.id] : []))
			expect(ids.length).toBe(acknowledged())
			const found = await db.selectFrom('contacts').select('id').where('id', 'in', ids).execute()
			expect(found.length).toBe(ids.length)
			// The job runner is live again: its liveness lock is held on a new connection (api/jobs/queue.ts).
			const livenessLocks = async () =>
				(
					await sql<{
						n: number
					}>`select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = ${livenessLockClass}::oid and granted`.execute(db)
				).rows[0]?.n ?? 0
			await until('the job runner holds its liveness lock again', async () => (await livenessLocks()) > 0, 10_000)
		} finally {
			await db.destroy()
		}

		expect(server.alive(), server.output.join('\n')).toBe(true)
	},
)

test(
	'PostgreSQL stops while replies are being sent: every one reaches the customer within a minute of its return, none twice',
	{ timeout: 150_000 },
	async () => {
		const owner = await call<{ access_token: string }>('POST', '/v1/auth/register', {
			name: 'Sender',
			email: `sender-${crypto.randomBytes(4).toString('hex')}@example.test`,
			password: 'Faults-password-1',
		})
		const token = owner.body.access_token
		const workspace = (await call<{ id: string }>('POST', '/v1/workspaces', { name: 'Replies' }, token)).body
		const bot = telegram.addBot()
		const channel = await call<{ id: string }>(
			'POST',
			`/v1/workspaces/${workspace.id}/channels`,
			{ kind: 'telegram', name: 'Support', credentials: { botToken: bot.token } },
			token,
		)
		expect(channel.status).toBe(201)
		// Five customers who wrote on Telegram: their conversations, straight in the database.
		const db = createDb(databaseUrl, 2)
		const numbers: number[] = []
		try {
			for (let customer = 0; customer < 5; customer++) {
				const contact = await db
					.insertInto('contacts')
					.values({ workspaceId: workspace.id, name: `Customer ${customer}`, avatarColor: '#123456' })
					.returning('id')
					.executeTakeFirstOrThrow()
				const identity = await db
					.insertInto('contactIdentities')
					.values({ workspaceId: workspace.id, channelId: channel.body.id, contactId: contact.id, externalId: String(930_000_000 + customer) })
					.returning('id')
					.executeTakeFirstOrThrow()
				const number = 100 + customer
				await db
					.insertInto('conversations')
					.values({ workspaceId: workspace.id, number, contactId: contact.id, channelId: channel.body.id, identityId: identity.id })
					.execute()
				numbers.push(number)
			}
		} finally {
			await db.destroy()
		}

		// Telegram answers each reply after 1.5 s: when PostgreSQL stops, replies are in the provider's hands and
		// their outcome not yet written, others wait their turn in the queue.
		const sendPath = `/bot${bot.token}/sendMessage`
		telegram.slowDown(new RegExp(`^${sendPath}$`), 1500)
		const replies: string[] = []
		const ids: string[] = []
		for (let round = 0; round < 4; round++) {
			for (const number of numbers) {
				const body = `Reply ${round} to #${number}`
				const sent = await call<{ id: string }>('POST', `/v1/workspaces/${workspace.id}/conversations/${number}/messages`, { kind: 'text', body }, token)
				expect(sent.status).toBe(201)
				replies.push(body)
				ids.push(sent.body.id)
			}
		}
		const delivered = () => telegram.received.filter((request) => request.path === sendPath).map((request) => (request.body as { text: string }).text)
		await until('the first replies are in Telegram’s hands', () => delivered().length >= 2, 20_000)
		await cluster!.stop()
		cluster = undefined
		await new Promise((resolve) => setTimeout(resolve, 3000))
		expect(server.alive(), server.output.slice(-40).join('\n')).toBe(true)
		cluster = await startCluster()
		const back = Date.now()

		// Each reply reaches Telegram, and is recorded as sent, within a minute; no chat receives one twice.
		const check = createDb(databaseUrl, 1)
		try {
			const sentCount = async () =>
				Number(
					(
						await check
							.selectFrom('messages')
							.select((eb) => eb.fn.countAll().as('n'))
							.where('id', 'in', ids)
							.where('status', '=', 'sent')
							.executeTakeFirstOrThrow()
					).n,
				)
			await until(
				'every reply delivered and recorded',
				async () => new Set(delivered()).size === replies.length && (await sentCount()) === replies.length,
				60_000,
			).catch(async (error: Error) => {
				const jobs = await sql`select task_identifier, locked_by, locked_at, attempts, last_error from graphile_worker.jobs`.execute(check)
				throw new Error(
					`${error.message}: ${new Set(delivered()).size} of ${replies.length} delivered, ${await sentCount()} recorded; jobs ${JSON.stringify(jobs.rows)}`,
				)
			})
			expect(Date.now() - back).toBeLessThan(60_000)
			const twice = delivered().filter((text, index, all) => all.indexOf(text) !== index)
			expect(twice).toEqual([])
		} finally {
			await check.destroy()
		}

		expect(server.alive(), server.output.join('\n')).toBe(true)
		server.child.kill('SIGTERM')
		expect(await server.exited).toEqual({ code: 0, signal: null })
	},
)
