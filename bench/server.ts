/**
 * What the benches that run the production server share (bench/run.ts, bench/webhooks.ts): building
 * it, starting `build/server.js` on loopback with a throw-away DATA_DIR (embedded PostgreSQL) in its
 * own process group, and stopping it and removing DATA_DIR on success, failure and Ctrl-C alike;
 * and the figures' helpers (nearest-rank percentile, a text table).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const resultsDir = path.join(root, 'bench', 'results')
// The server's output, in resultsDir (server.log unless the bench names another).
let serverLog: string | undefined

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`)

/** The running server: where it answers, its database (to seed and check it), its DATA_DIR, its process id. */
export type ServerContext = { baseUrl: string; databaseUrl: string; dataDir: string; pid: number }

// ---------------------------------------------------------------------------------------------
// Cleanup: the server and the temporary DATA_DIR go away on success, failure and Ctrl-C alike.

type Running = { child: ChildProcess; exited: Promise<void> }
export type Shutdown = { exitCode: number | null; signal: string | null; seconds: number; clean: boolean }

// Several app processes may run (bench:webhooks --processes 2): the first owns the embedded PostgreSQL.
let servers: Running[] = []
let shutdown: Shutdown | undefined
let dataDirs: string[] = []
let interrupted = false
let onInterrupt: (() => void) | undefined

/** How the server stopped at the end (for the results file), once it has. */
export const serverShutdown = () => shutdown
/** Whether Ctrl-C (or SIGTERM) asked the bench to stop. */
export const isInterrupted = () => interrupted
/** What to stop first when interrupted (the load generator of the moment). */
export function whenInterrupted(stop: (() => void) | undefined) {
	onInterrupt = stop
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
	if (child.pid === undefined) return
	try {
		// The server runs in its own process group, so the embedded PostgreSQL goes too.
		process.kill(-child.pid, signal)
	} catch {
		// ESRCH: the group is already gone.
	}
}

/** Stops the servers, the last started first (the first one's embedded PostgreSQL outlives the others). */
async function stopServers() {
	const running = servers
	servers = []
	for (const each of running.reverse()) await stopServer(each)
}

async function stopServer(running: Running) {
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
		else
			log(
				`WARNING: the server did not stop cleanly (${child.signalCode ?? `exit code ${child.exitCode}`}); its output is in ${path.relative(process.cwd(), serverLog ?? resultsDir)}`,
			)
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

function removeDataDirs() {
	for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
	dataDirs = []
}

/** Stops the servers (and their PostgreSQL) and removes the temporary DATA_DIRs. */
export async function cleanup() {
	try {
		await stopServers()
	} catch (error) {
		log(`could not stop the server: ${error instanceof Error ? error.message : String(error)}`)
	}
	try {
		removeDataDirs()
	} catch (error) {
		log(`could not remove ${dataDirs.join(', ')}: ${error instanceof Error ? error.message : String(error)}`)
	}
}

process.on('exit', () => {
	// Last resort when something exits before cleanup() ran: nothing asynchronous is possible here.
	for (const running of servers) killGroup(running.child, 'SIGKILL')
	try {
		removeDataDirs()
	} catch {
		// Nothing more can be done while exiting.
	}
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (interrupted) return
		interrupted = true
		log(`${signal}: stopping`)
		onInterrupt?.()
		void cleanup().finally(() => process.exit(130))
	})
}

// ---------------------------------------------------------------------------------------------

