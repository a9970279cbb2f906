import crypto from 'node:crypto'
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

/** What a bench of the database alone works with: the database, its URL, and a folder removed with it. */
export type BenchDatabase = { db: DB; databaseUrl: string; directory: string }

/**
 * Runs `measure` on a fresh embedded PostgreSQL migrated to the latest (jobs installed, none run
 * unless `measure` starts a runner), then stops and removes it.
 */
export async function withBenchDatabase<T>(name: string, measure: (database: BenchDatabase) => Promise<T>): Promise<T> {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), `crm-bench-${name}-`))
	const cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), log: quiet })
	try {
		await ensureDatabase(cluster.url('postgres'), 'bench')
		const databaseUrl = cluster.url('bench')
		const db = createDb(databaseUrl, 10)
		try {
			await migrateToLatest(db, quiet)
			await installJobQueue(databaseUrl)
			return await measure({ db, databaseUrl, directory })
		} finally {
			await db.destroy()
		}
	} finally {
		await cluster.stop()
		fs.rmSync(directory, { recursive: true, force: true })
	}
}

/** Runs `measure` against the real /v1 router on loopback, in this process, on a fresh database (`withBenchDatabase`). */
export async function withInProcessApi<T>(name: string, measure: (api: InProcessApi) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
	return withBenchDatabase(name, async ({ db, databaseUrl, directory }) => {
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
		}
	})
}

/** A workspace named `name` with a chat link. */
export async function seedLinkWorkspace(db: DB, name: string) {
	const workspace = await db
		.insertInto('workspaces')
		.values({ name, slug: `bench-${crypto.randomBytes(4).toString('hex')}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	const channel = await db
		.insertInto('channels')
		.values({ workspaceId: workspace.id, kind: 'link', name: 'Site', slug: `bench-${crypto.randomBytes(5).toString('hex')}` })
		.returning(['id', 'slug'])
		.executeTakeFirstOrThrow()
	return { workspaceId: workspace.id, channelId: channel.id, slug: channel.slug! }
}

/**
 * Customer `index`'s message on the chat link (POST /v1/link/{slug}/messages), as a new visitor
 * unless `visitorToken` names one; throws unless it is stored. Returns the message's id.
 */
export async function postLinkMessage(url: string, slug: string, customer: { net: number; index: number; visitorToken?: string }): Promise<string> {
	const { net, index } = customer
	const response = await fetch(`${url}/v1/link/${slug}/messages`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			'X-Visitor-Token': customer.visitorToken ?? crypto.randomBytes(24).toString('base64url'),
			// Each customer from an address of their own: the link's per-address limit is not what is measured.
			'X-Forwarded-For': `10.${net}.${index >> 8}.${index & 255}`,
		},
		body: JSON.stringify({ body: `Where is my order ${index}?`, name: `Customer ${index}` }),
	})
	const answer = (await response.json()) as { message?: { id: string } }
	if (!response.ok) throw new Error(`POST answered ${response.status}: ${JSON.stringify(answer)}`)
	return String(answer.message?.id)
}
