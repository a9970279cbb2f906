/**
 * Load benchmark of the production server: builds it, starts `build/server.js` on loopback with a
 * throw-away DATA_DIR (embedded PostgreSQL), and drives each case with autocannon after a warm-up.
 * `/healthz` (no database, no rendering) is the baseline every other case is compared with. The
 * contacts cases first seed 2 × 100 000 contacts into that database (bench/contacts.ts), the inbox
 * cases 2 × 100 000 conversations with 2 × 1 000 000 messages on top of them (bench/inbox.ts).
 *
 *   npm run bench -- [--no-build] [--duration 10] [--warmup 2] [--connections 50] [--only en-us | --only "inbox: list"]
 *
 * Environment: BENCH_SKIP_BUILD=1 (same as --no-build), BENCH_LOG_LEVEL (the server's, default
 * warn), BENCH_DATABASE_URL (an existing PostgreSQL instead of the embedded one; the contacts
 * cases add 200 000 contacts to it, the inbox cases 200 000 conversations and 2 000 000 messages).
 *
 * Prints a table to stdout (req/s, p50, p99, errors, the share of /healthz req/s and whether the
 * case's goal of issues 13 and 14 is met; a case whose page is not built yet says "skipped"), writes it all to bench/results/latest.json (and the server's
 * output to bench/results/server.log), and exits non-zero when a case saw errors or unexpected
 * statuses. A missed goal is reported, not a failure: figures on a shared machine are noisy.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createCookie } from '@remix-run/node'
import { cursorAt, deepPageRows, seedContacts, type ContactsDataset } from './contacts.ts'
import { arabicSearchWord, deepThreadMessages, longThreadNumber, searchWord, seedInbox, type InboxDataset } from './inbox.ts'

// ---------------------------------------------------------------------------------------------
// Cases: add new pages here. `setup` runs once against the live server before the case (to log
// in, create fixtures…) and may override the request's path, headers or body.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'

export type BenchRequest = {
	path: string
	method?: Method
	headers?: Record<string, string>
	body?: string
	/** Paths taken in turn, one per request, instead of `path` (writes spread over many rows, as many users' would be). */
	paths?: string[]
}

/** What a case should reach in the run (issue 13): a share of /healthz req/s, a p99 ceiling. */
export type Goal = { minShare?: number; maxP99Ms?: number }

export type BenchCase = BenchRequest & {
	name: string
	/** Statuses this case is meant to answer with; by default any 2xx. */
	expectStatus?: number | number[]
	goal?: Goal
	setup?: (context: SetupContext) => Promise<Partial<BenchRequest> | { skip: string } | void>
}

/** What a case's setup may use: the server, and its database (to seed it). */
export type SetupContext = { baseUrl: string; databaseUrl: string }

const baselineCase: BenchCase = { name: 'healthz (baseline)', path: '/healthz' }

// Seeded once, by the first contacts case that runs.
let contactsDataset: Promise<ContactsDataset> | undefined
function contacts(context: SetupContext) {
	contactsDataset ??= seedContacts(context.databaseUrl, log)
	return contactsDataset
}

/** A `/v1` request of the contacts bench member (an agent), with its bearer token. */
function contactsCase(name: string, goal: Goal, query: (dataset: ContactsDataset, context: SetupContext) => Promise<string> | string): BenchCase {
	return {
		name,
		goal,
		path: '/v1/workspaces/{id}/contacts',
		setup: async (context) => {
			const dataset = await contacts(context)
			return {
				path: `/v1/workspaces/${dataset.workspaceId}/contacts${await query(dataset, context)}`,
				headers: { Authorization: `Bearer ${dataset.token}` },
			}
		},
	}
}

const tokenCookie = createCookie('crm-token')
const signedIn = async (token: string) => ({ Cookie: (await tokenCookie.serialize(token)).split(';')[0] ?? '' })

