import { sql } from 'kysely'
import { type NewAttachment } from '#api/attachments/inbound.ts'
import { type TappedChoice } from '#api/channels/providers/provider.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel, type Conversation, type Message } from '#api/db/schema.ts'
import { removeJob } from '#api/jobs/queue.ts'
import { notify } from '#api/notifications/notify.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { enqueue, routeReopened } from '#api/assignment/queue.ts'
import { isOptOut } from '#api/campaigns/opt-out.ts'
import { triggerAutomation } from '#api/automation/trigger.ts'
import { recordAnswer, surveyAnswerOf } from '#api/satisfaction/surveys.ts'
import { randomLogoColor } from '#api/workspaces/queries.ts'
import { type Locale } from '#locales/languages.ts'
import { sendAutoReplies } from './auto-replies.ts'
import { addActivity, insertText } from './thread-lines.ts'
import { conversationEvent, messageEvent, publishEvents } from './events.ts'

export { addActivity, insertText } from './thread-lines.ts'

/** A message from a customer, as any channel hands it over once it has verified and parsed it. */
export type InboundMessage = {
	channel: Channel
	/**
	 * The customer as the channel knows them: `externalId` is their id there (a wa_id, a chat id, a
	 * visitor token's hash). `unverifiedEmail` is what a chat-link visitor typed: kept as a claim on
	 * their new contact, never used to find another.
	 */
	from: { externalId: string; name: string; unverifiedEmail?: string | null; phone?: string | null }
	/** The provider's id of the message: a retried delivery with the same id is recorded once. */
	externalId?: string | null
	/** The text, or the caption of `attachments`, or the title of the `choice` tapped. */
	body: string
	/** The row of our list the customer tapped (a WhatsApp survey's rating). */
	choice?: TappedChoice | null
	/** Files already fetched into the storage, kept beside the message. */
	attachments?: NewAttachment[]
	/**
	 * Commit without waiting for the disk (`synchronous_commit = off`): for a webhook's job, whose job
	 * stays until after this commit, so that a crash losing it runs the job again (once, by the id).
	 */
	replayable?: boolean
	/** When the customer wrote it, as the provider says (a later delivery is still that time's); now when absent. Business hours read it. */
	sentAt?: Date | null
	/** The customer's language where the channel knows it (the chat link's page): their auto-replies are in it when translated. */
	locale?: Locale | null
	/** The words that, alone, opt the contact out of campaigns (configuration's `OPT_OUT_WORDS`); the defaults when absent. */
	optOutWords?: readonly string[]
}

export type Received = { conversation: Conversation; message: Message; duplicate: boolean }

/** The job that reopens a snoozed conversation: one per conversation, replaced by a new snooze, removed when it reopens sooner. */
export const wakeJobKey = (conversationId: string) => `wake-snoozed:${conversationId}`

// How much of the last message the list shows.
const excerptLength = 140

/** What the list shows of a message: its text, or the names of its files. */
export function excerptWithFiles(body: string, attachments: Array<{ filename: string }> = []): string {
	return excerptOf(body.trim() || attachments.map((attachment) => `📎 ${attachment.filename}`).join(', '))
}

function excerptOf(body: string): string {
	const line = body.replace(/\s+/g, ' ').trim()
	return line.length > excerptLength ? `${line.slice(0, excerptLength - 1)}…` : line
}

/**
 * Records a customer's message: their identity on the channel (a new one is a new contact), their
 * conversation (their identity's latest one, reopened when resolved or snoozed, a new numbered one
 * otherwise), the message itself, once per provider id. Members hear of it by
 * `conversation.created` or `conversation.updated` and `message.created` on the workspace channel.
 */
