import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import pino from 'pino'
import { createDb, type DB } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { type Channel } from '#api/db/schema.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { createRealtime, type Realtime } from '#api/realtime/publisher.ts'

const quiet = { info: () => {}, debug: () => {}, error: () => {} }

/**
 * The test server's own database and realtime server, as a channel's webhook would reach them: the
 * embedded PostgreSQL of its DATA_DIR (found through its postmaster.pid) and its Pusher credentials.
 */
export async function inboundPath(baseURL: string): Promise<{ db: DB; realtime: Realtime; close: () => Promise<void> }> {
	const dataDir = process.env.E2E_DATA_DIR!
	const cluster = await startEmbeddedPostgres({ directory: path.join(dataDir, 'postgres'), log: quiet })
	const db = createDb(cluster.url('crm'), 2)
	const app = JSON.parse(fs.readFileSync(path.join(dataDir, 'realtime-app.json'), 'utf8')) as { id: string; key: string; secret: string }
	const url = new URL(baseURL)
	const realtime = createRealtime({
		target: () => ({ appId: app.id, key: app.key, secret: app.secret, host: url.hostname, port: Number(url.port), useTLS: false }),
		logger: pino({ level: 'silent' }),
	})
	return {
		db,
		realtime,
		close: async () => {
			await realtime.flush()
			await db.destroy()
		},
	}
}

/** A link channel of the workspace, made directly in the database (its settings pages are another helper's). */
export async function linkChannel(db: DB, workspaceId: string, name = 'Website chat'): Promise<Channel> {
	return db
		.insertInto('channels')
		.values({ workspaceId, kind: 'link', name, slug: `e2e-${crypto.randomBytes(6).toString('hex')}`, settings: {} })
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** A customer writes on the channel, as its provider hands the message over. */
export async function customerWrites(inbound: { db: DB; realtime: Realtime }, channel: Channel, customer: string, body: string) {
	const received = await receiveMessage(inbound.db, inbound.realtime, { channel, from: { externalId: `visitor-${customer}`, name: customer }, body })
	await inbound.realtime.flush()
	return received
}