// Seeded once, by the first inbox case that runs, into the contacts bench's workspaces.
let inboxDataset: Promise<InboxDataset> | undefined
function inbox(context: SetupContext) {
	inboxDataset ??= contacts(context).then((dataset) => seedInbox(context.databaseUrl, dataset, log))
	return inboxDataset
}

/** A `/v1/workspaces/{id}/conversations…` request of the bench member (an agent). */
function inboxCase(name: string, goal: Goal, request: (dataset: InboxDataset) => Partial<BenchRequest> & { path: string }, expectStatus?: number): BenchCase {
	return {
		name,
		goal,
		expectStatus,
		path: '/v1/workspaces/{id}/conversations',
		setup: async (context) => {
			const dataset = await inbox(context)
			const { path, paths, ...rest } = request(dataset)
			const base = `/v1/workspaces/${dataset.workspaceId}/conversations`
			return { ...rest, path: base + path, paths: paths?.map((each) => base + each), headers: { Authorization: `Bearer ${dataset.token}`, ...rest.headers } }
		},
	}
}

/** The rendered inbox, signed in as the same member; skipped while the page answers 404 (not built on this branch). */
function inboxPageCase(name: string, goal: Goal, path: string): BenchCase {
	return {
		name,
		goal,
		path,
		setup: async (context) => {
			const dataset = await inbox(context)
			const headers = await signedIn(dataset.token)
			const probe = await fetch(new URL(path, context.baseUrl), { headers, redirect: 'manual' })
			await probe.body?.cancel()
			if (probe.status === 404) return { skip: 'page not built' }
			return { headers }
		},
	}
}

/** The rendered page, signed in as the same member with the crm-token cookie, as a browser is. */
function contactsPageCase(name: string, goal: Goal, path: (dataset: ContactsDataset) => string): BenchCase {
	return {
		name,
		goal,
		path: '/{lang}/dashboard/contacts',
		setup: async (context) => {
			const dataset = await contacts(context)
			return { path: path(dataset), headers: await signedIn(dataset.token) }
		},
	}
}

// The goals of issue 13, as shares of /healthz req/s in the same run and p99 ceilings.
const page: Goal = { minShare: 0.25 }
const contactsApi: Goal = { minShare: 0.2, maxP99Ms: 100 }
const contactsPage: Goal = { minShare: 0.08, maxP99Ms: 250 }
// Issue 14's.
const inboxList: Goal = { maxP99Ms: 100 }
const inboxSearch: Goal = { maxP99Ms: 200 }
const inboxPage: Goal = { maxP99Ms: 300 }
const inboxReply: Goal = { maxP99Ms: 150 }

