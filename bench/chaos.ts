/**
 * Load and faults (issue 18): the production server under a mixed workload, then PostgreSQL stopped and
 * started again under load, then SIGTERM under load. It starts its own embedded PostgreSQL (so that it
 * can stop and start it) and the built server against it (DATABASE_URL), seeds the bench data (bench/
 * contacts.ts: 2 × 100 000 contacts; bench/inbox.ts: 2 × 100 000 conversations, 2 × 1 000 000 messages),
 * and prints one table of figures.
 *
 *   npm run chaos -- [--no-build] [--duration 300] [--warmup 30] [--connections 200] [--down 10] [--port 43000]
 *
 * 1. Load: the mixed workload (sign-in, inbox list, thread, reply, contacts search, a page render), each
 *    case on its share of the connections at once, for --duration seconds after --warmup; per case
 *    req/s, p50, p99, errors, unexpected statuses; the server's RSS after the warm-up and after the run.
 * 2. PostgreSQL stops for --down seconds under a quarter of the load, with writers creating contacts and
 *    recording every answer: time to the first 503, the statuses while it is down (the API's, /readyz's,
 *    a page's), time to success after it is started again, writes acknowledged and found in the database.
 * 3. SIGTERM under a quarter of the load, on keep-alive connections, with WebSocket clients connected:
 *    requests in flight at the signal completed, resets seen, the WebSockets' close codes, exit code.
 *
 * --port: the server listens on it, PostgreSQL on the next one (default: free ports the kernel picks).
 * Writes everything to bench/results/chaos.json and the server's output to bench/results/chaos-server.log;
 * exits non-zero when a requirement of the issue is not met (a figure of speed never fails it).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { createCookie } from '@remix-run/node'
import WebSocket from 'ws'
import { hashPassword } from '#api/auth/password.ts'
import { createDb, ensureDatabase } from '#api/db/database.ts'
import { startEmbeddedPostgres, type EmbeddedCluster } from '#api/db/embedded-postgres.ts'
import { seedContacts, type ContactsDataset } from './contacts.ts'
import { longThreadNumber, seedInbox, type InboxDataset } from './inbox.ts'
import { attack, type AutocannonResult, type BenchRequest } from './load.ts'
import { signalLoad } from '../tests/api/signal-load.ts'
import {
	cleanup,
	findServerEntry,
	freePort,
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
	type ServerContext,
} from './server.ts'

type Options = { build: boolean; duration: number; warmup: number; connections: number; down: number; port: number | undefined }

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			'no-build': { type: 'boolean', default: false },
			duration: { type: 'string', default: '300' },
			warmup: { type: 'string', default: '30' },
			connections: { type: 'string', default: '200' },
			down: { type: 'string', default: '10' },
			port: { type: 'string' },
		},
		allowPositionals: false,
	})
	return {
		build: !values['no-build'] && process.env.BENCH_SKIP_BUILD !== '1',
		duration: numberOption('duration', values.duration, 1),
		warmup: numberOption('warmup', values.warmup, 0),
		connections: Math.round(numberOption('connections', values.connections, 6)),
		down: numberOption('down', values.down, 1, 120),
		port: values.port === undefined ? undefined : Math.round(numberOption('port', values.port, 1024, 65_534)),
	}
}

// ---------------------------------------------------------------------------------------------
// The mixed workload: each case on its share of the connections, all at once.

type MixCase = { name: string; share: number; request: Required<Pick<BenchRequest, 'method'>> & BenchRequest; expect: number }

// As a browser: a crawler gets a plain status line instead of the page (app/entry.server.tsx).
const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

async function mixedWorkload(contacts: ContactsDataset, inbox: InboxDataset, signIn: { email: string; password: string }): Promise<MixCase[]> {
	const conversations = `/v1/workspaces/${inbox.workspaceId}/conversations`
	const cookie = (await createCookie('crm-token').serialize(inbox.token)).split(';')[0] ?? ''
	return [
		{
			name: 'sign-in',
			share: 0.05,
			expect: 200,
			// Many people behind the proxy (X-Forwarded-For is believed from loopback): the per-address limit is not the figure.
			request: {
				method: 'POST',
				path: '/v1/auth/login',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(signIn),
				headersFor: (turn) => ({ 'X-Forwarded-For': `10.${(turn >> 16) & 255}.${(turn >> 8) & 255}.${turn & 255}` }),
			},
		},
		{ name: 'inbox list', share: 0.25, expect: 200, request: { method: 'GET', path: conversations, headers: bearer(inbox.token) } },
		{
			name: 'thread',
			share: 0.15,
			expect: 200,
			request: { method: 'GET', path: `${conversations}/${longThreadNumber}/messages`, headers: bearer(inbox.token) },
		},
		{
			name: 'reply',
			share: 0.1,
			expect: 201,
			request: {
				method: 'POST',
				path: `${conversations}/${inbox.replyNumbers[0]}/messages`,
				paths: inbox.replyNumbers.map((number) => `${conversations}/${number}/messages`),
				headers: { ...bearer(inbox.token), 'Content-Type': 'application/json' },
				body: JSON.stringify({ kind: 'text', body: 'Thanks for your message, we are looking into it.' }),
			},
		},
		{
			name: 'contacts search',
			share: 0.2,
			expect: 200,
			request: { method: 'GET', path: `/v1/workspaces/${contacts.workspaceId}/contacts?search=mohamed`, headers: bearer(contacts.token) },
		},
		{
			name: 'page render (inbox)',
			share: 0.25,
			expect: 200,
			request: { method: 'GET', path: '/en-us/dashboard/conversations', headers: { Cookie: cookie, 'User-Agent': browser } },
		},
	]
}

type CaseFigures = {
	name: string
	connections: number
	requestsPerSecond: number
	responses: number
	p50: number
	p99: number
	errors: number
	unexpected: number
	statusCodes: Record<string, number>
}

function figures(mix: MixCase, connections: number, result: AutocannonResult, latencies: Float64Array): CaseFigures {
	const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]))
	const unexpected = Object.entries(statusCodes).reduce((sum, [status, count]) => sum + (Number(status) === mix.expect ? 0 : count), 0)
	return {
		name: mix.name,
		connections,
		requestsPerSecond: result.requests.average,
		responses: latencies.length,
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
		errors: result.errors + result.timeouts,
		unexpected,
		statusCodes,
	}
}

/** Every case at once on its share of `connections`, for `seconds` or until `stop` resolves. */
async function runMix(cases: MixCase[], baseUrl: string, connections: number, seconds: number, stop?: Promise<unknown>): Promise<CaseFigures[]> {
	return Promise.all(
		cases.map(async (mix) => {
			const share = Math.max(1, Math.round(connections * mix.share))
			const { result, latencies } = await attack(mix.request, baseUrl, share, seconds, stop)
			return figures(mix, share, result, latencies)
		}),
	)
}

