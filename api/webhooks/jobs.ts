import { sql } from 'kysely'
import { providerChannel } from '#api/channels/connection.ts'
import { providerFor } from '#api/channels/providers/index.ts'
import { type InboundEvent } from '#api/channels/providers/provider.ts'
import { messageEvent, publishEvents } from '#api/conversations/events.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel, type DeliveryStatus } from '#api/db/schema.ts'
import { type Realtime } from '#api/realtime/publisher.ts'

// A status only moves forward: a late "delivered" never undoes "read". `failed` ends it wherever it was.
const progress: Record<DeliveryStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 4 }

/**
 * How many queues a channel's webhooks are spread over. A customer always lands in the same one,
 * so their messages are recorded in the order they came; different customers' run side by side.
 * Few, because graphile-worker looks through every queue each time it looks for a job.
 */
export const webhookQueueCount = 16

/** The queue of a customer's messages on a channel (FNV-1a of their id on the channel, modulo the count). */
export function customerQueue(customerId: string): number {
	let hash = 0x811c9dc5
	for (let i = 0; i < customerId.length; i++) hash = Math.imul(hash ^ customerId.charCodeAt(i), 0x01000193)
	return (hash >>> 0) % webhookQueueCount
}

/**
 * What one `process-webhook` job records of its webhook: the messages of the customers of one
 * queue (a number), the delivery statuses (`null`, in no queue: they only move forward, in any
 * order), or everything (absent: jobs added before the queues were per customer).
 */
export type WebhookPart = number | null | undefined

/** The parts of a webhook's events, one job each: usually one, a customer's message or a status. */
export function webhookParts(events: InboundEvent[]): Array<number | null> {
	return [...new Set(events.map((event) => (event.type === 'message' ? customerQueue(event.from.externalId) : null)))]
}

const inPart = (event: InboundEvent, part: WebhookPart) => part === undefined || (event.type === 'message' ? customerQueue(event.from.externalId) === part : part === null)

/**
 * The `process-webhook` job: a provider's event, already verified, parsed into what it says and
 * recorded: a customer's message through the one inbound path (once per provider id), a delivery
 * status onto our message. A channel switched off or deleted since is left alone.
 */
export async function processWebhook(db: DB, realtime: Realtime, encryptionKey: string, channelId: string, body: unknown, part?: WebhookPart) {
	const row = await db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst()
	const provider = row && providerFor(row.kind)
	if (!row || !row.enabled || !provider?.parseWebhook) return
	for (const event of provider.parseWebhook(providerChannel(row, encryptionKey), body)) if (inPart(event, part)) await record(db, realtime, row, event)
}

async function record(db: DB, realtime: Realtime, channel: Channel, event: InboundEvent) {
	if (event.type === 'message') {
		const { from } = event
		await receiveMessage(db, realtime, { channel, from: { externalId: from.externalId, name: from.name ?? from.phone ?? from.externalId, phone: from.phone }, externalId: event.externalId, body: event.body })
		return
	}
	if (event.type === 'status') {
		const updated = await db
			.updateTable('messages')
			.set({ status: event.status, error: event.error ? String(event.error.values.detail ?? event.error.key) : null, updatedAt: sql<Date>`now()` })
			.where('channelId', '=', channel.id)
			.where('externalId', '=', event.externalId)
			.where('direction', '=', 'outgoing')
			.where(sql<number>`case status when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`, '<', progress[event.status])
			.returning(['id', 'kind', 'direction', 'conversationId'])
			.executeTakeFirst()
		if (!updated) return
		const conversation = await db.selectFrom('conversations').select(['id', 'workspaceId', 'number']).where('id', '=', updated.conversationId).executeTakeFirstOrThrow()
		await publishEvents(realtime, [messageEvent('message.updated', conversation, updated)])
	}
	// Echoes (the business writing from the provider's own app) come with the WhatsApp and Meta channels.
}
