/**
 * Inbound webhook benchmark: WhatsApp Cloud API webhooks, signed with the app secret, posted at a
 * fixed open-loop rate through the real route (`/webhooks/whatsapp/{channelId}`) of the production
 * server (bench/server.ts: `build/server.js` on loopback, a throw-away DATA_DIR, embedded
 * PostgreSQL; built first only when `build/` is missing), with the WhatsApp fake (tests/fakes/whatsapp.ts)
 * standing in for Meta. A share of them are exact retries of earlier ones (the same bytes, as Meta
 * retries), to prove they are stored once.
 *
 *   npm run bench:webhooks -- [--rate 1000] [--duration 10] [--channels 4] [--customers 400] [--duplicates 0.05] [--processes 1|2|both] [--build] [--profile DIR]
 *
 * `--build` builds even when `build/` exists (after a change to the product); `--profile DIR` writes
 * the server's CPU profile there (node --cpu-prof, for Chrome's DevTools or speedscope).
 *
 * The user, workspace and channels are made through the real API (register, create a workspace,
 * connect WhatsApp numbers, which the server checks with the fake). A WebSocket client (Pusher
 * protocol 7) subscribes to `private-workspace-{id}`, signed by the API's `/v1/realtime/auth` as a
 * browser's is, and times each `message.created`; after the run each event's message id is mapped
 * to its webhook through the stored `external_id` (the wamid).
 *
 * Measured: the webhook's HTTP answer (p50, p99, errors, non-2xx) and webhook sent → its
 * `message.created` received, against baselines measured in the same run before the load: GET
 * /healthz and one webhook at a time (answer and end to end). Then, in the database: exactly one
 * message per distinct wamid, none missing, none twice. Exits non-zero if any webhook was lost,
 * stored twice, answered with an error, or its event never came. Writes bench/results/webhooks.json
 * (and the server's output to bench/results/webhooks-server.log).
 *
 * `--processes 2` runs two app processes on the same PostgreSQL (the second with DATABASE_URL and
 * the first's embedded realtime server as its PUSHER_HOST, as several containers share Soketi), the
 * webhooks spread over both and both running job workers; `--processes both` measures one, then two
 * (each on a fresh database), and prints the ratio. Sustained throughput is the inbound messages
 * stored per second while the backlog lasted (from the first stored to the last, by their
 * `created_at`): give a rate above what the machine records, and few enough webhooks to drain
 * within a minute (e.g. `--rate 400 --duration 5`).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { WebSocket } from 'ws'
import { createDb, type DB } from '#api/db/database.ts'
import { workspaceChannel } from '#common/realtime.ts'
import { inboundText, startWhatsAppFake, type WhatsAppFake } from '../tests/fakes/whatsapp.ts'
import {
	callApi,
	cleanup,
	numberOption,
	isInterrupted,
	log,
	percentile,
	resultsDir,
	root,
	run,
	sleep,
	startServer,
	table,
	type ServerContext,
} from './server.ts'

type Options = {
	rate: number
	duration: number
	channels: number
	customers: number
	duplicates: number
	processes: number[]
	build: boolean
	profile: string | undefined
}

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			rate: { type: 'string', default: '1000' },
			duration: { type: 'string', default: '10' },
			channels: { type: 'string', default: '4' },
			customers: { type: 'string', default: '400' },
			duplicates: { type: 'string', default: '0.05' },
			processes: { type: 'string', default: '1' },
			build: { type: 'boolean', default: false },
			profile: { type: 'string' },
		},
		allowPositionals: false,
	})
	const number = numberOption
	return {
		rate: number('rate', values.rate, 1, 5000),
		duration: number('duration', values.duration, 1, 60),
		channels: Math.round(number('channels', values.channels, 1, 50)),
		customers: Math.round(number('customers', values.customers, 1, 100_000)),
		duplicates: number('duplicates', values.duplicates, 0, 0.5),
		processes: values.processes === 'both' ? [1, 2] : [Math.round(number('processes', values.processes, 1, 2))],
		build: values.build,
		profile: values.profile,
	}
}

const appSecret = crypto.randomBytes(16).toString('hex')
// Ample: the queue drains within this after the last webhook, or what is missing is reported.
const drainTimeoutMs = 60_000

// ---------------------------------------------------------------------------------------------
// The workspace and its channels, through the real API.

type Channel = { id: string; path: string; phoneNumberId: string }
type Workspace = { id: string; token: string; channels: Channel[] }

async function setUp(baseUrl: string, fake: WhatsAppFake, channels: number): Promise<Workspace> {
	const { access_token: token } = await callApi<{ access_token: string }>(baseUrl, 'POST', '/v1/auth/register', {
		name: 'Bench Owner',
		email: `bench-${crypto.randomBytes(4).toString('hex')}@example.test`,
		password: 'Bench-password-1',
	})
	const workspace = await callApi<{ id: string }>(baseUrl, 'POST', '/v1/workspaces', { name: 'Bench webhooks' }, token)
	const created: Channel[] = []
	for (let n = 0; n < channels; n++) {
		const number = fake.addNumber()
		const channel = await callApi<{ id: string; webhook: { url: string } }>(
			baseUrl,
			'POST',
			`/v1/workspaces/${workspace.id}/channels`,
			{
				kind: 'whatsapp',
				name: `WhatsApp ${n + 1}`,
				settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
				credentials: { accessToken: number.accessToken, appSecret },
			},
			token,
		)
		created.push({ id: channel.id, path: new URL(channel.webhook.url).pathname, phoneNumberId: number.phoneNumberId })
	}
	return { id: workspace.id, token, channels: created }
}

// ---------------------------------------------------------------------------------------------
// The member's realtime connection: every `message.created`, with when it arrived.

type Listener = { events: Map<string, number[]>; count: () => number; close: () => void }

async function listen(server: ServerContext, workspace: Workspace): Promise<Listener> {
	const { key } = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'realtime-app.json'), 'utf8')) as { key: string }
	const channel = workspaceChannel(workspace.id)
	const events = new Map<string, number[]>()
	let count = 0
	const ws = new WebSocket(`${server.baseUrl.replace(/^http/, 'ws')}/app/${key}?protocol=7&client=bench&version=1`, { perMessageDeflate: false })
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error('no realtime subscription within 15 s')), 15_000)
		ws.once('error', reject)
		ws.on('message', (raw: Buffer) => {
			const receivedAt = performance.now()
			const frame = JSON.parse(raw.toString('utf8')) as { event: string; channel?: string; data?: unknown }
			if (frame.event === 'message.created' && typeof frame.data === 'string') {
				const { messageId } = JSON.parse(frame.data) as { messageId: string }
				events.set(messageId, [...(events.get(messageId) ?? []), receivedAt])
				count++
			} else if (frame.event === 'pusher:connection_established' && typeof frame.data === 'string') {
				const socketId = (JSON.parse(frame.data) as { socket_id: string }).socket_id
				callApi<{ auth: string }>(server.baseUrl, 'POST', '/v1/realtime/auth', { socket_id: socketId, channel_name: channel }, workspace.token)
					.then(({ auth }) => ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } })))
					.catch(reject)
			} else if (frame.event === 'pusher_internal:subscription_succeeded') {
				clearTimeout(timer)
				resolve()
			} else if (frame.event === 'pusher:error' || frame.event === 'pusher:subscription_error') {
				reject(new Error(`${frame.event}: ${JSON.stringify(frame.data)}`))
			}
		})
	})
	return { events, count: () => count, close: () => ws.terminate() }
}

// ---------------------------------------------------------------------------------------------
// Webhooks: node's http with a keep-alive agent (lighter than fetch at this rate).

type Sent = { wamid: string; sentAt: number; answeredAt: number; status: number; error?: string; retry: boolean }
type Webhook = { channel: Channel; wamid: string; body: string; signature: string }

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })

function webhookFor(channel: Channel, customer: number, n: number): Webhook {
	const wamid = `wamid.bench${n.toString(36)}${crypto.randomBytes(6).toString('hex')}`
	const body = JSON.stringify(
		inboundText(
			channel.phoneNumberId,
			{ waId: String(201_000_000_000 + customer), name: `Customer ${customer}` },
			`Message ${n} from customer ${customer}`,
			wamid,
		),
	)
	return { channel, wamid, body, signature: `sha256=${crypto.createHmac('sha256', appSecret).update(body).digest('hex')}` }
}

function post(baseUrl: URL, webhook: Webhook, retry: boolean): Promise<Sent> {
	return new Promise((resolve) => {
		const sentAt = performance.now()
		const done = (status: number, error?: string) => resolve({ wamid: webhook.wamid, sentAt, answeredAt: performance.now(), status, error, retry })
		const request = http.request(
			{
				host: baseUrl.hostname,
				port: baseUrl.port,
				path: webhook.channel.path,
				method: 'POST',
				agent,
				timeout: 30_000,
				headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(webhook.body), 'X-Hub-Signature-256': webhook.signature },
			},
			(response) => {
				response.resume()
				response.on('end', () => done(response.statusCode ?? 0))
			},
		)
		request.on('timeout', () => request.destroy(new Error('timeout')))
		request.on('error', (error) => done(0, error.message))
		request.end(webhook.body)
	})
}

/**
 * Posts `rate` webhooks a second for `seconds`, on schedule whatever the answers (open loop): the
 * n-th goes to channel n mod channels from one of `customers` customers; a `duplicates` share are
 * the same bytes as one of the last 1 000 sent (a retry).
 */