/** The server's resident memory, in MB (Linux). */
function rssMb(pid: number): number {
	const line = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
	return line ? Number(line[1]) / 1024 : Number.NaN
}

const isAlive = (pid: number) => {
	try {
		process.kill(pid, 0)
		return true
	} catch {
		return false
	}
}

// ---------------------------------------------------------------------------------------------
// 2. PostgreSQL stops under load and comes back.

type Write = { name: string; startedAt: number; answeredAt: number; status: number | string; id?: string }

type DatabaseFault = {
	downSeconds: number
	firstUnavailableMs: number | undefined
	whileDown: {
		writes: Record<string, number>
		readyz: number
		api: { status: number; retryAfter: string | null; translated: boolean }
		page: { status: number; translated: boolean }
	}
	processAlive: boolean
	recoveredReadyzMs: number | undefined
	recoveredWriteMs: number | undefined
	writesAcknowledged: number
	writesFound: number
	/** Statuses of the read load over the whole phase (the 503s while it was down are expected). */
	readLoad: Record<string, number>
	readLoadErrors: number
}

async function databaseFault(
	context: ServerContext,
	cases: MixCase[],
	contacts: ContactsDataset,
	inbox: InboxDataset,
	cluster: Cluster,
	options: Options,
): Promise<DatabaseFault> {
	const { baseUrl } = context
	let stopLoad: () => void = () => {}
	const stopped = new Promise<void>((resolve) => (stopLoad = resolve))
	const readCases = cases.filter((mix) => mix.request.method === 'GET')
	const load = runMix(readCases, baseUrl, Math.max(readCases.length, Math.round(options.connections / 4)), 3600, stopped)

	const contactsPath = `/v1/workspaces/${contacts.workspaceId}/contacts`
	const writes: Write[] = []
	let writing = true
	let counter = 0
	const writer = async () => {
		while (writing) {
			const name = `Chaos ${++counter}`
			const startedAt = performance.now()
			try {
				const response = await fetch(baseUrl + contactsPath, {
					method: 'POST',
					headers: { ...bearer(contacts.token), 'Content-Type': 'application/json' },
					body: JSON.stringify({ name }),
				})
				const body = (await response.json().catch(() => null)) as { id?: string } | null
				writes.push({ name, startedAt, answeredAt: performance.now(), status: response.status, id: response.ok ? body?.id : undefined })
			} catch (error) {
				writes.push({ name, startedAt, answeredAt: performance.now(), status: String((error as { cause?: { code?: string } }).cause?.code ?? error) })
			}
			await sleep(20)
		}
	}
	const writers = Promise.all(Array.from({ length: 8 }, writer))
	const readyz = async () => {
		try {
			const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(5_000) })
			await response.body?.cancel()
			return response.status
		} catch {
			return 0
		}
	}

	await sleep(5_000)
	log(`stopping PostgreSQL for ${options.down} s`)
	const stoppedAt = performance.now()
	await cluster.stop()
	let firstUnavailableMs: number | undefined
	while (firstUnavailableMs === undefined && performance.now() - stoppedAt < 10_000) {
		const firstWrite = writes.find((write) => write.startedAt >= stoppedAt && write.status === 503)
		if ((await readyz()) === 503 || firstWrite) firstUnavailableMs = performance.now() - stoppedAt
		else await sleep(50)
	}
	const cookie = (await createCookie('crm-token').serialize(inbox.token)).split(';')[0] ?? ''
	const pageResponse = await fetch(`${baseUrl}/fr-x/dashboard/contacts`, { headers: { Cookie: cookie, 'User-Agent': browser }, redirect: 'manual' })
	const page = { status: pageResponse.status, translated: (await pageResponse.text()).includes('Nous revenons tout de suite') }
	const apiResponse = await fetch(baseUrl + contactsPath, {
		method: 'POST',
		headers: { ...bearer(contacts.token), 'Content-Type': 'application/json', 'Accept-Language': 'fr' },
		body: JSON.stringify({ name: 'While away' }),
	})
	const apiBody = (await apiResponse.json().catch(() => null)) as { message?: string } | null
	const api = { status: apiResponse.status, retryAfter: apiResponse.headers.get('retry-after'), translated: /base de données/.test(apiBody?.message ?? '') }
	const readyzWhileDown = await readyz()
	await sleep(Math.max(0, options.down * 1000 - (performance.now() - stoppedAt)))
	const processAlive = isAlive(context.pid)

	log('starting PostgreSQL again')
	await cluster.start()
	const startedAt = performance.now()
	let recoveredReadyzMs: number | undefined
	let recoveredWriteMs: number | undefined
	while ((recoveredReadyzMs === undefined || recoveredWriteMs === undefined) && performance.now() - startedAt < 30_000) {
		if (recoveredReadyzMs === undefined && (await readyz()) === 200) recoveredReadyzMs = performance.now() - startedAt
		const firstWrite = writes.find((write) => write.startedAt >= startedAt && write.status === 201)
		if (recoveredWriteMs === undefined && firstWrite) recoveredWriteMs = firstWrite.answeredAt - startedAt
		await sleep(50)
	}
	await sleep(5_000)
	writing = false
	stopLoad()
	const [readFigures] = await Promise.all([load, writers])

	const acknowledged = writes.filter((write) => write.status === 201 && write.id).map((write) => write.id!)
	const db = createDb(context.databaseUrl, 1)
	let found = 0
	try {
		for (let at = 0; at < acknowledged.length; at += 1000) {
			found += (
				await db
					.selectFrom('contacts')
					.select('id')
					.where('id', 'in', acknowledged.slice(at, at + 1000))
					.execute()
			).length
		}
	} finally {
		await db.destroy()
	}
	const whileDown: Record<string, number> = {}
	for (const write of writes.filter((each) => each.startedAt >= stoppedAt && each.startedAt < startedAt))
		whileDown[write.status] = (whileDown[write.status] ?? 0) + 1
	const readLoad: Record<string, number> = {}
	for (const each of readFigures) for (const [status, count] of Object.entries(each.statusCodes)) readLoad[status] = (readLoad[status] ?? 0) + count
	return {
		downSeconds: (startedAt - stoppedAt) / 1000,
		firstUnavailableMs,
		whileDown: { writes: whileDown, readyz: readyzWhileDown, api, page },
		processAlive,
		recoveredReadyzMs,
		recoveredWriteMs,
		writesAcknowledged: acknowledged.length,
		writesFound: found,
		readLoad,
		readLoadErrors: readFigures.reduce((sum, each) => sum + each.errors, 0),
	}
}

