import { Logger as GraphileLogger, runMigrations } from 'graphile-worker'
import pg from 'pg'

// The queue's schema and connections, apart from the runner: the database module installs the
// schema at start, and the runner (api/jobs/queue.ts) needs the database module's types.

/** The queue's own connections: a lost one (a database restart) is logged, never a crash. */
export function queuePool(
	databaseUrl: string,
	max: number,
	onError: (error: Error) => void,
	options: { waitForDisk: boolean } = { waitForDisk: true },
): pg.Pool {
	const pool = new pg.Pool({ connectionString: databaseUrl, max, ...(options.waitForDisk ? {} : { options: '-c synchronous_commit=off' }) })
	pool.on('error', onError)
	pool.on('connect', (client) => client.on('error', onError))
	return pool
}

const quietLogger = new GraphileLogger(() => () => {})

/** Installs or updates the queue's own schema; the server does it at start, after our migrations. */
export async function installJobQueue(databaseUrl: string) {
	const pool = queuePool(databaseUrl, 1, () => {})
	try {
		await runMigrations({ pgPool: pool, logger: quietLogger })
	} finally {
		await pool.end()
	}
}