const cases: BenchCase[] = [
	{ name: 'home en-us', path: '/en-us', goal: page },
	{ name: 'home ar-eg', path: '/ar-eg', goal: page },
	{ name: 'home fr-x', path: '/fr-x', goal: page },
	{ name: 'login page en-us', path: '/en-us/auth/login', goal: page },
	{ name: 'readyz (database)', path: '/readyz' },
	contactsCase('contacts: first page', contactsApi, () => ''),
	contactsCase(`contacts: page ${deepPageRows.toLocaleString('en-US')} rows deep`, contactsApi, async (dataset, { baseUrl }) => `?cursor=${await cursorAt(baseUrl, dataset, deepPageRows)}`),
	contactsCase('contacts: search a Latin name', contactsApi, () => '?search=mohamed'),
	// 13 % of the contacts match: a broad search.
	contactsCase('contacts: search an Arabic name', { maxP99Ms: 150 }, () => `?search=${encodeURIComponent('محمد')}`),
	contactsCase('contacts: search phone digits', contactsApi, () => '?search=1001234'),
	contactsCase('contacts: filter by label, newest first', contactsApi, (dataset) => `?label=${dataset.labelId}&sort=created`),
	contactsPageCase('contacts page en-us', contactsPage, () => '/en-us/dashboard/contacts'),
	contactsPageCase('contacts page ar-eg, searched', contactsPage, () => `/ar-eg/dashboard/contacts?search=${encodeURIComponent('محمد')}`),
	inboxCase('inbox: list open tab', inboxList, () => ({ path: '' })),
	inboxCase('inbox: list mine', inboxList, () => ({ path: '?assignee=me' })),
	inboxCase('inbox: list a label', inboxList, (dataset) => ({ path: `?labelId=${dataset.labelId}` })),
	inboxCase(`inbox: search a word of the messages (${searchWord})`, inboxSearch, () => ({ path: `?search=${searchWord}` })),
	inboxCase('inbox: search an Arabic word of the messages', inboxSearch, () => ({ path: `?search=${encodeURIComponent(arabicSearchWord)}` })),
	inboxCase('inbox: thread newest page', inboxList, () => ({ path: `/${longThreadNumber}/messages` })),
	inboxCase(`inbox: thread ${deepThreadMessages.toLocaleString('en-US')} messages back`, inboxList, (dataset) => ({ path: `/${longThreadNumber}/messages?before=${dataset.deepBefore}` })),
	inboxPageCase('inbox page en-us', inboxPage, '/en-us/dashboard/conversations'),
	// Each request answers another open conversation of the link channel (sent by its job, published on the workspace channel).
	inboxCase(
		'inbox: reply',
		inboxReply,
		(dataset) => ({
			path: `/${dataset.replyNumbers[0]}/messages`,
			paths: dataset.replyNumbers.map((number) => `/${number}/messages`),
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ kind: 'text', body: 'Thanks for your message, we are looking into it.' }),
		}),
		201,
	),
]

// ---------------------------------------------------------------------------------------------
// autocannon ships no types: the part of its API used here.

type AutocannonOptions = {
	url: string
	method?: Method
	headers?: Record<string, string>
	body?: string
	connections: number
	duration: number
	pipelining?: number
	timeout?: number
	requests?: Array<{ setupRequest: (request: { path: string }) => { path: string } }>
}

type AutocannonResult = {
	duration: number
	errors: number
	timeouts: number
	non2xx: number
	statusCodeStats: Record<string, { count: number }>
	requests: { average: number; total: number; sent: number }
	latency: { p50: number; p99: number }
	throughput: { average: number }
}

type AutocannonInstance = {
	stop: () => void
	on: (event: 'response', listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void) => void
}

type Autocannon = (
	options: AutocannonOptions,
	callback: (error: Error | null, result: AutocannonResult) => void,
) => AutocannonInstance

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

// ---------------------------------------------------------------------------------------------

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const resultsDir = path.join(root, 'bench', 'results')
const serverLog = path.join(resultsDir, 'server.log')

type Options = { build: boolean; duration: number; warmup: number; connections: number; only: string | undefined }