async function attack(
	baseUrls: URL[],
	workspace: Workspace,
	options: Pick<Options, 'rate' | 'customers' | 'duplicates'>,
	total: number,
	onBacklog?: () => void,
) {
	const pending: Array<Promise<Sent>> = []
	const recent: Webhook[] = []
	let lag = 0
	const started = performance.now()
	let retries = 0
	for (let n = 0; n < total && !isInterrupted();) {
		const due = Math.min(total, Math.floor(((performance.now() - started) * options.rate) / 1000) + 1)
		for (; n < due; n++) {
			lag = Math.max(lag, performance.now() - (started + (n * 1000) / options.rate))
			// Exactly a `duplicates` share are retries of a recent webhook, spread evenly (never the first).
			const isRetry = recent.length > 0 && Math.floor(n * options.duplicates) > Math.floor((n - 1) * options.duplicates)
			let webhook: Webhook
			if (isRetry) {
				webhook = recent[crypto.randomInt(recent.length)]!
				retries++
			} else {
				const channel = workspace.channels[n % workspace.channels.length]!
				webhook = webhookFor(channel, Math.floor(n / workspace.channels.length) % options.customers, n)
				recent.push(webhook)
				if (recent.length > 1000) recent.shift()
			}
			// Spread over the app processes as a load balancer would (round robin).
			pending.push(post(baseUrls[n % baseUrls.length]!, webhook, isRetry))
		}
		onBacklog?.()
		await sleep(1)
	}
	const sentSeconds = (performance.now() - started) / 1000
	return { sent: await Promise.all(pending), sentSeconds, lag, retries }
}