export async function receiveMessage(db: DB, realtime: Realtime, inbound: InboundMessage): Promise<Received> {
	const received = await db.transaction().execute(async (trx) => {
		if (inbound.replayable) await sql`set local synchronous_commit = off`.execute(trx)
		const { channel } = inbound
		const identity = await findOrCreateIdentity(trx, inbound)
		if (inbound.externalId) {
			const known = await trx
				.selectFrom('messages')
				.selectAll()
				.where('channelId', '=', channel.id)
				.where('externalId', '=', inbound.externalId)
				.executeTakeFirst()
			if (known) {
				const conversation = await trx.selectFrom('conversations').selectAll().where('id', '=', known.conversationId).executeTakeFirstOrThrow()
				return { conversation, message: known, duplicate: true, created: false }
			}
		}

		const latest = await latestConversation(trx, channel, identity)
		const { created } = latest
		let { conversation } = latest

		const before = { status: conversation.status, assigneeId: conversation.assigneeId }
		// A rating of the resolved conversation (or its comment) leaves it resolved; anything else ends its survey.
		const answer = await surveyAnswerOf(trx, channel, conversation, {
			body: inbound.body,
			files: inbound.attachments?.length ?? 0,
			choice: inbound.choice ?? null,
		})
		const reopens = !answer && (conversation.status === 'resolved' || conversation.status === 'snoozed')
		if (reopens) await addActivity(trx, conversation, { key: 'activity.reopenedByCustomer', values: {} })
		if (conversation.status === 'snoozed') await removeJob(trx, wakeJobKey(conversation.id))

		const message = await insertText(trx, conversation, { direction: 'incoming', body: inbound.body, externalId: inbound.externalId ?? null })
		if (inbound.attachments?.length) {
			await trx
				.insertInto('attachments')
				.values(inbound.attachments.map((attachment) => ({ ...attachment, workspaceId: channel.workspaceId, messageId: String(message.id) })))
				.execute()
		}

		conversation = await trx
			.updateTable('conversations')
			.set((eb) => ({
				incomingCount: eb('incomingCount', '+', 1),
				...lastMessageOf(message, inbound.attachments),
				...(reopens ? { status: 'open' as const, snoozedUntil: null } : {}),
			}))
			.where('id', '=', conversation.id)
			.returningAll()
			.executeTakeFirstOrThrow()
		const rated = answer ? await recordAnswer(trx, conversation, answer) : undefined
		// An unassigned conversation the customer writes in joins its team's queue (a campaign's waits for their answer);
		// a reopened one too, when its assignee is away and the workspace says so.
		let away: Message | undefined
		if (reopens) {
			const routed = await routeReopened(trx, conversation)
			conversation = routed.conversation
			if (routed.activity) away = await addActivity(trx, conversation, routed.activity)
		} else conversation = await enqueue(trx, conversation)
		await trx.updateTable('contacts').set({ lastActivityAt: message.createdAt }).where('id', '=', identity.contactId).execute()
		const optedOut = isOptOut(inbound.body, inbound.optOutWords) && (await optOut(trx, conversation, identity.contactId))
		// A survey's answer is no message for the rules nor the auto-replies: it leaves the conversation resolved.
		if (!answer)
			await triggerAutomation(
				trx,
				conversation,
				[...(created ? (['conversation.created'] as const) : []), 'message.received', ...(reopens ? (['conversation.statusChanged'] as const) : [])],
				{ depth: 0, messageId: String(message.id) },
			)
		// A provider's time ahead of ours (its clock) is taken as now.
		const at = inbound.sentAt && inbound.sentAt < message.createdAt ? inbound.sentAt : message.createdAt
		const autoReplies = answer ? [] : await sendAutoReplies(trx, channel, conversation, { at, created, locale: inbound.locale ?? null })
		// Its assignee hears of the customer's message (a survey's answer is none).
		const notified =
			answer || !conversation.assigneeId
				? []
				: await notify(trx, [
						{
							workspaceId: conversation.workspaceId,
							userId: conversation.assigneeId,
							kind: 'message',
							conversationId: conversation.id,
							values: { excerpt: excerptWithFiles(inbound.body, inbound.attachments) },
						},
					])
		return { conversation, message, duplicate: false, created, optedOut, away, rated, before, autoReplies, notified }
	})

	if (!received.duplicate) {
		const { conversation, message } = received
		void publishEvents(db, realtime, [
			conversationEvent(received.created ? 'conversation.created' : 'conversation.updated', conversation, received.before),
			messageEvent('message.created', conversation, message),
			...(received.away ? [messageEvent('message.created', conversation, received.away)] : []),
			...(received.rated ? [messageEvent('message.created', conversation, received.rated)] : []),
			...(received.optedOut ? [messageEvent('message.created', conversation, received.optedOut)] : []),
			...(received.autoReplies ?? []).map((reply) => messageEvent('message.created', conversation, reply)),
			...(received.notified ?? []),
		])
	}
	return { conversation: received.conversation, message: received.message, duplicate: received.duplicate }
}

/** Opts the contact out of campaigns, once, with a line in the conversation saying so. */
async function optOut(trx: DB, conversation: Conversation, contactId: string) {
	const changed = await trx
		.updateTable('contacts')
		.set({ optedOutAt: sql<Date>`now()` })
		.where('id', '=', contactId)
		.where('optedOutAt', 'is', null)
		.returning('id')
		.executeTakeFirst()
	return changed ? addActivity(trx, conversation, { key: 'activity.optedOut', values: {} }) : undefined
}

/** What a conversation shows of its newest message, in the list. */
export const lastMessageOf = (message: Pick<Message, 'id' | 'body' | 'direction' | 'createdAt'>, files: Array<{ filename: string }> = []) => ({
	lastMessageId: message.id,
	lastMessageExcerpt: excerptWithFiles(message.body, files),
	lastMessageDirection: message.direction,
	lastActivityAt: message.createdAt,
	updatedAt: message.createdAt,
})