function parseOptions(): Options {
	const { values } = parseArgs({
		options: {
			'no-build': { type: 'boolean', default: false },
			duration: { type: 'string', default: '10' },
			warmup: { type: 'string', default: '2' },
			connections: { type: 'string', default: '50' },
			only: { type: 'string' },
		},
		allowPositionals: false,
	})
	const number = (name: string, value: string, min: number) => {
		const parsed = Number(value)
		if (!Number.isFinite(parsed) || parsed < min) throw new Error(`--${name} must be a number ≥ ${min}, got ${value}`)
		return parsed
	}
	return {
		build: !values['no-build'] && process.env.BENCH_SKIP_BUILD !== '1',
		duration: number('duration', values.duration, 1),
		warmup: number('warmup', values.warmup, 0),
		connections: Math.round(number('connections', values.connections, 1)),
		only: values.only,
	}
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`)

// ---------------------------------------------------------------------------------------------
// Cleanup: the server and the temporary DATA_DIR go away on success, failure and Ctrl-C alike.

type Running = { child: ChildProcess; exited: Promise<void> }
type Shutdown = { exitCode: number | null; signal: string | null; seconds: number; clean: boolean }

let server: Running | undefined
let shutdown: Shutdown | undefined
let dataDir: string | undefined
let currentRun: AutocannonInstance | undefined
let interrupted = false

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
	if (child.pid === undefined) return
	try {
		// The server runs in its own process group, so the embedded PostgreSQL goes too.
		process.kill(-child.pid, signal)
	} catch {
		// ESRCH: the group is already gone.
	}
}

async function stopServer() {
	const running = server
	server = undefined
	if (!running) return
	const { child, exited } = running
	if (child.exitCode === null && child.signalCode === null) {
		log('stopping the server (SIGTERM)')
		const started = Date.now()
		child.kill('SIGTERM')
		const timer = setTimeout(() => {
			log('the server did not stop within 15 s: SIGKILL')
			killGroup(child, 'SIGKILL')
		}, 15_000)
		await exited
		clearTimeout(timer)
		const seconds = (Date.now() - started) / 1000
		shutdown = { exitCode: child.exitCode, signal: child.signalCode, seconds, clean: child.exitCode === 0 }
		if (shutdown.clean) log(`server stopped cleanly in ${seconds.toFixed(1)} s`)
		else log(`WARNING: the server did not stop cleanly (${child.signalCode ?? `exit code ${child.exitCode}`}); its output is in ${path.relative(process.cwd(), serverLog)}`)
	}
	// PostgreSQL (in the server's process group) may still be shutting down: give it a few seconds,
	// then kill whatever is left, so that nothing writes into DATA_DIR while it is removed.
	if (!(await groupGone(child, 10_000))) {
		log('processes of the server are still running: SIGKILL')
		killGroup(child, 'SIGKILL')
		await groupGone(child, 5_000)
	}
}

async function groupGone(child: ChildProcess, ms: number): Promise<boolean> {
	if (child.pid === undefined) return true
	const deadline = Date.now() + ms
	for (;;) {
		try {
			process.kill(-child.pid, 0)
		} catch {
			return true
		}
		if (Date.now() > deadline) return false
		await sleep(100)
	}
}

function removeDataDir() {
	if (!dataDir) return
	fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
	dataDir = undefined
}

async function cleanup() {
	try {
		await stopServer()
	} catch (error) {
		log(`could not stop the server: ${error instanceof Error ? error.message : String(error)}`)
	}
	try {
		removeDataDir()
	} catch (error) {
		log(`could not remove ${dataDir}: ${error instanceof Error ? error.message : String(error)}`)
	}
}

process.on('exit', () => {
	// Last resort when something exits before cleanup() ran: nothing asynchronous is possible here.
	if (server) killGroup(server.child, 'SIGKILL')
	try {
		removeDataDir()
	} catch {
		// Nothing more can be done while exiting.
	}
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (interrupted) return
		interrupted = true
		log(`${signal}: stopping`)
		currentRun?.stop()
		void cleanup().finally(() => process.exit(130))
	})
}

// ---------------------------------------------------------------------------------------------

function run(command: string, args: string[]): Promise<void> {
	return new Promise((resolve, reject) => {
		// Build output goes to stderr so that stdout carries only the results.
		const child = spawn(command, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })
		child.on('error', reject)
		child.on('exit', (code, signal) =>
			code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`)),
		)
	})
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer()
		probe.on('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no free port'))))
		})
	})
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function findServerEntry(): string {
	const entry = path.join(root, 'build', 'server.js')
	if (!fs.existsSync(entry)) throw new Error(`${path.relative(root, entry)} is missing: run without --no-build`)
	if (!fs.existsSync(path.join(root, 'build', 'server', 'index.js'))) throw new Error('build/server/index.js is missing: run without --no-build')
	return entry
}

/**
 * Starts the production server. With LOG_LEVEL=warn it does not print its "listening" line, so
 * the port is chosen here (the kernel's pick, released just before); the line is still honoured
 * when it shows up.
 */