// ---------------------------------------------------------------------------------------------

type Summary = { p50: number; p99: number; max: number; samples: number }

function summarise(samples: number[]): Summary {
	const sorted = Float64Array.from(samples).sort()
	return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length ? (sorted[sorted.length - 1] ?? 0) : 0, samples: sorted.length }
}

type Outcome = {
	sent: Sent[]
	answer: Summary
	endToEnd: Summary
	errors: number
	non2xx: number
	distinct: number
	stored: number
	lost: number
	doubled: number
	events: number
	eventsMissing: number
	eventsTwice: number
	/** Jobs still in the queue at the end, and why the failed ones failed. */
	jobsLeft: number
	jobErrors: string[]
}

/** Waits until every distinct webhook's event came (or no progress for a while), then maps events to webhooks through the stored wamids. */
async function outcomeOf(db: DB, workspace: Workspace, listener: Listener, sent: Sent[], since: number, eventsBefore: number): Promise<Outcome> {
	const firstSent = new Map<string, number>()
	for (const entry of sent) if (!firstSent.has(entry.wamid) || (firstSent.get(entry.wamid) ?? 0) > entry.sentAt) firstSent.set(entry.wamid, entry.sentAt)
	const channelIds = workspace.channels.map((channel) => channel.id)
	const deadline = Date.now() + drainTimeoutMs
	while (Date.now() < deadline && !isInterrupted()) {
		const { rows } = await sql<{
			stored: number
		}>`select count(*)::int as stored from messages where channel_id = any(${channelIds}::uuid[]) and direction = 'incoming' and created_at >= to_timestamp(${since / 1000})`.execute(
			db,
		)
		if ((rows[0]?.stored ?? 0) >= firstSent.size && listener.count() - eventsBefore >= firstSent.size) break
		await sleep(250)
	}
	const stored = await db
		.selectFrom('messages')
		.select(['id', 'externalId'])
		.where('channelId', 'in', channelIds)
		.where('direction', '=', 'incoming')
		.where(sql<boolean>`external_id = any(${[...firstSent.keys()]}::text[])`)
		.execute()
	const storedIds = new Map<string, number>()
	const endToEnd: number[] = []
	let eventsMissing = 0
	let eventsTwice = 0
	for (const row of stored) {
		if (!row.externalId) continue
		storedIds.set(row.externalId, (storedIds.get(row.externalId) ?? 0) + 1)
		const received = listener.events.get(String(row.id))
		if (!received?.length) eventsMissing++
		else {
			if (received.length > 1) eventsTwice++
			endToEnd.push(Math.min(...received) - (firstSent.get(row.externalId) ?? 0))
		}
	}
	const answers = sent.filter((entry) => !entry.error).map((entry) => entry.answeredAt - entry.sentAt)
	const jobs = await sql<{
		left: number
		errors: string[] | null
	}>`select count(*)::int as left, array_agg(distinct last_error) filter (where last_error is not null) as errors from graphile_worker._private_jobs`.execute(
		db,
	)
	return {
		jobsLeft: jobs.rows[0]?.left ?? 0,
		jobErrors: jobs.rows[0]?.errors ?? [],
		sent,
		answer: summarise(answers),
		endToEnd: summarise(endToEnd),
		errors: sent.filter((entry) => entry.error).length,
		non2xx: sent.filter((entry) => !entry.error && (entry.status < 200 || entry.status >= 300)).length,
		distinct: firstSent.size,
		stored: stored.length,
		lost: [...firstSent.keys()].filter((wamid) => !storedIds.has(wamid)).length,
		doubled: [...storedIds.values()].filter((count) => count > 1).length,
		events: listener.count() - eventsBefore,
		eventsMissing,
		eventsTwice,
	}
}

