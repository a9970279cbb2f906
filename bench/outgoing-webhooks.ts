/**
 * Outgoing webhooks' cost on the write path (issue 33): a message inserted (one statement, its own
 * transaction, as the inbox and the inbound path write one) with the outbox triggers of migration
 * 0040, p50 and p99, in a workspace with no subscription (the trigger's one indexed read: the
 * baseline every workspace pays), with one that does not want `message.created` (the same read),
 * with one that does (an outbox row and the fan-out job's add_job, keyed per workspace), and with
 * the triggers turned off (no webhooks at all). Embedded PostgreSQL; no job runs meanwhile.
 *
 *   npm run bench:outgoing-webhooks -- [--messages 2000]
 *
 * Writes bench/results/outgoing-webhooks.json.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createDb, ensureDatabase, migrateToLatest, type DB } from '#api/db/database.ts'
import { startEmbeddedPostgres } from '#api/db/embedded-postgres.ts'
import { installJobQueue } from '#api/jobs/pool.ts'
import { type WebhookEventType } from '#common/webhooks.ts'
import { log, numberOption, percentile, resultsDir, table } from './server.ts'

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => log(message) }
const { values } = parseArgs({ options: { messages: { type: 'string', default: '2000' } } })
const messages = numberOption('messages', values.messages, 10, 1_000_000)

/** A workspace with a channel, a contact and a conversation, and a subscription to `events` when given. */
async function seed(db: DB, events: WebhookEventType[] | null) {
	const workspace = await db
		.insertInto('workspaces')
		.values({ name: 'Bench', slug: `bench-${crypto.randomBytes(4).toString('hex')}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	const channel = await db
		.insertInto('channels')
		.values({ workspaceId: workspace.id, kind: 'link', name: 'Website', slug: `chat-${crypto.randomBytes(5).toString('hex')}` })
		.returning('id')
		.executeTakeFirstOrThrow()
	const contact = await db
		.insertInto('contacts')
		.values({ workspaceId: workspace.id, name: 'Customer', avatarColor: '#336699' })
		.returning('id')
		.executeTakeFirstOrThrow()
	const conversation = await db
		.insertInto('conversations')
		.values({ workspaceId: workspace.id, number: 1, contactId: contact.id, channelId: channel.id })
		.returning('id')
		.executeTakeFirstOrThrow()
	if (events) {
		await db.insertInto('webhookSubscriptions').values({ workspaceId: workspace.id, url: 'https://93.184.215.14/hook', events, secret: 'v1.bench' }).execute()
	}
	return { workspaceId: workspace.id, channelId: channel.id, conversationId: conversation.id }
}

async function measure(db: DB, what: string, events: WebhookEventType[] | null) {
	const target = await seed(db, events)
	const times: number[] = []
	for (let index = 0; index < messages; index++) {
		const started = performance.now()
		await db
			.insertInto('messages')
			.values({ ...target, direction: 'incoming', kind: 'text', body: `Message ${index}` })
			.execute()
		times.push(performance.now() - started)
	}
	const sorted = Float64Array.from(times).sort()
	return { what, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

async function main() {
	const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-bench-outgoing-webhooks-'))
	const cluster = await startEmbeddedPostgres({ directory: path.join(directory, 'pg'), log: quiet })
	try {
		await ensureDatabase(cluster.url('postgres'), 'bench')
		const databaseUrl = cluster.url('bench')
		const db = createDb(databaseUrl, 2)
		await migrateToLatest(db, quiet)
		await installJobQueue(databaseUrl)
		// Warm-up: plans and caches.
		await measure(db, 'warm-up', null)
		const results = []
		await sql`alter table messages disable trigger webhook_message_created`.execute(db)
		results.push(await measure(db, 'triggers off', null))
		await sql`alter table messages enable trigger webhook_message_created`.execute(db)
		results.push(await measure(db, 'no subscription', null))
		results.push(await measure(db, 'a subscription to other events', ['contact.created']))
		results.push(await measure(db, 'a subscription to message.created', ['message.created']))
		const ms = (value: number) => `${value.toFixed(3)} ms`
		process.stdout.write(`${table([['a message inserted', 'p50', 'p99'], ...results.map((result) => [result.what, ms(result.p50), ms(result.p99)])])}\n`)
		fs.mkdirSync(resultsDir, { recursive: true })
		fs.writeFileSync(path.join(resultsDir, 'outgoing-webhooks.json'), `${JSON.stringify({ messages, results }, null, '\t')}\n`)
		await db.destroy()
	} finally {
		await cluster.stop()
		fs.rmSync(directory, { recursive: true, force: true })
	}
}

void main().catch((error: unknown) => {
	console.error(error)
	process.exit(1)
})