async function startServer(entry: string): Promise<SetupContext> {
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'))
	// As root the embedded PostgreSQL runs as the `postgres` user, which must reach DATA_DIR/postgres.
	fs.chmodSync(dataDir, 0o755)
	const port = await freePort()
	// Chosen here so that the contacts case can seed the embedded database (on loopback; the server
	// generates its password into DATA_DIR/postgres-password, read once it is up).
	const databasePort = await freePort()
	const databaseUrl = () =>
		process.env.BENCH_DATABASE_URL ||
		`postgres://postgres:${encodeURIComponent(fs.readFileSync(path.join(dataDir!, 'postgres-password'), 'utf8').trim())}@127.0.0.1:${databasePort}/crm`
	let baseUrl = `http://127.0.0.1:${port}`
	const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn'
	const output: string[] = []
	const child = spawn(process.execPath, [entry], {
		cwd: root,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			...process.env,
			NODE_ENV: 'production',
			HOST: '127.0.0.1',
			PORT: String(port),
			DATA_DIR: dataDir,
			// Empty rather than absent so that a DATABASE_URL in .env cannot win: always the embedded database.
			DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
			EMBEDDED_PG_PORT: process.env.BENCH_DATABASE_URL ? '' : String(databasePort),
			PUBLIC_URL: baseUrl,
			LOG_LEVEL: logLevel,
			SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
		},
	})
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	server = { child, exited }
	// Everything the server prints goes to bench/results/server.log; a few lines of it to the terminal.
	fs.mkdirSync(resultsDir, { recursive: true })
	const logFile = fs.createWriteStream(serverLog)
	void exited.then(() => logFile.end())
	child.once('exit', (code, signal) => {
		// Not stopped from here: it crashed.
		if (server?.child === child && !interrupted) log(`the server exited unexpectedly (${signal ?? `exit code ${code}`})`)
	})
	let shown = 0
	const keep = (line: string, show: boolean) => {
		logFile.write(`${line}\n`)
		output.push(line)
		if (output.length > 40) output.shift()
		if (show && shown++ < 10) log(`server: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`)
		if (show && shown === 10) log(`server: (more in ${path.relative(process.cwd(), serverLog)})`)
	}
	if (child.stdout) {
		readline.createInterface({ input: child.stdout }).on('line', (line) => {
			const match = /CRM listening on (http:\/\/\S+)/.exec(line)
			if (match?.[1]) baseUrl = match[1]
			// pino levels 50 (error) and 60 (fatal); warnings (4xx responses, for one) stay in the log file.
			keep(line, /"level":\s*(50|60)\b/.test(line))
		})
	}
	if (child.stderr) readline.createInterface({ input: child.stderr }).on('line', (line) => keep(line, true))

	const started = Date.now()
	const deadline = started + 120_000
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`the server exited before it was ready. Last output:\n${output.join('\n')}`)
		}
		try {
			const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) })
			await response.body?.cancel()
			if (response.ok) {
				log(`server ready at ${baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`)
				return { baseUrl, databaseUrl: databaseUrl() }
			}
		} catch {
			// Not listening yet.
		}
		await sleep(250)
	}
	throw new Error(`the server was not ready within 120 s. Last output:\n${output.join('\n')}`)
}

// ---------------------------------------------------------------------------------------------

type Measurement = {
	name: string
	method: Method
	path: string
	connections: number
	durationSeconds: number
	requests: number
	/** Responses received within the run (the latencies are theirs); 0 when every request outlasted it. */
	responses: number
	requestsPerSecond: number
	latencyMs: { p50: number; p99: number; mean: number; max: number }
	throughputBytesPerSecond: number
	errors: number
	timeouts: number
	/** Responses outside 2xx, not counting the statuses the case expects. */
	non2xx: number
	/** Responses whose status the case did not expect (a 2xx is unexpected when `expectStatus` lists others). */
	unexpectedStatus: number
	statusCodes: Record<string, number>
	vsBaseline?: { requestsPerSecond: number; p50: number; p99: number }
	goal?: Goal & { met: boolean }
	/** Why the case was not measured (its page does not exist yet): no figures, no goal. */
	skipped?: string
}