// ---------------------------------------------------------------------------------------------
// 3. SIGTERM under load.

type Termination = {
	requests: number
	inFlightAtSignal: number
	inFlightCompleted: number
	resetsBeforeSignal: number
	afterSignal: Record<string, number>
	webSockets: Record<string, number>
	exitCode: number | null
	seconds: number
}

async function sigterm(context: ServerContext, cases: MixCase[], options: Options): Promise<Termination> {
	const { key } = JSON.parse(fs.readFileSync(path.join(context.dataDir, 'realtime-app.json'), 'utf8')) as { key: string }
	const sockets = await Promise.all(
		Array.from({ length: 20 }, async () => {
			const socket = new WebSocket(`${context.baseUrl.replace('http', 'ws')}/app/${key}?protocol=7&client=js&version=8.4.0`)
			const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
			socket.on('error', () => {})
			await new Promise<void>((resolve, reject) => {
				socket.on('message', (data: Buffer) => {
					const { event } = JSON.parse(data.toString()) as { event?: string }
					if (event === 'pusher:connection_established') resolve()
					// As pusher-js does: a client that does not answer the server's ping is closed with 4201.
					if (event === 'pusher:ping') socket.send(JSON.stringify({ event: 'pusher:pong', data: {} }))
				})
				socket.on('close', () => reject(new Error('a WebSocket closed before it was established')))
			})
			// In an object: an async function returning the promise itself would wait for the close.
			return { closed }
		}),
	)

	// Closed-loop clients on keep-alive connections, every request's fate recorded.
	const loops = Math.max(cases.length, Math.round(options.connections / 4))
	const agent = new http.Agent({ keepAlive: true, maxSockets: loops })
	const send = (request: MixCase['request'], turn: number) =>
		new Promise<number>((resolve, reject) => {
			const route = request.paths?.length ? request.paths[turn % request.paths.length]! : request.path
			const outgoing = http.request(
				new URL(route, context.baseUrl),
				{ method: request.method, agent, headers: { ...request.headers, ...request.headersFor?.(turn) } },
				(response) => {
					response.resume()
					response.on('end', () => resolve(response.statusCode ?? 0))
					response.on('error', reject)
				},
			)
			outgoing.on('error', reject)
			outgoing.end(request.body)
		})
	const load = signalLoad(loops, (index, turn) => send(cases[index % cases.length]!.request, index * 100_000 + turn))
	const { sent } = load
	await sleep(5_000)
	while (load.outstanding() < loops / 2) await sleep(5)
	const inFlightAtSignal = load.outstanding()
	load.signal()
	log('SIGTERM to the server')
	// Sends SIGTERM and waits for the exit (SIGKILL after 15 s), then removes its DATA_DIR.
	await cleanup()
	await load.stop()
	agent.destroy()
	const codes = await Promise.all(sockets.map((socket) => socket.closed))

	const before = sent.filter((each) => each.beforeSignal)
	const afterSignal: Record<string, number> = {}
	for (const each of sent.filter((record) => !record.beforeSignal)) afterSignal[String(each.outcome)] = (afterSignal[String(each.outcome)] ?? 0) + 1
	const webSockets: Record<string, number> = {}
	for (const code of codes) webSockets[code] = (webSockets[code] ?? 0) + 1
	const shutdown = serverShutdown()
	return {
		requests: sent.length,
		inFlightAtSignal,
		inFlightCompleted: before.filter((each) => each.answeredAfterSignal && typeof each.outcome === 'number').length,
		resetsBeforeSignal: before.filter((each) => typeof each.outcome !== 'number').length,
		afterSignal,
		webSockets,
		exitCode: shutdown?.exitCode ?? null,
		seconds: shutdown?.seconds ?? Number.NaN,
	}
}

