import { sql } from 'kysely'
import { DeliveryError, providerFor } from '#api/channels/providers/index.ts'
import { type ProviderConfig } from '#api/channels/providers/provider.ts'
import { type DB } from '#api/db/database.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { conversationEvent, messageEvent, publishEvents } from './events.ts'
import { addActivity } from './inbound.ts'

/**
 * The `send-message` job: delivers a pending outgoing message through its channel's provider and
 * records the outcome (`failed` with the provider's detail when it refuses for good). Any other
 * error is thrown for the queue to retry. A message no longer pending (a retry after success) is left alone.
 */
export async function deliverMessage(db: DB, realtime: Realtime, config: ProviderConfig, messageId: string) {
	const message = await db
		.selectFrom('messages')
		.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
		.leftJoin('contactIdentities', 'contactIdentities.id', 'conversations.identityId')
		.select(['messages.body', 'messages.status', 'messages.kind', 'messages.direction', 'messages.channelId', 'conversations.number', 'conversations.id as conversationId', 'contactIdentities.externalId as to'])
		.where('messages.id', '=', messageId)
		.executeTakeFirst()
	if (!message || message.status !== 'pending') return
	const channel = await db.selectFrom('channels').selectAll().where('id', '=', message.channelId).executeTakeFirstOrThrow()
	const { body, to, number, conversationId, kind, direction } = message

	let outcome: { status: 'sent' | 'delivered' | 'read' | 'failed'; externalId: string | null; error: string | null }
	const provider = providerFor(channel.kind)
	try {
		if (!provider) throw new DeliveryError(`Sending on ${channel.kind} channels is not available yet.`)
		if (!to) throw new DeliveryError('The contact has no identity on this channel.')
		// Credentials are decrypted by the messaging channels' work; the link channel has none.
		const sent = await provider.send({ ...channel, credentials: {} }, { to, body }, config)
		outcome = { status: sent.status === 'pending' ? 'sent' : sent.status, externalId: sent.externalId, error: null }
	} catch (error) {
		if (!(error instanceof DeliveryError)) throw error
		outcome = { status: 'failed', externalId: null, error: error.message }
	}
	// Only a message still pending: a second delivery of the same job changes nothing.
	const updated = await db
		.updateTable('messages')
		.set({ status: outcome.status, externalId: outcome.externalId, error: outcome.error, updatedAt: sql<Date>`now()` })
		.where('id', '=', messageId)
		.where('status', '=', 'pending')
		.returning('id')
		.executeTakeFirst()
	if (!updated) return
	const conversation = { id: conversationId, workspaceId: channel.workspaceId, number }
	await publishEvents(realtime, [messageEvent('message.updated', conversation, { id: messageId, kind, direction })])
}

/**
 * The `wake-snoozed` job: reopens the conversation when its snooze has ended. It checks the row,
 * so a stale job (the conversation reopened, or snoozed again until later) does nothing.
 */
export async function wakeSnoozed(db: DB, realtime: Realtime, conversationId: string) {
	const woken = await db.transaction().execute(async (trx) => {
		const conversation = await trx
			.updateTable('conversations')
			.set({ status: 'open', snoozedUntil: null, updatedAt: sql<Date>`now()` })
			.where('id', '=', conversationId)
			.where('status', '=', 'snoozed')
			.where('snoozedUntil', '<=', sql<Date>`now()`)
			.returningAll()
			.executeTakeFirst()
		if (!conversation) return undefined
		const message = await addActivity(trx, conversation, { key: 'activity.snoozeEnded', values: {} })
		return { conversation, message }
	})
	if (!woken) return
	await publishEvents(realtime, [conversationEvent('conversation.updated', woken.conversation), messageEvent('message.created', woken.conversation, woken.message)])
}
