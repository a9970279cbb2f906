import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createDb, type DB } from '#api/db/database.ts'
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.ts'
import { killChildServers, ownDatabase, startChildServer, until, type ChildServer } from './child-server.ts'

/**
 * Exactly once across a killed process (docs/decisions/012-campaigns.md): the real server, a child
 * process (`server.ts`, as `npm run dev` runs it), sends a 2 000-recipient campaign through the
 * Telegram fake, is killed with SIGKILL halfway, and is started again on the same database and
 * DATA_DIR. Every chat must have received the message at most once; every recipient ends sent
 * (received once) or failed with the reconcile reason (outcome unknown), and only the one or two
 * in flight at the kill may be the latter.
 *
 * The database is one of its own on the run's PostgreSQL (the other files' leftover jobs would
 * otherwise run in the child).
 */

const recipients = 2_000

let fake: TelegramFake
let db: DB
let database: { url: string; drop: () => Promise<void> }
let dataDir: string
// One for both starts, as a DATA_DIR-generated one would be.
const sessionSecret = crypto.randomBytes(32).toString('hex')

/** `server.ts` in a process group of its own (tsx's esbuild goes with it), on this file's database and DATA_DIR. */
const startServer = () => startChildServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, TELEGRAM_API_URL: fake.url, SESSION_SECRET: sessionSecret })

/** kill -9 of the whole group: no shutdown hook, no graceful stop of the job runner. */
async function kill(server: ChildServer) {
	process.kill(-server.child.pid!, 'SIGKILL')
	await server.exited
}

async function stop(server: ChildServer) {
	server.child.kill('SIGTERM')
	const timer = setTimeout(() => process.kill(-server.child.pid!, 'SIGKILL'), 15_000)
	await server.exited
	clearTimeout(timer)
}