/** Runs a command in the repository, its output on stderr so that stdout carries only the results. */
export function run(command: string, args: string[]): Promise<void> {
	return new Promise((resolve, reject) => {
		// Build output goes to stderr so that stdout carries only the results.
		const child = spawn(command, args, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] })
		child.on('error', reject)
		child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`))))
	})
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = net.createServer()
		probe.on('error', reject)
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address()
			probe.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no free port'))))
		})
	})
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function findServerEntry(): string {
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
export async function startServer(
	entry: string,
	options: { env?: Record<string, string>; logName?: string; nodeArgs?: string[]; joining?: ServerContext; port?: number } = {},
): Promise<ServerContext> {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-bench-'))
	dataDirs.push(dataDir)
	// As root the embedded PostgreSQL runs as the `postgres` user, which must reach DATA_DIR/postgres.
	fs.chmodSync(dataDir, 0o755)
	const port = options.port ?? (await freePort())
	// Chosen here so that the contacts case can seed the embedded database (on loopback; the server
	// generates its password into DATA_DIR/postgres-password, read once it is up).
	const databasePort = await freePort()
	const { joining } = options
	const givenDatabase = joining?.databaseUrl ?? process.env.BENCH_DATABASE_URL
	const databaseUrl = () =>
		givenDatabase ||
		`postgres://postgres:${encodeURIComponent(fs.readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim())}@127.0.0.1:${databasePort}/crm`
	let baseUrl = `http://127.0.0.1:${port}`
	const logLevel = process.env.BENCH_LOG_LEVEL ?? 'warn'
	const output: string[] = []
	const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
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
			DATABASE_URL: givenDatabase ?? '',
			EMBEDDED_PG_PORT: givenDatabase ? '' : String(databasePort),
			// A process joining the first one shares its database, secrets and realtime server (its embedded one).
			...(joining ? joiningEnv(joining) : {}),
			PUBLIC_URL: baseUrl,
			LOG_LEVEL: logLevel,
			SESSION_SECRET: sessionSecret,
			...options.env,
		},
	})
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	const running = { child, exited }
	servers.push(running)
	// Everything the server prints goes to bench/results/server.log; a few lines of it to the terminal.
	fs.mkdirSync(resultsDir, { recursive: true })
	const logPath = path.join(resultsDir, options.logName ?? 'server.log')
	serverLog = logPath
	const logFile = fs.createWriteStream(logPath)
	void exited.then(() => logFile.end())
	child.once('exit', (code, signal) => {
		// Not stopped from here: it crashed.
		if (servers.includes(running) && !interrupted) log(`the server exited unexpectedly (${signal ?? `exit code ${code}`})`)
	})
	let shown = 0
	const keep = (line: string, show: boolean) => {
		logFile.write(`${line}\n`)
		output.push(line)
		if (output.length > 40) output.shift()
		if (show && shown++ < 10) log(`server: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`)
		if (show && shown === 10) log(`server: (more in ${path.relative(process.cwd(), logPath)})`)
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
				return { baseUrl, databaseUrl: databaseUrl(), dataDir, pid: child.pid! }
			}
		} catch {
			// Not listening yet.
		}
		await sleep(250)
	}
	throw new Error(`the server was not ready within 120 s. Last output:\n${output.join('\n')}`)
}

/** The run's SESSION_SECRET, the same for every app process (a token one signs, another reads). */
const sessionSecret = crypto.randomBytes(32).toString('hex')

/** What a second app process needs to work beside `first`: its secrets, and its embedded realtime server as PUSHER_HOST. */
function joiningEnv(first: ServerContext): Record<string, string> {
	const app = JSON.parse(fs.readFileSync(path.join(first.dataDir, 'realtime-app.json'), 'utf8')) as { id: string; key: string; secret: string }
	const url = new URL(first.baseUrl)
	return {
		ENCRYPTION_KEY: fs.readFileSync(path.join(first.dataDir, 'encryption-key'), 'utf8').trim(),
		PUSHER_HOST: url.hostname,
		PUSHER_PORT: url.port,
		PUSHER_FORCE_TLS: 'false',
		PUSHER_APP_ID: app.id,
		PUSHER_KEY: app.key,
		PUSHER_SECRET: app.secret,
	}
}

/** A command-line number from `min` to `max` (a bench's options), or an error that says so. */
export function numberOption(name: string, value: string, min: number, max = Infinity): number {
	const parsed = Number(value)
	if (!Number.isFinite(parsed) || parsed < min || parsed > max)
		throw new Error(`--${name} must be a number ${max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`}, got ${value}`)
	return parsed
}

/** A JSON request to the server's API (with a bearer token), its answer; anything but 2xx throws. */
export async function callApi<T>(baseUrl: string, method: string, url: string, body: unknown, token?: string): Promise<T> {
	const response = await fetch(new URL(url, baseUrl), {
		method,
		headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
		body: JSON.stringify(body),
	})
	const answer = (await response.json().catch(() => null)) as T
	if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(answer)}`)
	return answer
}

// ---------------------------------------------------------------------------------------------

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: Float64Array, p: number): number {
	if (sorted.length === 0) return 0
	const rank = Math.ceil((p / 100) * sorted.length) - 1
	return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? 0
}

export function table(rows: string[][]): string {
	const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
	const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')
	const [header, ...body] = rows
	if (!header) return ''
	return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...body.map(line)].join('\n')
}
