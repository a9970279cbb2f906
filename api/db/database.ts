import path from 'node:path'
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, sql, type MigrationResultSet } from 'kysely'
import pg from 'pg'
import { installJobQueue } from '#api/jobs/pool.ts'
import { startEmbeddedPostgres, type Log } from './embedded-postgres.ts'
import { migrations } from './migrations/index.ts'
import { PreparingClient } from './prepared.ts'
import { type Database } from './schema.ts'

export type DB = Kysely<Database>

// Dates come back as Date (timestamptz), bigint counts as numbers: ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))

/**
 * Connections per server process. At 50 concurrent requests a pool of 10 kept about 30 of them
 * waiting for a connection (decision 005); a request holds one across its round trips while Node
 * works, so more than the cores can be useful. 20 leaves most of the embedded PostgreSQL's 200
 * for other processes (migrations, tests, psql, a second server).
 */
export const defaultPoolSize = 20

export function createDb(connectionString: string, poolSize = defaultPoolSize, onIdleError: (error: Error) => void = () => {}): DB {
	const pool = new pg.Pool({ connectionString, max: poolSize, Client: PreparingClient })
	// An idle connection dropped by the server (restart, shutdown) must not crash the process.
	pool.on('error', onIdleError)
	// Nor one checked out between two queries (a transaction, a request's round trips): node-postgres
	// emits its loss on the client, with no listener but the pool's idle one. The caller's next query
	// fails (a 503, api/http/errors.ts) and the pool discards the client when it is released.
	pool.on('connect', (client) => client.on('error', () => {}))
	return new Kysely<Database>({
		dialect: new PostgresDialect({ pool }),
		plugins: [new CamelCasePlugin()],
	})
}

export type DatabaseHandle = { db: DB; url: string; close: () => Promise<void> }

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL under DATA_DIR/postgres when it is
 * unset, and brings the schema (ours and the job queue's) up to date.
 */
export async function openDatabase(options: {
	databaseUrl?: string
	dataDir: string
	embeddedPort?: number
	poolSize?: number
	log: Log
}): Promise<DatabaseHandle> {
	let url = options.databaseUrl
	let stopCluster = async () => {}
	if (!url) {
		const cluster = await startEmbeddedPostgres({
			directory: path.join(options.dataDir, 'postgres'),
			port: options.embeddedPort,
			log: options.log,
		})
		stopCluster = cluster.stop
		url = cluster.url('crm')
		await ensureDatabase(cluster.url('postgres'), 'crm')
	}
	const db = createDb(url, options.poolSize, (error) => options.log.error(`idle database connection lost: ${error.message}`))
	try {
		await oneAtATime(url, async () => {
			await migrateToLatest(db, options.log)
			await installJobQueue(url)
		})
	} catch (error) {
		await db.destroy()
		await stopCluster()
		throw error
	}
	return {
		db,
		url,
		close: async () => {
			await db.destroy()
			await stopCluster()
		},
	}
}

/**
 * Runs `work` while holding a session advisory lock on the database: app processes started together
 * (replicas) migrate one after another, the first doing the work and the others finding it done
 * (graphile-worker's own install is not safe to run twice at once).
 */
async function oneAtATime(url: string, work: () => Promise<void>) {
	const client = new pg.Client({ connectionString: url })
	await client.connect()
	try {
		await client.query('select pg_advisory_lock($1, $2)', [migrationLockClass, 1])
		await work()
	} finally {
		await client.end()
	}
}

/** The advisory lock class of start-up migrations ('migr'). */
const migrationLockClass = 0x6d696772

/** Creates `name` on the server of `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string) {
	const client = new pg.Client({ connectionString: adminUrl })
	await client.connect()
	try {
		const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name])
		if (!rowCount) await client.query(`create database ${pg.escapeIdentifier(name)}`)
	} finally {
		await client.end()
	}
}

export async function dropDatabase(adminUrl: string, name: string) {
	const client = new pg.Client({ connectionString: adminUrl })
	await client.connect()
	try {
		await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`)
	} finally {
		await client.end()
	}
}

export async function migrateToLatest(db: Kysely<Database>, log: Pick<Log, 'info' | 'error'>) {
	const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } })
	const { error, results }: MigrationResultSet = await migrator.migrateToLatest()
	for (const result of results ?? []) {
		if (result.status === 'Success') log.info(`migration ${result.migrationName} applied`)
		if (result.status === 'Error') log.error(`migration ${result.migrationName} failed`)
	}
	if (error) throw error
}

export async function isReachable(db: DB): Promise<boolean> {
	try {
		await sql`select 1`.execute(db)
		return true
	} catch {
		return false
	}
}