/** GET /healthz one at a time: the server's floor on this machine at this moment. */
async function timeHealthz(baseUrl: string, rounds: number): Promise<Summary> {
	const samples: number[] = []
	for (let round = -10; round < rounds; round++) {
		const start = performance.now()
		const response = await fetch(`${baseUrl}/healthz`)
		await response.arrayBuffer()
		if (round >= 0) samples.push(performance.now() - start)
	}
	return summarise(samples)
}

/** One webhook at a time, each waited for until its event came: the latency with no queue at all. */
async function timeSingle(baseUrl: URL, db: DB, workspace: Workspace, listener: Listener, rounds: number): Promise<Outcome> {
	const sent: Sent[] = []
	const since = Date.now()
	const eventsBefore = listener.count()
	for (let n = 0; n < rounds; n++) {
		const before = listener.count()
		const channel = workspace.channels[n % workspace.channels.length]!
		sent.push(await post(baseUrl, webhookFor(channel, 1_000_000 + n, n), false))
		const deadline = Date.now() + 10_000
		while (listener.count() === before && Date.now() < deadline) await sleep(1)
	}
	return outcomeOf(db, workspace, listener, sent, since, eventsBefore)
}

// ---------------------------------------------------------------------------------------------

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a')
const times = (value: number, base: number) => (base > 0 && Number.isFinite(value / base) ? `${(value / base).toFixed(1)}×` : 'n/a')
const loadAverage = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(2))
		.join(' ')

