import { type DB } from '#api/db/database.ts'
import { type WebhookSubscription } from '#api/db/schema.ts'
import { addJob } from '#api/jobs/queue.ts'
import { type WebhookDeliveryEventType } from '#common/webhooks.ts'
import { newWebhookId, shapeEvents, webhookBody, type ShapedEvent } from './payloads.ts'

/** Events taken from the outbox per transaction. */
const batchSize = 200

/** The delivery job of one subscription's events of one conversation (contact, campaign): keyed and queued so they go one after another. */
export async function queueDeliveries(db: DB, subscriptionId: string, orderingKey: string, options: { now?: boolean } = {}) {
	const key = `webhook:${subscriptionId}:${orderingKey}`
	// A job waiting for a retry's time keeps it (the head of its queue is not due); "send again" wants it now.
	await addJob(db, 'deliver-webhooks', { subscriptionId, orderingKey }, { key, queueName: key, keyMode: options.now ? 'replace' : 'preserve_run_at' })
}

/** Whether a subscription hears of this event: its types, and for an API channel's callback its own conversations' replies and changes only. */
function wants(subscription: WebhookSubscription, type: WebhookDeliveryEventType, shaped: ShapedEvent): boolean {
	if (!(subscription.events as string[]).includes(type)) return false
	if (!subscription.channelId) return true
	if (shaped.channelId !== subscription.channelId) return false
	return type !== 'message.created' || shaped.outgoingText
}

/**
 * The `fan-out-webhooks` task: takes the workspace's events from the outbox, oldest first, and
 * makes one delivery per subscription that wants each (its body shaped and kept now, each object a
 * batch names read once for all its events), then wakes the delivery job of each subscription and
 * ordering key it added to. One transaction per batch: a crash leaves the events in the outbox, to
 * be taken again.
 */
export async function fanOutWebhooks(db: DB, workspaceId: string): Promise<void> {
	for (;;) {
		const taken = await db.transaction().execute(async (trx) => {
			const events = await trx
				.selectFrom('webhookEvents')
				.selectAll()
				.where('workspaceId', '=', workspaceId)
				.orderBy('id')
				.limit(batchSize)
				.forUpdate()
				.skipLocked()
				.execute()
			if (events.length === 0) return 0
			const subscriptions = await trx
				.selectFrom('webhookSubscriptions')
				.selectAll()
				.where('workspaceId', '=', workspaceId)
				.where('enabled', '=', true)
				.execute()
			const interested = events.filter((event) => subscriptions.some((subscription) => (subscription.events as string[]).includes(event.type)))
			const shapedEvents = await shapeEvents(trx, workspaceId, interested)
			const deliveries = interested.flatMap((event, index) => {
				const shaped = shapedEvents[index]
				if (!shaped) return []
				const receivers = subscriptions.filter((subscription) => wants(subscription, event.type, shaped))
				if (receivers.length === 0) return []
				const payload = webhookBody(event.type, event.createdAt, shaped.data)
				const webhookId = newWebhookId()
				return receivers.map((subscription) => ({
					workspaceId,
					subscriptionId: subscription.id,
					eventType: event.type,
					webhookId,
					payload,
					orderingKey: event.orderingKey,
					messageId: subscription.channelId && event.type === 'message.created' ? shaped.messageId : null,
				}))
			})
			// In the events' order: a key's deliveries are sent by id.
			if (deliveries.length > 0) await trx.insertInto('webhookDeliveries').values(deliveries).execute()
			await trx
				.deleteFrom('webhookEvents')
				.where(
					'id',
					'in',
					events.map((event) => event.id),
				)
				.execute()
			const woken = new Map(deliveries.map(({ subscriptionId, orderingKey }) => [`${subscriptionId}:${orderingKey}`, { subscriptionId, orderingKey }]))
			for (const { subscriptionId, orderingKey } of woken.values()) await queueDeliveries(trx, subscriptionId, orderingKey)
			return events.length
		})
		if (taken < batchSize) return
	}
}
