import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import { createApi } from '#api/index.ts'
import { createDb, ensureDatabase, migrateToLatest, type DB } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { installJobQueue } from '#api/jobs/pool.ts'
import { parseConfig, type Config } from '#config/config.ts'
import { log } from './server.ts'

export const quiet = { info: () => {}, debug: () => {}, error: (message: string) => log(message) }

/** What a bench of the API in this process works with: the database, its URL, the config and the API's address on loopback. */
export type InProcessApi = { db: DB; databaseUrl: string; config: Config; url: string }

/**
 * Runs `measure` against the real /v1 router on loopback, in this process, on a fresh embedded
 * PostgreSQL migrated to the latest (jobs installed, none run unless `measure` starts a runner),
 * then stops and removes it all.
 */
export async function withInProcessApi<T>(name: string, measure: (api: InProcessApi) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), `crm-bench-${name}-`))
	const cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), log: quiet })
	try {
		await ensureDatabase(cluster.url('postgres'), 'bench')
		const databaseUrl = cluster.url('bench')
		const db = createDb(databaseUrl, 10)
		await migrateToLatest(db, quiet)
		await installJobQueue(databaseUrl)
		const config = parseConfig({ DATA_DIR: path.join(directory, 'data'), PUBLIC_URL: 'http://crm.test', ...env })
		const app = express()
		app.set('trust proxy', 'loopback')
		app.use('/v1', createApi({ db, config, logger: pino({ level: 'silent' }) }))
		const server = http.createServer(app)
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		try {
			return await measure({ db, databaseUrl, config, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })
		} finally {
			server.closeAllConnections()
			await new Promise<void>((resolve) => server.close(() => resolve()))
			await db.destroy()
		}
	} finally {
		await cluster.stop()
		fs.rmSync(directory, { recursive: true, force: true })
	}
}