function emptyMeasurement(benchCase: BenchCase): Measurement {
	return {
		name: benchCase.name,
		method: benchCase.method ?? 'GET',
		path: benchCase.path,
		connections: 0,
		durationSeconds: 0,
		requests: 0,
		responses: 0,
		requestsPerSecond: 0,
		latencyMs: { p50: 0, p99: 0, mean: 0, max: 0 },
		throughputBytesPerSecond: 0,
		errors: 0,
		timeouts: 0,
		non2xx: 0,
		unexpectedStatus: 0,
		statusCodes: {},
	}
}

/** Whether a measurement reaches its case's goal (every part of it), given its share of /healthz req/s; none answered within the run is a miss. */
export function meetsGoal(goal: Goal, measured: { share: number; p99Ms: number; responses: number }): boolean {
	return measured.responses > 0 && (goal.minShare === undefined || measured.share >= goal.minShare) && (goal.maxP99Ms === undefined || measured.p99Ms <= goal.maxP99Ms)
}

function describeGoal(goal: Goal): string {
	return [goal.minShare !== undefined && `≥ ${Math.round(goal.minShare * 100)} %`, goal.maxP99Ms !== undefined && `p99 ≤ ${goal.maxP99Ms} ms`].filter(Boolean).join(', ')
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: Float64Array, p: number): number {
	if (sorted.length === 0) return 0
	const rank = Math.ceil((p / 100) * sorted.length) - 1
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? 0
}

function attack(request: Required<Pick<BenchRequest, 'method'>> & BenchRequest, baseUrl: string, connections: number, seconds: number) {
	const { paths } = request
	let turn = 0
	// autocannon's histogram keeps whole milliseconds: the response times are kept here as well.
	let samples = new Float64Array(16_384)
	let count = 0
	return new Promise<{ result: AutocannonResult; latencies: Float64Array }>((resolve, reject) => {
		const instance = autocannon(
			{
				url: new URL(request.path, baseUrl).href,
				method: request.method,
				headers: request.headers,
				body: request.body,
				connections,
				duration: seconds,
				pipelining: 1,
				timeout: 10,
				requests: paths?.length ? [{ setupRequest: (next) => ({ ...next, path: paths[turn++ % paths.length] ?? next.path }) }] : undefined,
			},
			(error, result) => {
				currentRun = undefined
				if (error) reject(error)
				else resolve({ result, latencies: samples.subarray(0, count).sort() })
			},
		)
		currentRun = instance
		instance.on('response', (_client, _status, _bytes, responseTime) => {
			if (count === samples.length) {
				const grown = new Float64Array(samples.length * 2)
				grown.set(samples)
				samples = grown
			}
			samples[count++] = responseTime
		})
	})
}