/**
 * The latest conversation of the customer's identity on the channel (locked), or a new one: a reply,
 * or a campaign's message, continues it. By identity, not contact: a contact merged from several
 * chat-link visitors has a thread per visitor, each read only by its own visitor.
 */
export async function latestConversation(trx: DB, channel: Channel, identity: { id: string; contactId: string }) {
	const latest = await trx
		.selectFrom('conversations')
		.selectAll()
		.where('workspaceId', '=', channel.workspaceId)
		.where('identityId', '=', identity.id)
		.orderBy('createdAt', 'desc')
		.limit(1)
		.forUpdate()
		.executeTakeFirst()
	return { conversation: latest ?? (await startConversation(trx, channel, identity)), created: !latest }
}

/**
 * The customer's identity on the channel; a new one is a new contact. Nothing the customer says of
 * themselves (an e-mail typed in a chat link) attaches them to a contact that exists: only an
 * agent's merge does (issue 26).
 */
async function findOrCreateIdentity(trx: DB, { channel, from }: InboundMessage) {
	const existing = () =>
		trx.selectFrom('contactIdentities').selectAll().where('channelId', '=', channel.id).where('externalId', '=', from.externalId).executeTakeFirst()
	const known = await existing()
	if (known) return known

	const contact = await trx
		.insertInto('contacts')
		.values({
			workspaceId: channel.workspaceId,
			name: from.name,
			unverifiedEmail: from.unverifiedEmail?.trim().toLowerCase() || null,
			phone: from.phone ?? null,
			avatarColor: randomLogoColor(),
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	// Two first messages at once: the second waits for the first's identity here and takes it; its own contact goes.
	const inserted = await trx
		.insertInto('contactIdentities')
		.values({ workspaceId: channel.workspaceId, channelId: channel.id, contactId: contact.id, externalId: from.externalId })
		.onConflict((oc) => oc.columns(['channelId', 'externalId']).doNothing())
		.returningAll()
		.executeTakeFirst()
	if (inserted) return inserted
	await trx.deleteFrom('contacts').where('id', '=', contact.id).execute()
	return (await existing())!
}

/** A new conversation, numbered after the workspace's last one, of the channel's team. */
async function startConversation(trx: DB, channel: Channel, identity: { id: string; contactId: string }): Promise<Conversation> {
	const { lastNumber } = await trx
		.insertInto('conversationNumbers')
		.values({ workspaceId: channel.workspaceId, lastNumber: 1 })
		.onConflict((oc) => oc.column('workspaceId').doUpdateSet({ lastNumber: sql`conversation_numbers.last_number + 1` }))
		.returning('lastNumber')
		.executeTakeFirstOrThrow()
	return trx
		.insertInto('conversations')
		.values({
			workspaceId: channel.workspaceId,
			number: lastNumber,
			contactId: identity.contactId,
			channelId: channel.id,
			identityId: identity.id,
			teamId: channel.teamId,
		})
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** A message the business sent from the provider's own app (Meta's echo), as the channel hands it over. */
export type EchoedMessage = { channel: Channel; to: string; externalId: string; body: string }

/**
 * Records the business's message written elsewhere (the page's inbox in Meta Business Suite) as
 * outgoing and sent, once per provider id, in the customer's latest conversation on the channel.
 * The echo of our own reply is not a second copy: it is known by its id once the reply was sent,
 * and while the reply is still on its way it is the pending one with the same words.
 */
export async function recordEcho(db: DB, realtime: Realtime, echo: EchoedMessage): Promise<Message | null> {
	const recorded = await db.transaction().execute(async (trx) => {
		const { channel } = echo
		const known = await trx.selectFrom('messages').select('id').where('channelId', '=', channel.id).where('externalId', '=', echo.externalId).executeTakeFirst()
		if (known) return null
		const identity = await findOrCreateIdentity(trx, { channel, from: { externalId: echo.to, name: echo.to }, body: echo.body })
		const latest = await latestConversation(trx, channel, identity)
		const { created } = latest
		let { conversation } = latest
		const ours = await trx
			.selectFrom('messages')
			.select('id')
			.where('conversationId', '=', conversation.id)
			.where('direction', '=', 'outgoing')
			.where('kind', '=', 'text')
			.where('status', '=', 'pending')
			.where('body', '=', echo.body)
			.executeTakeFirst()
		if (ours) return null
		const message = await insertText(trx, conversation, { direction: 'outgoing', body: echo.body, externalId: echo.externalId, status: 'sent' })
		conversation = await trx.updateTable('conversations').set(lastMessageOf(message)).where('id', '=', conversation.id).returningAll().executeTakeFirstOrThrow()
		return { conversation, message, created }
	})
	if (!recorded) return null
	const { conversation, message, created } = recorded
	void publishEvents(db, realtime, [
		conversationEvent(created ? 'conversation.created' : 'conversation.updated', conversation),
		messageEvent('message.created', conversation, message),
	])
	return message
}
