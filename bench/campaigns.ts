/**
 * Campaign benchmark (issue 16): the production server (bench/server.ts: `build/server.js` on
 * loopback, a throw-away DATA_DIR, embedded PostgreSQL) with the Telegram fake (tests/fakes/telegram.ts)
 * as Telegram. A workspace with 10 000 contacts on one Telegram channel: `--conversations` of them
 * (default 1 000) wrote to the bot first, through the real webhook route (so the inbox has
 * conversations), the others are written straight into the database. Then one campaign to all of
 * them with no rate limit to speak of (`ratePerSecond` 1000), while autocannon reads the inbox list
 * (`GET /v1/workspaces/{id}/conversations`, the agent's first page) at `--read-rate` requests a
 * second over `--connections` connections: a busy team's reads, not a saturating closed loop (10
 * connections as fast as answered took both cores and slowed the campaign to 12 recipients/s).
 *
 *   npm run bench:campaigns -- [--no-build] [--contacts 10000] [--conversations 1000] [--read-rate 50] [--connections 10] [--duration 10]
 *
 * Measured: recipients sent per second and the time to complete (the campaign's started_at to
 * finished_at), the inbox list's p50/p99 during the campaign against the same list measured before
 * it (`--duration` seconds) and against GET /healthz (the server's floor). Checked: every recipient
 * sent, and the fake received each chat's message exactly once; otherwise the exit code is 1.
 * Writes bench/results/campaigns.json (the server's output to bench/results/campaigns-server.log).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createDb, type DB } from '#api/db/database.ts'
import { startTelegramFake, textUpdate, type TelegramFake } from '../tests/fakes/telegram.ts'
import { attack } from './load.ts'
import {
	callApi,
	cleanup,
	findServerEntry,
	isInterrupted,
	log,
	numberOption,
	percentile,
	resultsDir,
	run,
	serverShutdown,
	sleep,
	startServer,
	table,
} from './server.ts'

type Options = { build: boolean; contacts: number; conversations: number; connections: number; readRate: number; duration: number }

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			'no-build': { type: 'boolean', default: false },
			contacts: { type: 'string', default: '10000' },
			conversations: { type: 'string', default: '1000' },
			connections: { type: 'string', default: '10' },
			'read-rate': { type: 'string', default: '50' },
			duration: { type: 'string', default: '10' },
		},
		allowPositionals: false,
	})
	const number = (name: string, value: string, min: number, max: number) => Math.round(numberOption(name, value, min, max))
	const contacts = number('contacts', values.contacts, 1, 1_000_000)
	return {
		build: !values['no-build'] && process.env.BENCH_SKIP_BUILD !== '1',
		contacts,
		conversations: number('conversations', values.conversations, 0, contacts),
		connections: number('connections', values.connections, 1, 200),
		readRate: number('read-rate', values['read-rate'], 1, 100_000),
		duration: number('duration', values.duration, 1, 120),
	}
}

/** The chat of the n-th contact (0-based): those below `--conversations` wrote first. */
const chatOf = (n: number) => 700_000_000 + n

type Workspace = { id: string; token: string; channelId: string; bot: { token: string } }

async function setUp(baseUrl: string, fake: TelegramFake): Promise<Workspace> {
	const { access_token: token } = await callApi<{ access_token: string }>(baseUrl, 'POST', '/v1/auth/register', {
		name: 'Bench Owner',
		email: `bench-${crypto.randomBytes(4).toString('hex')}@example.test`,
		password: 'Bench-password-1',
	})
	const workspace = await callApi<{ id: string }>(baseUrl, 'POST', '/v1/workspaces', { name: 'Bench campaigns' }, token)
	const bot = fake.addBot()
	const channel = await callApi<{ id: string }>(
		baseUrl,
		'POST',
		`/v1/workspaces/${workspace.id}/channels`,
		{ kind: 'telegram', name: 'Broadcast', credentials: { botToken: bot.token } },
		token,
	)
	return { id: workspace.id, token, channelId: channel.id, bot }
}