async function measure(benchCase: BenchCase, context: SetupContext, options: Options): Promise<Measurement> {
	const { baseUrl } = context
	const setup = (await benchCase.setup?.(context)) ?? {}
	if ('skip' in setup) {
		log(`${benchCase.name}: skipped: ${setup.skip}`)
		return { ...emptyMeasurement(benchCase), skipped: setup.skip }
	}
	const overrides: Partial<BenchRequest> = setup
	const request = {
		path: overrides.path ?? benchCase.path,
		method: overrides.method ?? benchCase.method ?? 'GET',
		headers: { ...benchCase.headers, ...overrides.headers },
		body: overrides.body ?? benchCase.body,
		paths: overrides.paths ?? benchCase.paths,
	}
	log(`${benchCase.name}: ${request.method} ${request.path} — warm-up ${options.warmup} s, then ${options.duration} s × ${options.connections} connections`)
	if (options.warmup > 0) await attack(request, baseUrl, options.connections, options.warmup)
	if (interrupted) throw new Error('interrupted')
	const { result, latencies } = await attack(request, baseUrl, options.connections, options.duration)

	const expected = benchCase.expectStatus === undefined ? undefined : [benchCase.expectStatus].flat()
	const isExpected = (status: number) => (expected ? expected.includes(status) : status >= 200 && status < 300)
	const statusCodes: Record<string, number> = {}
	let non2xx = 0
	let unexpectedStatus = 0
	for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
		statusCodes[status] = count
		const code = Number(status)
		if (!isExpected(code)) unexpectedStatus += count
		if ((code < 200 || code >= 300) && !isExpected(code)) non2xx += count
	}
	let sum = 0
	for (const value of latencies) sum += value
	return {
		name: benchCase.name,
		method: request.method,
		path: request.path,
		connections: options.connections,
		durationSeconds: result.duration,
		requests: result.requests.total,
		responses: latencies.length,
		requestsPerSecond: result.requests.average,
		latencyMs: {
			p50: percentile(latencies, 50),
			p99: percentile(latencies, 99),
			mean: latencies.length ? sum / latencies.length : 0,
			max: latencies.length ? (latencies[latencies.length - 1] ?? 0) : 0,
		},
		throughputBytesPerSecond: result.throughput.average,
		errors: result.errors,
		timeouts: result.timeouts,
		non2xx,
		unexpectedStatus,
		statusCodes,
	}
}

// ---------------------------------------------------------------------------------------------

function table(rows: string[][]): string {
	const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
	const line = (row: string[]) =>
		row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')
	const [header, ...body] = rows
	if (!header) return ''
	return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...body.map(line)].join('\n')
}

const ms = (value: number) => value.toFixed(2)
const share = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? 'n/a' : `${(value * 100).toFixed(1)} %`)

function report(measurements: Measurement[]): string {
	const rows = [['case', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'of /healthz req/s', 'goal', 'met']]
	for (const m of measurements) {
		if (m.skipped) {
			rows.push([`${m.name}  (${m.method} ${m.path})`, `skipped: ${m.skipped}`, '', '', '', '', '', '', ''])
			continue
		}
		rows.push([
			`${m.name}  (${m.method} ${m.path.length > 50 ? `${m.path.slice(0, 49)}…` : m.path})`,
			Math.round(m.requestsPerSecond).toLocaleString('en-US'),
			m.responses ? ms(m.latencyMs.p50) : 'none',
			m.responses ? ms(m.latencyMs.p99) : 'none',
			String(m.errors + m.timeouts),
			String(m.unexpectedStatus),
			m.vsBaseline ? share(m.vsBaseline.requestsPerSecond) : 'baseline',
			m.goal ? describeGoal(m.goal) : '',
			m.goal ? (m.goal.met ? 'yes' : 'NO') : '',
		])
	}
	return table(rows)
}

