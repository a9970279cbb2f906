import { sql } from 'kysely'
import { providerChannel } from '#api/channels/connection.ts'
import { DeliveryError, providerFor, repliesByCallback } from '#api/channels/providers/index.ts'
import { type OutgoingAttachment, ProviderError } from '#api/channels/providers/provider.ts'
import { storageFor } from '#api/attachments/storage.ts'
import { buffer } from 'node:stream/consumers'
import { addJob, type JobConfig } from '#api/jobs/queue.ts'
import { type DB } from '#api/db/database.ts'
import { whenDatabaseAnswers } from '#api/db/errors.ts'
import { routeReopened } from '#api/assignment/queue.ts'
import { triggerAutomation } from '#api/automation/trigger.ts'
import { notifyChannelDisconnected } from '#api/notifications/triggers.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { conversationEvent, messageEvent, publishEvents } from './events.ts'
import { questionChoices } from '#api/satisfaction/surveys.ts'
import { addActivity } from './inbound.ts'

/** Tries of a message whose provider is out of reach or busy, before it is marked failed. */
export const sendAttempts = 5

/** The wait before try `attempt + 1`: what the provider asked for (Retry-After), else 2, 4, 8, 16 s. */
const backoffMs = (attempt: number, error: ProviderError) => error.options.retryAfterMs ?? 2 ** (attempt + 1) * 1000

/**
 * The `send-message` job: delivers a pending outgoing message through its channel's provider and
 * records the outcome. A provider out of reach or rate-limiting is tried again later, up to
 * `sendAttempts` times; a refusal fails the message at once with the provider's reason, and an
 * invalid token also marks the channel in error. Any other error is thrown for the queue to retry.
 * A message no longer pending (a retry after success) is left alone.
 */
export async function deliverMessage(db: DB, realtime: Realtime, config: JobConfig, messageId: string, attempt = 0) {
	const message = await db
		.selectFrom('messages')
		.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
		.leftJoin('contactIdentities', 'contactIdentities.id', 'conversations.identityId')
		.leftJoin('satisfactionSurveys', 'satisfactionSurveys.questionMessageId', 'messages.id')
		.select([
			'messages.body',
			'messages.template',
			'messages.status',
			'messages.kind',
			'messages.direction',
			'messages.channelId',
			'conversations.number',
			'conversations.id as conversationId',
			'contactIdentities.externalId as to',
			'satisfactionSurveys.id as surveyId',
		])
		.where('messages.id', '=', messageId)
		.executeTakeFirst()
	if (!message || message.status !== 'pending') return
	const channel = await db.selectFrom('channels').selectAll().where('id', '=', message.channelId).executeTakeFirstOrThrow()
	// An API channel's replies go to its callback through its own webhook subscription, whose delivery sets their status.
	if (repliesByCallback(channel.kind)) return
	const { body, template, to, number, conversationId, kind, direction, surveyId } = message

	let outcome: { status: 'sent' | 'delivered' | 'read' | 'failed'; externalId: string | null; error: string | null }
	const provider = providerFor(channel.kind)
	try {
		if (!provider) throw new DeliveryError(`Sending on ${channel.kind} channels is not available yet.`)
		if (!to) throw new DeliveryError('The contact has no identity on this channel.')
		const attachment = await attachmentOf(db, config, messageId)
		const choices = surveyId ? await questionChoices(db, channel, { id: messageId, conversationId }) : undefined
		const sent = await provider.send(
			providerChannel(channel, config.ENCRYPTION_KEY),
			{ to, body, template: template ?? undefined, ...(attachment ? { attachment } : {}), ...(choices ? { choices } : {}) },
			config,
		)
		outcome = { status: sent.status === 'pending' ? 'sent' : sent.status, externalId: sent.externalId, error: null }
	} catch (error) {
		if (error instanceof ProviderError && error.retryable && attempt + 1 < sendAttempts) {
			await addJob(db, 'send-message', { messageId, attempt: attempt + 1 }, { runAt: new Date(Date.now() + backoffMs(attempt, error)) })
			return
		}
		if (error instanceof ProviderError && error.kind === 'unauthorized') {
			const notified = await db.transaction().execute(async (trx) => {
				await trx
					.updateTable('channels')
					.set({ status: 'error', statusDetail: error.detail, failingSince: sql<Date>`coalesce(failing_since, now())`, updatedAt: sql<Date>`now()` })
					.where('id', '=', channel.id)
					.execute()
				return notifyChannelDisconnected(trx, channel.id)
			})
			void publishEvents(db, realtime, notified)
		}
		if (!(error instanceof DeliveryError) && !(error instanceof ProviderError)) throw error
		outcome = { status: 'failed', externalId: null, error: error.message }
	}
	// Only a message still pending: a second delivery of the same job changes nothing. The provider has it now:
	// written once the database answers (it may be away this moment), or the job's next run would send it again.
	const updated = await whenDatabaseAnswers(() =>
		db
			.updateTable('messages')
			.set({ status: outcome.status, externalId: outcome.externalId, error: outcome.error, updatedAt: sql<Date>`now()` })
			.where('id', '=', messageId)
			.where('status', '=', 'pending')
			.returning('id')
			.executeTakeFirst(),
	)
	if (!updated) return
	// The provider took a message again (a token renewed on its side): the channel works.
	if (outcome.status !== 'failed' && channel.status === 'error') {
		await db
			.updateTable('channels')
			.set({ status: 'active', statusDetail: null, failingSince: null, updatedAt: sql<Date>`now()` })
			.where('id', '=', channel.id)
			.where('status', '=', 'error')
			.execute()
	}
	const conversation = { id: conversationId, workspaceId: channel.workspaceId, number }
	await publishEvents(db, realtime, [messageEvent('message.updated', conversation, { id: messageId, kind, direction })])
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
		// Back in the open list: to its team's queue if it has no assignee, or one who is away and the workspace says so.
		const routed = await routeReopened(trx, conversation)
		const away = routed.activity && (await addActivity(trx, routed.conversation, routed.activity))
		// The rules hear it as any reopening (and of the assignee the workspace took back from someone away).
		const unassigned = routed.conversation.assigneeId !== conversation.assigneeId
		await triggerAutomation(trx, conversation, ['conversation.statusChanged', ...(unassigned ? (['conversation.assigneeChanged'] as const) : [])], { depth: 0 })
		return { conversation: routed.conversation, messages: away ? [message, away] : [message], before: conversation }
	})
	if (!woken) return
	await publishEvents(db, realtime, [
		conversationEvent('conversation.updated', woken.conversation, { status: 'snoozed', assigneeId: woken.before.assigneeId }),
		...woken.messages.map((message) => messageEvent('message.created', woken.conversation, message)),
	])
}

/** The file kept with an outgoing message, if any, its bytes read from the storage when the provider asks. */
async function attachmentOf(db: DB, config: JobConfig, messageId: string): Promise<OutgoingAttachment | undefined> {
	const row = await db
		.selectFrom('attachments')
		.selectAll()
		.where('messageId', '=', messageId)
		.where('status', '=', 'stored')
		.orderBy('createdAt')
		.limit(1)
		.executeTakeFirst()
	if (!row?.storageKey) return undefined
	const key = row.storageKey
	return {
		kind: row.kind,
		filename: row.filename,
		contentType: row.contentType,
		size: Number(row.size ?? 0),
		async read() {
			const opened = await storageFor(config).open(key)
			if (!opened) throw new DeliveryError('The file is no longer stored.')
			return new Blob([await buffer(opened.stream)], { type: row.contentType })
		},
	}
}