async function call<T>(server: ChildServer, method: string, route: string, body?: unknown, token?: string): Promise<T> {
	const response = await fetch(`${server.url}${route}`, {
		method,
		headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
	})
	const answer = (await response.json().catch(() => null)) as T
	if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(answer)}`)
	return answer
}

beforeAll(async () => {
	fake = await startTelegramFake()
	database = await ownDatabase('crash')
	db = createDb(database.url, 2)
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-crash-'))
})

afterAll(async () => {
	killChildServers()
	await db?.destroy()
	await database.drop()
	await fake?.close()
	fs.rmSync(dataDir, { recursive: true, force: true })
})

// Ten minutes at most: on a loaded machine (the browser tests beside it) two starts of the server, the 2 000
// recipients and the waits below once took more than four; what is checked is once, not speed.
test('the server is killed (SIGKILL) mid-campaign and started again: no chat receives the message twice', { timeout: 600_000 }, async () => {
	let server = await startServer()
	const { access_token: token } = await call<{ access_token: string }>(server, 'POST', '/v1/auth/register', {
		name: 'Owner',
		email: `owner-${crypto.randomBytes(4).toString('hex')}@example.test`,
		password: 'Crash-password-1',
	})
	const workspace = await call<{ id: string }>(server, 'POST', '/v1/workspaces', { name: 'Crash' }, token)
	const bot = fake.addBot()
	const channel = await call<{ id: string }>(
		server,
		'POST',
		`/v1/workspaces/${workspace.id}/channels`,
		{ kind: 'telegram', name: 'Broadcast', credentials: { botToken: bot.token } },
		token,
	)

	// 2 000 contacts, each with a Telegram chat on the channel, in two statements.
	const chats = Array.from({ length: recipients }, (_, index) => 920_000_000 + index)
	const contacts = await db
		.insertInto('contacts')
		.values(chats.map((chat) => ({ workspaceId: workspace.id, name: `Customer ${chat}`, avatarColor: '#123456' })))
		.returning('id')
		.execute()
	await db
		.insertInto('contactIdentities')
		.values(contacts.map((contact, index) => ({ workspaceId: workspace.id, channelId: channel.id, contactId: contact.id, externalId: String(chats[index]) })))
		.execute()

	const campaignsPath = `/v1/workspaces/${workspace.id}/campaigns`
	const created = await call<{ id: string }>(
		server,
		'POST',
		campaignsPath,
		{ name: 'Crash', channelId: channel.id, body: 'Hello {{name}}', ratePerSecond: 1000 },
		token,
	)
	const started = await call<{ status: string; recipientCount: number }>(server, 'POST', `${campaignsPath}/${created.id}/start`, undefined, token)
	expect(started).toMatchObject({ status: 'running', recipientCount: recipients })

	const sendPath = `/bot${bot.token}/sendMessage`
	const sentTo = () =>
		fake.received.filter((request) => request.path === sendPath).map((request) => Number((request.body as { chat_id: number | string }).chat_id))
	// Halfway through its first batch (1 000 claimed at once), the process dies.
	await until('400 sent', () => sentTo().length >= 400, 90_000)
	await kill(server)
	const atKill = sentTo().length
	expect(atKill).toBeLessThan(recipients)

	const left = await sql<{
		status: string
		n: number
	}>`select status, count(*)::int as n from campaign_recipients where campaign_id = ${created.id} group by status`.execute(db)
	const byStatus = Object.fromEntries(left.rows.map((row) => [row.status, row.n]))
	expect(byStatus.sending).toBeGreaterThan(0)

	// The claims' lease (60 s) is what tells a dead process's claims from a live one's: rather than wait
	// it out, the dead process's claims are moved a minute back, as if that minute had passed.
	await sql`update campaign_recipients set claimed_at = claimed_at - interval '61 seconds' where campaign_id = ${created.id} and status = 'sending'`.execute(db)

	server = await startServer()
	const statusOf = async () => (await db.selectFrom('campaigns').select('status').where('id', '=', created.id).executeTakeFirstOrThrow()).status
	// A restarted process on a loaded machine may take half a minute to start and take the job: what is checked is once, not speed.
	await until('the campaign completed', async () => (await statusOf()) === 'completed', 120_000).catch(async (error: Error) => {
		// Why it did not finish: its recipients by status and its send job (locked by whom, since when).
		const state =
			await sql`select (select json_object_agg(status, n) from (select status, count(*) as n from campaign_recipients where campaign_id = ${created.id} group by status) s) as recipients,
			(select json_agg(json_build_object('key', key, 'lockedBy', locked_by, 'lockedAt', locked_at, 'runAt', run_at, 'attempts', attempts, 'lastError', last_error)) from graphile_worker._private_jobs where key = ${`campaign-send:${created.id}`}) as job`.execute(
				db,
			)
		throw new Error(`${error.message}: ${JSON.stringify(state.rows[0])}`)
	})
	await stop(server)

	const received = new Map<number, number>()
	for (const chat of sentTo()) received.set(chat, (received.get(chat) ?? 0) + 1)
	const twice = [...received].filter(([, count]) => count > 1).map(([chat]) => chat)
	expect(twice).toEqual([])

	const rows = await db
		.selectFrom('campaignRecipients')
		.innerJoin('contactIdentities', 'contactIdentities.id', 'campaignRecipients.identityId')
		.select(['campaignRecipients.status', 'campaignRecipients.reason', 'contactIdentities.externalId'])
		.where('campaignId', '=', created.id)
		.execute()
	expect(rows).toHaveLength(recipients)
	const sent = rows.filter((row) => row.status === 'sent')
	const unknown = rows.filter((row) => row.status === 'failed' && row.reason === 'campaigns:reasons.outcomeUnknown')
	expect(sent.length + unknown.length, JSON.stringify(byStatus)).toBe(recipients)
	// Sent: received exactly once. Outcome unknown: at most once (the kill came during its call or before its record).
	expect(sent.every((row) => received.get(Number(row.externalId)) === 1)).toBe(true)
	// Only what was in flight at the kill: one send at a time per batch.
	expect(unknown.length).toBeLessThanOrEqual(2)
	expect(received.size).toBeGreaterThanOrEqual(recipients - 2)
})