async function main() {
	const options = parseOptions()
	if (options.build) {
		log('building for production (npm run build; skip with --no-build)')
		await run('npm', ['run', 'build'])
	}
	const entry = findServerEntry()
	const context = await startServer(entry)

	const selected = options.only ? cases.filter((c) => `${c.name} ${c.path}`.includes(options.only ?? '')) : cases
	if (selected.length === 0) throw new Error(`no case matches --only ${options.only}`)
	const baseline = await measure(baselineCase, context, options)
	const measurements = [baseline]
	for (const benchCase of selected) {
		if (interrupted) return
		const m = await measure(benchCase, context, options)
		measurements.push(m)
		if (m.skipped) continue
		m.vsBaseline = {
			requestsPerSecond: baseline.requestsPerSecond ? m.requestsPerSecond / baseline.requestsPerSecond : Number.NaN,
			p50: baseline.latencyMs.p50 ? m.latencyMs.p50 / baseline.latencyMs.p50 : Number.NaN,
			p99: baseline.latencyMs.p99 ? m.latencyMs.p99 / baseline.latencyMs.p99 : Number.NaN,
		}
		if (benchCase.goal) m.goal = { ...benchCase.goal, met: meetsGoal(benchCase.goal, { share: m.vsBaseline.requestsPerSecond, p99Ms: m.latencyMs.p99, responses: m.responses }) }
	}
	const dataset = contactsDataset && (await contactsDataset)
	const inboxData = inboxDataset && (await inboxDataset)
	// autocannon leaves its last requests unanswered: let the server finish them before it stops and closes the database.
	await sleep(1000)
	await cleanup()

	const cpus = os.cpus()
	const output = {
		date: new Date().toISOString(),
		machine: {
			cpus: cpus.length,
			cpuModel: cpus[0]?.model.trim() ?? 'unknown',
			memoryGb: Math.round(os.totalmem() / 2 ** 30),
			platform: `${os.platform()} ${os.release()}`,
			arch: os.arch(),
			node: process.version,
		},
		options: { duration: options.duration, warmup: options.warmup, connections: options.connections, build: options.build },
		results: measurements,
		contacts: dataset && {
			rows: dataset.rows,
			rowsInWorkspace: dataset.rowsInWorkspace,
			databaseBytes: dataset.databaseBytes,
			seedSeconds: dataset.seedSeconds,
			deepPageRows,
		},
		inbox: inboxData && {
			conversationsInWorkspace: inboxData.conversations,
			messagesInWorkspace: inboxData.messages,
			workspaces: 2,
			seedSeconds: inboxData.seedSeconds,
			searchWord,
			arabicSearchWord,
			deepThreadMessages,
		},
		shutdown,
	}
	fs.mkdirSync(resultsDir, { recursive: true })
	const file = path.join(resultsDir, 'latest.json')
	fs.writeFileSync(file, `${JSON.stringify(output, null, '\t')}\n`)

	process.stdout.write(
		`\n${output.machine.cpus} × ${output.machine.cpuModel}, ${output.machine.memoryGb} GB, ${output.machine.platform}, Node ${output.machine.node}\n` +
			`${options.connections} connections, ${options.duration} s per case after ${options.warmup} s warm-up, loopback\n\n` +
			`${report(measurements)}\n\n` +
			(dataset
				? `contacts: ${dataset.rows.toLocaleString('en-US')} rows (${dataset.rowsInWorkspace.toLocaleString('en-US')} in the measured workspace), ` +
					`database ${(dataset.databaseBytes / 2 ** 20).toFixed(0)} MB (pg_database_size), seeded in ${dataset.seedSeconds.toFixed(1)} s\n\n`
				: '') +
			(inboxData
				? `inbox: ${inboxData.conversations.toLocaleString('en-US')} conversations and ${inboxData.messages.toLocaleString('en-US')} messages in each of 2 workspaces, seeded in ${inboxData.seedSeconds.toFixed(1)} s\n\n`
				: '') +
			`written to ${path.relative(process.cwd(), file)}\n`,
	)
	for (const m of measurements) {
		if (m.unexpectedStatus > 0) process.stdout.write(`  ${m.name}: statuses ${JSON.stringify(m.statusCodes)}\n`)
	}
	const missed = measurements.filter((m) => m.goal && !m.goal.met)
	const goals = measurements.filter((m) => m.goal).length
	process.stdout.write(`goals met: ${goals - missed.length} of ${goals}${missed.length ? ` (missed: ${missed.map((m) => m.name).join(', ')})` : ''}\n`)
	for (const m of measurements.filter((each) => each.skipped)) process.stdout.write(`skipped: ${m.name}: ${m.skipped}\n`)
	const failed = measurements.filter((m) => m.errors + m.timeouts + m.unexpectedStatus > 0)
	if (failed.length) {
		process.stderr.write(`\nFAILED: errors or unexpected statuses in ${failed.map((m) => m.name).join(', ')}\n`)
		process.exitCode = 1
	}
}

main()
	.catch((error: unknown) => {
		if (!interrupted) process.stderr.write(`\nbench failed: ${error instanceof Error ? error.message : String(error)}\n`)
		process.exitCode = 1
	})
	.finally(async () => {
		if (!interrupted) await cleanup()
	})
