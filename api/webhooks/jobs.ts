import { sql } from 'kysely'
import { providerChannel } from '#api/channels/connection.ts'
import { providerFor } from '#api/channels/providers/index.ts'
import { type ChannelProvider, type InboundEvent, type ProviderChannel } from '#api/channels/providers/provider.ts'
import { discardAttachments, fetchAttachments, type NewAttachment } from '#api/attachments/inbound.ts'
import { storageFor } from '#api/attachments/storage.ts'
import { messageEvent, publishEvents } from '#api/conversations/events.ts'
import { receiveMessage, recordEcho } from '#api/conversations/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel, type DeliveryStatus } from '#api/db/schema.ts'
import { type JobConfig } from '#api/jobs/queue.ts'
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

const inPart = (event: InboundEvent, part: WebhookPart) =>
	part === undefined || (event.type === 'message' ? customerQueue(event.from.externalId) === part : part === null)

/**
 * The `process-webhook` job: a provider's event, already verified, parsed into what it says and
 * recorded: a customer's message through the one inbound path (once per provider id), a delivery
 * status onto our message (or, for a watermark, onto every message to that customer up to then),
 * the business's own message sent elsewhere as outgoing. A message's files are downloaded here
 * first (once: a retried delivery of a message already recorded fetches nothing). A channel
 * switched off or deleted since is left alone.
 */
export async function processWebhook(db: DB, realtime: Realtime, config: JobConfig, channelId: string, body: unknown, part?: WebhookPart) {
	const row = await db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst()
	const provider = row && providerFor(row.kind)
	if (!row || !row.enabled || !provider?.parseWebhook) return
	const channel = providerChannel(row, config.ENCRYPTION_KEY)
	for (const event of provider.parseWebhook(channel, body)) {
		if (!inPart(event, part)) continue
		if (event.type === 'message' && !event.from.name && provider.profileOf)
			event.from.name = await nameOfNewcomer(db, provider, channel, event.from.externalId, config)
		await record(db, realtime, config, { row, channel, provider }, event)
	}
}

/**
 * A customer the webhook does not name (Meta's PSID, IGSID): asked of the provider the first time
 * they write on the channel. Without an answer they keep their id as a name, as before.
 */
async function nameOfNewcomer(db: DB, provider: ChannelProvider, channel: ProviderChannel, externalId: string, config: JobConfig): Promise<string | null> {
	const known = await db
		.selectFrom('contactIdentities')
		.select('id')
		.where('channelId', '=', channel.id)
		.where('externalId', '=', externalId)
		.executeTakeFirst()
	if (known) return null
	return (await provider.profileOf!(channel, externalId, config).catch(() => null))?.name ?? null
}

type Source = { row: Channel; channel: ProviderChannel; provider: ChannelProvider }

async function record(db: DB, realtime: Realtime, config: JobConfig, { row: channel, channel: opened, provider }: Source, event: InboundEvent) {
	if (event.type === 'message') {
		const { from } = event
		let attachments: NewAttachment[] = []
		if (event.attachments?.length) {
			const known = await db
				.selectFrom('messages')
				.select('id')
				.where('channelId', '=', channel.id)
				.where('externalId', '=', event.externalId)
				.executeTakeFirst()
			if (!known) attachments = await fetchAttachments(provider, opened, event.attachments, config, storageFor(config))
		}
		try {
			const received = await receiveMessage(db, realtime, {
				channel,
				from: { externalId: from.externalId, name: from.name ?? from.phone ?? from.externalId, phone: from.phone },
				externalId: event.externalId,
				body: event.body,
				attachments,
				sentAt: event.sentAt,
				locale: event.locale ?? null,
				choice: event.choice ?? null,
				replayable: true,
				optOutWords: config.OPT_OUT_WORDS,
			})
			if (received.duplicate) await discardAttachments(storageFor(config), attachments)
		} catch (error) {
			await discardAttachments(storageFor(config), attachments)
			throw error
		}
		return
	}
	if (event.type === 'echo') {
		await recordEcho(db, realtime, { channel, to: event.to, externalId: event.externalId, body: event.body })
		return
	}
	const before = sql<number>`case status when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`
	const updated =
		event.type === 'status'
			? await db
					.updateTable('messages')
					.set({ status: event.status, error: event.error ? String(event.error.values.detail ?? event.error.key) : null, updatedAt: sql<Date>`now()` })
					.where('channelId', '=', channel.id)
					.where('externalId', '=', event.externalId)
					.where('direction', '=', 'outgoing')
					.where(before, '<', progress[event.status])
					.returning(['id', 'kind', 'direction', 'conversationId'])
					.execute()
			: // A watermark: every message to this customer the provider had by then (sent, not still on its way nor failed).
				await db
					.updateTable('messages')
					.set({ status: event.status, updatedAt: sql<Date>`now()` })
					.where('channelId', '=', channel.id)
					.where('direction', '=', 'outgoing')
					.where('kind', '=', 'text')
					.where('externalId', 'is not', null)
					.where('createdAt', '<=', event.upTo)
					.where('status', 'in', event.status === 'read' ? ['sent', 'delivered'] : ['sent'])
					.where('conversationId', 'in', (eb) =>
						eb
							.selectFrom('conversations')
							.innerJoin('contactIdentities', 'contactIdentities.contactId', 'conversations.contactId')
							.select('conversations.id')
							.where('conversations.channelId', '=', channel.id)
							.where('contactIdentities.channelId', '=', channel.id)
							.where('contactIdentities.externalId', '=', event.contact),
					)
					.returning(['id', 'kind', 'direction', 'conversationId'])
					.execute()
	if (updated.length === 0) return
	const conversations = await db
		.selectFrom('conversations')
		.select(['id', 'workspaceId', 'number'])
		.where('id', 'in', [...new Set(updated.map((message) => message.conversationId))])
		.execute()
	const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]))
	await publishEvents(
		db,
		realtime,
		updated.flatMap((message) => {
			const conversation = byId.get(message.conversationId)
			return conversation ? [messageEvent('message.updated', conversation, message)] : []
		}),
	)
}