/** The first `conversations` customers write to the bot (the real webhook route, 20 at a time); the rest are contacts written straight into the database. */
async function seed(db: DB, baseUrl: string, fake: TelegramFake, workspace: Workspace, options: Options) {
	const started = performance.now()
	for (let n = 0; n < options.conversations; n += 20) {
		await Promise.all(
			Array.from({ length: Math.min(20, options.conversations - n) }, async (_, index) => {
				const response = await fake.postUpdate(
					workspace.bot.token,
					textUpdate({ id: chatOf(n + index), firstName: `Customer ${n + index}` }, `Hello, a question about order ${n + index}`),
					{ origin: baseUrl },
				)
				if (!response.ok) throw new Error(`the webhook answered ${response.status}`)
			}),
		)
	}
	const count = async () =>
		(
			await db
				.selectFrom('conversations')
				.select(sql<number>`count(*)::int`.as('n'))
				.where('workspaceId', '=', workspace.id)
				.executeTakeFirstOrThrow()
		).n
	for (const deadline = Date.now() + 120_000; (await count()) < options.conversations;) {
		if (Date.now() > deadline) throw new Error(`only ${await count()} of ${options.conversations} conversations after 120 s`)
		await sleep(250)
	}
	const rest = options.contacts - options.conversations
	await sql`
		with created as (
			insert into contacts (workspace_id, name, avatar_color)
			select ${workspace.id}, 'Customer ' || n, '#336699' from generate_series(${options.conversations}::int, ${options.contacts - 1}::int) as n
			returning id, name
		)
		insert into contact_identities (workspace_id, channel_id, contact_id, external_id)
		select ${workspace.id}, ${workspace.channelId}, id, (${chatOf(0)}::bigint + substring(name from 10)::bigint)::text from created`.execute(db)
	await sql`analyze`.execute(db)
	log(
		`seeded ${options.conversations.toLocaleString('en-US')} conversations through the webhook and ${rest.toLocaleString('en-US')} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
	)
}

type Latency = { requests: number; requestsPerSecond: number; p50: number; p99: number; max: number; errors: number; non2xx: number }

async function measure(
	baseUrl: string,
	route: string,
	token: string | undefined,
	options: Options,
	seconds: number,
	stop?: Promise<unknown>,
): Promise<Latency> {
	const { result, latencies } = await attack(
		{ method: 'GET', path: route, headers: token ? { Authorization: `Bearer ${token}` } : {} },
		baseUrl,
		options.connections,
		seconds,
		stop,
		options.readRate,
	)
	return {
		requests: latencies.length,
		requestsPerSecond: result.requests.average,
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
		max: latencies.length ? (latencies[latencies.length - 1] ?? 0) : 0,
		errors: result.errors + result.timeouts,
		non2xx: result.non2xx,
	}
}

const loadAverage = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ')
const ms = (value: number) => value.toFixed(1)

async function main() {
	const options = parseOptions()
	if (options.build) {
		log('building for production (npm run build; skip with --no-build)')
		await run('npm', ['run', 'build'])
	}
	const entry = findServerEntry()
	const fake = await startTelegramFake()
	let db: DB | undefined
	try {
		const server = await startServer(entry, { env: { TELEGRAM_API_URL: fake.url }, logName: 'campaigns-server.log' })
		db = createDb(server.databaseUrl, 2)
		const workspace = await setUp(server.baseUrl, fake)
		await seed(db, server.baseUrl, fake, workspace, options)
		const inbox = `/v1/workspaces/${workspace.id}/conversations`
		const loadBefore = loadAverage()

		log(`baselines: GET /healthz, then the inbox list, ${options.duration} s each, ${options.readRate} requests/s over ${options.connections} connections`)
		await measure(server.baseUrl, inbox, workspace.token, options, 2)
		const healthz = await measure(server.baseUrl, '/healthz', undefined, options, options.duration)
		const before = await measure(server.baseUrl, inbox, workspace.token, options, options.duration)
		if (isInterrupted()) return

		log(`a campaign to ${options.contacts.toLocaleString('en-US')} contacts at ratePerSecond 1000, the inbox list read all along`)
		const campaignsPath = `/v1/workspaces/${workspace.id}/campaigns`
		const created = await callApi<{ id: string }>(
			server.baseUrl,
			'POST',
			campaignsPath,
			{ name: 'Bench', channelId: workspace.channelId, body: 'Hello {{name}}, our spring sale starts today.', ratePerSecond: 1000 },
			workspace.token,
		)
		// The list is read from just before the start until the campaign is no longer running.
		let done = () => {}
		const stopped = new Promise<void>((resolve) => (done = resolve))
		const during = measure(server.baseUrl, inbox, workspace.token, options, 3600, stopped)
		const started = await callApi<{ recipientCount: number }>(server.baseUrl, 'POST', `${campaignsPath}/${created.id}/start`, undefined, workspace.token)
		let status = 'running'
		while (status === 'running' && !isInterrupted()) {
			await sleep(200)
			status = (await db.selectFrom('campaigns').select('status').where('id', '=', created.id).executeTakeFirstOrThrow()).status
		}
		done()
		const load = await during
		const loadAfter = loadAverage()

		const campaign = await db
			.selectFrom('campaigns')
			.select(['startedAt', 'finishedAt', 'recipientCount'])
			.where('id', '=', created.id)
			.executeTakeFirstOrThrow()
		const statuses = Object.fromEntries(
			(
				await sql<{
					status: string
					n: number
				}>`select status, count(*)::int as n from campaign_recipients where campaign_id = ${created.id} group by status`.execute(db)
			).rows.map((row) => [row.status, row.n]),
		)
		const received = new Map<string, number>()
		const sendPath = `/bot${workspace.bot.token}/sendMessage`
		for (const request of fake.received)
			if (request.path === sendPath) {
				const chat = String((request.body as { chat_id: string | number }).chat_id)
				received.set(chat, (received.get(chat) ?? 0) + 1)
			}
		const twice = [...received.values()].filter((count) => count > 1).length
		const seconds = campaign.startedAt && campaign.finishedAt ? (campaign.finishedAt.getTime() - campaign.startedAt.getTime()) / 1000 : Number.NaN
		const sent = statuses.sent ?? 0
		const perSecond = sent / seconds

		const cpus = os.cpus()
		const report = {
			date: new Date().toISOString(),
			machine: {
				cpus: cpus.length,
				cpuModel: cpus[0]?.model.trim() ?? 'unknown',
				platform: `${os.platform()} ${os.release()}`,
				node: process.version,
				loadAverageBefore: loadBefore,
				loadAverageAfter: loadAfter,
			},
			options,
			campaign: {
				status,
				recipients: started.recipientCount,
				statuses,
				seconds,
				sentPerSecond: perSecond,
				chatsReceived: received.size,
				chatsReceivedTwice: twice,
			},
			inboxList: { healthz, before, during: load, p99VsBefore: load.p99 / before.p99, p99VsHealthz: load.p99 / healthz.p99 },
			shutdown: undefined as ReturnType<typeof serverShutdown>,
		}
		await sleep(500)
		await cleanup()
		report.shutdown = serverShutdown()
		fs.mkdirSync(resultsDir, { recursive: true })
		const file = path.join(resultsDir, 'campaigns.json')
		fs.writeFileSync(file, `${JSON.stringify(report, null, '\t')}\n`)

		const write = (text: string) => process.stdout.write(`${text}\n`)
		write('')
		write(
			`${cpus.length} × ${report.machine.cpuModel}, ${report.machine.platform}, Node ${process.version}; load average ${loadBefore} before, ${loadAfter} after (a shared machine: noisy figures)`,
		)
		write(`campaign: ${started.recipientCount.toLocaleString('en-US')} recipients on one Telegram channel (fake on loopback), ratePerSecond 1000, ${status}`)
		write(`  ${sent.toLocaleString('en-US')} sent in ${seconds.toFixed(1)} s: ${Math.round(perSecond)} recipients/s; statuses ${JSON.stringify(statuses)}`)
		write(`  the fake received ${received.size.toLocaleString('en-US')} chats, ${twice} of them twice`)
		write('')
		write(
			table([
				[
					`GET (ms), ${options.readRate}/s over ${options.connections} connections`,
					'req/s',
					'p50',
					'p99',
					'max',
					'errors',
					'non-2xx',
					'p99 vs before',
					'p99 vs /healthz',
				],
				[
					'/healthz, before',
					String(Math.round(healthz.requestsPerSecond)),
					ms(healthz.p50),
					ms(healthz.p99),
					ms(healthz.max),
					String(healthz.errors),
					String(healthz.non2xx),
					'',
					'1.0×',
				],
				[
					'inbox list, before the campaign',
					String(Math.round(before.requestsPerSecond)),
					ms(before.p50),
					ms(before.p99),
					ms(before.max),
					String(before.errors),
					String(before.non2xx),
					'1.0×',
					`${(before.p99 / healthz.p99).toFixed(1)}×`,
				],
				[
					'inbox list, during the campaign',
					String(Math.round(load.requestsPerSecond)),
					ms(load.p50),
					ms(load.p99),
					ms(load.max),
					String(load.errors),
					String(load.non2xx),
					`${report.inboxList.p99VsBefore.toFixed(1)}×`,
					`${report.inboxList.p99VsHealthz.toFixed(1)}×`,
				],
			]),
		)
		write('')
		write(`written to ${path.relative(process.cwd(), file)}`)
		const problems = [
			twice > 0 && `${twice} chats received the message twice`,
			sent !== options.contacts && `${sent} of ${options.contacts} recipients sent`,
			received.size !== options.contacts && `the fake received ${received.size} of ${options.contacts} chats`,
			load.errors + load.non2xx + before.errors + before.non2xx > 0 && 'errors or non-2xx answers from the inbox list',
		].filter(Boolean)
		if (problems.length > 0) {
			process.stderr.write(`\nFAILED: ${problems.join('; ')}\n`)
			process.exitCode = 1
		}
	} finally {
		await db?.destroy()
		await fake.close()
	}
}

main()
	.catch((error: unknown) => {
		if (!isInterrupted()) process.stderr.write(`\nbench failed: ${error instanceof Error ? error.message : String(error)}\n`)
		process.exitCode = 1
	})
	.finally(async () => {
		if (!isInterrupted()) await cleanup()
	})