/** Inbound messages stored per second while the backlog lasted: from the first stored to the last, by their own timestamps. */
async function throughputOf(db: DB, workspace: Workspace, since: number): Promise<{ stored: number; seconds: number; perSecond: number }> {
	const { rows } = await sql<{ stored: number; seconds: number | null }>`
		select count(*)::int as stored, extract(epoch from max(created_at) - min(created_at))::float8 as seconds
		from messages where channel_id = any(${workspace.channels.map((channel) => channel.id)}::uuid[]) and direction = 'incoming' and created_at >= to_timestamp(${since / 1000})`.execute(
		db,
	)
	const stored = rows[0]?.stored ?? 0
	const seconds = rows[0]?.seconds ?? 0
	return { stored, seconds, perSecond: seconds > 0 ? (stored - 1) / seconds : 0 }
}

async function main() {
	const options = parseOptions()
	const entry = path.join(root, 'build', 'server.js')
	if (options.build || !fs.existsSync(entry) || !fs.existsSync(path.join(root, 'build', 'server', 'index.js'))) {
		log('building for production (npm run build; only when build/ is missing or with --build)')
		await run('npm', ['run', 'build'])
	}
	const measured: Array<{ processes: number; perSecond: number }> = []
	for (const processes of options.processes) {
		if (isInterrupted()) break
		measured.push({ processes, perSecond: await measure(entry, options, processes) })
		// Each measure starts on a fresh database.
		await cleanup()
	}
	const [one, two] = measured
	if (one && two) {
		process.stdout.write(
			`\ninbound messages stored per second on one PostgreSQL: 1 app process ${one.perSecond.toFixed(1)}/s, 2 app processes ${two.perSecond.toFixed(1)}/s, ratio ${(two.perSecond / one.perSecond).toFixed(2)}×\n`,
		)
	}
}