// ---------------------------------------------------------------------------------------------

/** The embedded PostgreSQL of this run, which phase 2 stops and starts again on the same port. */
type Cluster = { url: (database: string) => string; stop: () => Promise<void>; start: () => Promise<void> }

const pgDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-chaos-pg-'))
fs.chmodSync(pgDirectory, 0o755)

async function startCluster(port: number): Promise<Cluster> {
	const quiet = { info: () => {}, debug: () => {}, error: (message: string) => log(`postgres: ${message}`) }
	const open = () => startEmbeddedPostgres({ directory: path.join(pgDirectory, 'pg'), port, log: quiet })
	let running: EmbeddedCluster | undefined = await open()
	return {
		url: running.url,
		stop: async () => {
			await running?.stop()
			running = undefined
		},
		start: async () => {
			running = await open()
		},
	}
}

process.on('exit', () => {
	// Last resort (a crash, Ctrl-C): PostgreSQL's immediate shutdown, then its files.
	try {
		const pid = Number(fs.readFileSync(path.join(pgDirectory, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0])
		if (pid > 0) process.kill(pid, 'SIGQUIT')
	} catch {
		// Not running.
	}
	fs.rmSync(pgDirectory, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
})

/** The load's rows of the table: a case a row, then the server's memory. */
function loadRows(load: CaseFigures[], rssWarm: number, rssAfter: number): string[][] {
	const rows = [['', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'unexpected']]
	for (const each of load) {
		rows.push([
			`load: ${each.name} (${each.connections} conn.)`,
			Math.round(each.requestsPerSecond).toLocaleString('en-US'),
			each.p50.toFixed(1),
			each.p99.toFixed(1),
			String(each.errors),
			String(each.unexpected),
		])
	}
	const growth = rssAfter / rssWarm - 1
	rows.push([
		'load: server RSS after warm-up → after the run',
		`${rssWarm.toFixed(0)} MB → ${rssAfter.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %)`,
		'',
		'',
		'',
		'',
	])
	return rows
}

const ms = (value: number | undefined) => (value === undefined ? 'never' : `${Math.round(value)} ms`)
const statuses = (counts: Record<string, number>) =>
	Object.entries(counts)
		.map(([status, count]) => `${status} × ${count.toLocaleString('en-US')}`)
		.join(', ') || 'none'

async function main() {
	const options = parseOptions()
	if (options.build) {
		log('building for production (npm run build; skip with --no-build)')
		await run('npm', ['run', 'build'])
	}
	const entry = findServerEntry()
	const pgPort = options.port === undefined ? await freePort() : options.port + 1
	log(`starting PostgreSQL on 127.0.0.1:${pgPort}`)
	const cluster = await startCluster(pgPort)
	try {
		await ensureDatabase(cluster.url('postgres'), 'crm')
		// The server's DATABASE_URL (bench/server.ts passes it on).
		process.env.BENCH_DATABASE_URL = cluster.url('crm')
		const context = await startServer(entry, { logName: 'chaos-server.log', port: options.port })
		const contacts = await seedContacts(context.databaseUrl, log)
		const inbox = await seedInbox(context.databaseUrl, contacts, log)
		const signIn = { email: `chaos-${crypto.randomBytes(4).toString('hex')}@example.test`, password: 'Chaos-password-1' }
		const db = createDb(context.databaseUrl, 1)
		try {
			const user = await db
				.insertInto('users')
				.values({
					email: signIn.email,
					name: 'Chaos',
					passwordHash: await hashPassword(signIn.password),
					emailVerifiedAt: new Date(),
					currentWorkspaceId: inbox.workspaceId,
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			await db.insertInto('members').values({ workspaceId: inbox.workspaceId, userId: user.id, role: 'agent' }).execute()
		} finally {
			await db.destroy()
		}
		const cases = await mixedWorkload(contacts, inbox, signIn)

		log(`load: warm-up ${options.warmup} s, then ${options.duration} s × ${options.connections} connections`)
		if (options.warmup > 0) await runMix(cases, context.baseUrl, options.connections, options.warmup)
		await sleep(2_000)
		const rssWarm = rssMb(context.pid)
		const load = await runMix(cases, context.baseUrl, options.connections, options.duration)
		await sleep(2_000)
		const rssAfter = rssMb(context.pid)
		// Said at once: the faults that follow may end the run.
		log(`load:\n${table(loadRows(load, rssWarm, rssAfter))}`)
		if (isInterrupted()) return

		const fault = await databaseFault(context, cases, contacts, inbox, cluster, options)
		if (isInterrupted()) return
		const termination = await sigterm(context, cases, options)

		const rssGrowth = rssAfter / rssWarm - 1
		const checks = {
			'load: no errors, every status the expected one': load.every((each) => each.errors === 0 && each.unexpected === 0),
			'load: memory after the run within 20 % of after the warm-up': Math.abs(rssGrowth) <= 0.2,
			'database away: /readyz 503, API 503 + Retry-After, translated':
				fault.whileDown.readyz === 503 && fault.whileDown.api.status === 503 && fault.whileDown.api.retryAfter !== null && fault.whileDown.api.translated,
			'database away: a page answers the translated 503 screen': fault.whileDown.page.status === 503 && fault.whileDown.page.translated,
			'database away: the writes answered 201 or 503, never 500 nor a broken connection':
				Object.keys(fault.whileDown.writes).every((status) => status === '201' || status === '503') && fault.readLoadErrors === 0,
			'database away: the process stays up': fault.processAlive,
			'database back: success within 5 s, without a restart': fault.recoveredWriteMs !== undefined && fault.recoveredWriteMs <= 5_000,
			'database back: every acknowledged write is in the database': fault.writesFound === fault.writesAcknowledged,
			'SIGTERM: no request sent before it reset': termination.resetsBeforeSignal === 0,
			'SIGTERM: WebSockets told to reconnect (4200-4299)': Object.keys(termination.webSockets).every((code) => Number(code) >= 4200 && Number(code) < 4300),
			'SIGTERM: exit code 0': termination.exitCode === 0,
		}

		const cpus = os.cpus()
		const output = {
			date: new Date().toISOString(),
			machine: { cpus: cpus.length, cpuModel: cpus[0]?.model.trim() ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
			options,
			load: { cases: load, rssMb: { afterWarmup: rssWarm, afterRun: rssAfter, growth: rssGrowth } },
			databaseFault: fault,
			sigterm: termination,
			checks,
		}
		fs.mkdirSync(resultsDir, { recursive: true })
		const file = path.join(resultsDir, 'chaos.json')
		fs.writeFileSync(file, `${JSON.stringify(output, null, '\t')}\n`)

		const rows = loadRows(load, rssWarm, rssAfter)
		const line = (label: string, value: string) => rows.push([label, value, '', '', '', ''])
		line('database: time to the first 503 after the stop', ms(fault.firstUnavailableMs))
		line('database: writes started while down', statuses(fault.whileDown.writes))
		line(
			'database: /readyz, API, page while down',
			`${fault.whileDown.readyz}, ${fault.whileDown.api.status} (Retry-After ${fault.whileDown.api.retryAfter ?? 'none'}), ${fault.whileDown.page.status}`,
		)
		line('database: read load over the phase', `${statuses(fault.readLoad)}; errors ${fault.readLoadErrors}`)
		line('database: back after the start, /readyz / first write', `${ms(fault.recoveredReadyzMs)} / ${ms(fault.recoveredWriteMs)}`)
		line('database: writes acknowledged / found in the database', `${fault.writesAcknowledged} / ${fault.writesFound}`)
		line('SIGTERM: in flight at the signal / completed', `${termination.inFlightAtSignal} / ${termination.inFlightCompleted}`)
		line('SIGTERM: resets of requests sent before it', String(termination.resetsBeforeSignal))
		line('SIGTERM: requests after it', statuses(termination.afterSignal))
		line('SIGTERM: WebSocket close codes', statuses(termination.webSockets))
		line('SIGTERM: exit code, time to exit', `${termination.exitCode}, ${termination.seconds.toFixed(1)} s`)
		process.stdout.write(
			`\n${output.machine.cpus} × ${output.machine.cpuModel}, ${output.machine.memoryGb} GB, Node ${output.machine.node}; ` +
				`${options.connections} connections, ${options.duration} s after ${options.warmup} s warm-up; PostgreSQL down ${fault.downSeconds.toFixed(1)} s\n\n${table(rows)}\n\n` +
				Object.entries(checks)
					.map(([check, ok]) => `${ok ? 'ok  ' : 'FAIL'}  ${check}`)
					.join('\n') +
				`\n\nwritten to ${path.relative(process.cwd(), file)}\n`,
		)
		if (!Object.values(checks).every(Boolean)) process.exitCode = 1
	} finally {
		await cleanup()
		await cluster.stop()
	}
}

main().catch((error: unknown) => {
	if (!isInterrupted()) process.stderr.write(`\nchaos failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
	process.exitCode = 1
})
