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
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type WebhookEventType } from '#common/webhooks.ts'
import { seedLinkWorkspace, withBenchDatabase } from './in-process.ts'
import { numberOption, percentile, resultsDir, table } from './server.ts'

const { values } = parseArgs({ options: { messages: { type: 'string', default: '2000' } } })
const messages = numberOption('messages', values.messages, 10, 1_000_000)

/** A workspace with a channel, a contact and a conversation, and a subscription to `events` when given. */
async function seed(db: DB, events: WebhookEventType[] | null) {
	const { workspaceId, channelId } = await seedLinkWorkspace(db, 'Bench')
	const contact = await db.insertInto('contacts').values({ workspaceId, name: 'Customer', avatarColor: '#336699' }).returning('id').executeTakeFirstOrThrow()
	const conversation = await db
		.insertInto('conversations')
		.values({ workspaceId, number: 1, contactId: contact.id, channelId })
		.returning('id')
		.executeTakeFirstOrThrow()
	if (events) {
		await db.insertInto('webhookSubscriptions').values({ workspaceId, url: 'https://93.184.215.14/hook', events, secret: 'v1.bench' }).execute()
	}
	return { workspaceId, channelId, conversationId: conversation.id }
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
	await withBenchDatabase('outgoing-webhooks', async ({ db }) => {
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
	})
}

void main().catch((error: unknown) => {
	console.error(error)
	process.exit(1)
})