/** One run of the bench with `processes` app processes; returns the inbound messages stored per second. */
async function measure(entry: string, options: Options, processes: number): Promise<number> {
	const fake = await startWhatsAppFake()
	let listener: Listener | undefined
	let db: DB | undefined
	const suffix = processes > 1 ? `-${processes}-processes` : ''
	try {
		const nodeArgs = options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profile)}`] : []
		const server = await startServer(entry, { env: { WHATSAPP_API_URL: fake.url }, logName: `webhooks-server${suffix}.log`, nodeArgs })
		const others: ServerContext[] = []
		for (let n = 2; n <= processes; n++)
			others.push(await startServer(entry, { env: { WHATSAPP_API_URL: fake.url }, logName: `webhooks-server${suffix}-${n}.log`, nodeArgs, joining: server }))
		const baseUrls = [server, ...others].map((each) => new URL(each.baseUrl))
		db = createDb(server.databaseUrl, 2)
		const workspace = await setUp(server.baseUrl, fake, options.channels)
		listener = await listen(server, workspace)
		const baseUrl = new URL(server.baseUrl)
		const loadBefore = loadAverage()

		log('baselines: GET /healthz and one webhook at a time')
		const healthz = await timeHealthz(server.baseUrl, 200)
		const single = await timeSingle(baseUrl, db, workspace, listener, 50)

		const total = Math.round(options.rate * options.duration)
		log(
			`${total.toLocaleString('en-US')} webhooks at ${options.rate}/s for ${options.duration} s over ${options.channels} channel(s) from ${options.customers} customers, ${Math.round(options.duplicates * 100)} % retries`,
		)
		let backlogPeak = 0
		let sampling = false
		// What PostgreSQL's busy connections wait on, sampled with the backlog: where the database's time goes.
		const waits = new Map<string, number>()
		const lockWaits = new Map<string, number>()
		const sampleBacklog = () => {
			if (sampling || !db) return
			sampling = true
			const database = db
			void sql<{ jobs: number }>`select count(*)::int as jobs from graphile_worker._private_jobs`
				.execute(database)
				.then(({ rows }) => (backlogPeak = Math.max(backlogPeak, rows[0]?.jobs ?? 0)))
				.then(() =>
					sql<{
						wait: string
						n: number
					}>`select coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait, count(*)::int as n from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend' group by 1`.execute(
						database,
					),
				)
				.then(({ rows }) => rows.forEach((row) => waits.set(row.wait, (waits.get(row.wait) ?? 0) + row.n)))
				// And which statements wait on a lock: the rows every job shares.
				.then(() =>
					sql<{
						query: string
						n: number
					}>`select left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 90) as query, count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and backend_type = 'client backend' group by 1`.execute(
						database,
					),
				)
				.then(({ rows }) => rows.forEach((row) => lockWaits.set(row.query, (lockWaits.get(row.query) ?? 0) + row.n)))
				.finally(() => setTimeout(() => (sampling = false), 200))
		}
		const since = Date.now()
		const eventsBefore = listener.count()
		const started = performance.now()
		log(`${processes} app process(es): ${baseUrls.map(String).join(', ')}`)
		const attacked = await attack(baseUrls, workspace, options, total, sampleBacklog)
		const lastAnswered = performance.now()
		const load = await outcomeOf(db, workspace, listener, attacked.sent, since, eventsBefore)
		const drainedSeconds = (performance.now() - lastAnswered) / 1000
		const loadAfter = loadAverage()
		const totalSeconds = (performance.now() - started) / 1000
		const throughput = await throughputOf(db, workspace, since)

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
			options: { ...options, processes },
			throughput,
			baseline: { healthz, single: { answer: single.answer, endToEnd: single.endToEnd } },
			databaseWaits: Object.fromEntries(waits),
			databaseLockWaits: Object.fromEntries(lockWaits),
			load: {
				...load,
				sent: undefined,
				requests: attacked.sent.length,
				retries: attacked.retries,
				sentSeconds: attacked.sentSeconds,
				senderLagMs: attacked.lag,
				drainedSeconds,
				totalSeconds,
				jobBacklogPeak: backlogPeak,
			},
		}
		fs.mkdirSync(resultsDir, { recursive: true })
		const file = path.join(resultsDir, `webhooks${suffix}.json`)
		fs.writeFileSync(file, `${JSON.stringify(report, null, '\t')}\n`)

		const write = (text: string) => process.stdout.write(`${text}\n`)
		write('')
		write(
			`${cpus.length} × ${report.machine.cpuModel}, ${report.machine.platform}, Node ${process.version}; load average ${loadBefore} before, ${loadAfter} after`,
		)
		write(
			`${processes} app process(es) on one PostgreSQL: ${attacked.sent.length.toLocaleString('en-US')} webhooks in ${attacked.sentSeconds.toFixed(1)} s (${Math.round(attacked.sent.length / attacked.sentSeconds)}/s, sender at most ${ms(attacked.lag)} ms late), ${options.channels} channel(s), ${options.customers} customers, ${attacked.retries} retries of earlier ones; loopback`,
		)
		write('')
		write(
			table([
				['latency (ms)', 'p50', 'p99', 'max', 'p50 vs baseline', 'p99 vs baseline'],
				['baseline: GET /healthz, one at a time', ms(healthz.p50), ms(healthz.p99), ms(healthz.max), '', ''],
				[
					'baseline: one webhook at a time, answer',
					ms(single.answer.p50),
					ms(single.answer.p99),
					ms(single.answer.max),
					times(single.answer.p50, healthz.p50),
					times(single.answer.p99, healthz.p99),
				],
				['baseline: one webhook at a time, → message.created', ms(single.endToEnd.p50), ms(single.endToEnd.p99), ms(single.endToEnd.max), '1.0×', '1.0×'],
				[
					`${options.rate}/s: answer`,
					ms(load.answer.p50),
					ms(load.answer.p99),
					ms(load.answer.max),
					times(load.answer.p50, single.answer.p50),
					times(load.answer.p99, single.answer.p99),
				],
				[
					`${options.rate}/s: → message.created`,
					ms(load.endToEnd.p50),
					ms(load.endToEnd.p99),
					ms(load.endToEnd.max),
					times(load.endToEnd.p50, single.endToEnd.p50),
					times(load.endToEnd.p99, single.endToEnd.p99),
				],
			]),
		)
		write('')
		write(
			table([
				['', 'value'],
				['errors / non-2xx answers', `${load.errors} / ${load.non2xx}`],
				['distinct webhooks (wamids) / stored', `${load.distinct} / ${load.stored}`],
				['not stored / stored twice', `${load.lost} / ${load.doubled}`],
				['message.created received / missing / twice', `${load.events} / ${load.eventsMissing} / ${load.eventsTwice}`],
				['jobs waiting, peak / at the end', `${backlogPeak} / ${load.jobsLeft}`],
				['drained after the last answer', `${drainedSeconds.toFixed(1)} s`],
				[
					'inbound messages stored per second (first to last stored)',
					`${throughput.perSecond.toFixed(1)}/s (${throughput.stored} in ${throughput.seconds.toFixed(1)} s)`,
				],
			]),
		)
		const sampled = [...waits.values()].reduce((sum, n) => sum + n, 0)
		if (sampled)
			write(
				`\nbusy database connections while sending, by what they waited on: ${[...waits]
					.sort((a, b) => b[1] - a[1])
					.slice(0, 6)
					.map(([wait, n]) => `${wait} ${Math.round((n / sampled) * 100)} %`)
					.join(', ')}`,
			)
		for (const [query, n] of [...lockWaits].sort((a, b) => b[1] - a[1]).slice(0, 4)) write(`  waiting on a lock (${n} samples): ${query}`)
		for (const error of load.jobErrors) write(`job error: ${error.slice(0, 300)}`)
		write(`\nwritten to ${path.relative(process.cwd(), file)}`)
		const failures = [
			load.lost && `${load.lost} not stored${load.jobsLeft ? ` (${load.jobsLeft} jobs were still queued when the bench stopped waiting)` : ''}`,
			load.doubled && `${load.doubled} stored twice`,
			load.errors + load.non2xx && `${load.errors + load.non2xx} failed answers`,
			load.eventsMissing && `${load.eventsMissing} events missing`,
			load.eventsTwice && `${load.eventsTwice} events twice`,
			single.lost + single.doubled + single.errors + single.non2xx && 'the baseline webhooks failed',
		].filter(Boolean)
		if (failures.length) {
			process.stderr.write(`\nFAILED: ${failures.join(', ')}\n`)
			process.exitCode = 1
		}
		return throughput.perSecond
	} finally {
		listener?.close()
		agent.destroy()
		await db?.destroy()
		await fake.close()
	}
}

main()
	.catch((error: unknown) => {
		if (!isInterrupted()) process.stderr.write(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
		process.exitCode = 1
	})
	.finally(async () => {
		if (!isInterrupted()) await cleanup()
	})
