import { type DB } from '#api/db/database.ts'
import { type Channel, type Conversation, type Message } from '#api/db/schema.ts'
import { addJob } from '#api/jobs/queue.ts'
import { insertText } from './thread-lines.ts'
import { autoRepliesOf, replyText, type AutoReply } from '#common/auto-replies.ts'
import { closedPeriodStart } from '#common/business-hours.ts'
import { scheduleOf } from '#api/channels/schedule.ts'
import { type Locale } from '#locales/languages.ts'

/** What the customer's message says of itself: when it was written, whether it opened the conversation, their language if known. */
export type Occasion = { at: Date; created: boolean; locale: Locale | null }

/**
 * The channel's greeting (first message of a new conversation) and away message (first message of
 * a closed period, once per conversation and period: the `away_replies` row that lands sends it),
 * in the transaction that records the customer's message, so exactly once. Each is an outgoing
 * text left `pending` for the `send-message` job like a reply, by nobody (`senderId` null), and is
 * not the team's first response nor the list's last message: the conversation still waits for them.
 */
export async function sendAutoReplies(
	trx: DB,
	channel: Pick<Channel, 'workspaceId' | 'autoReplies' | 'businessHours'>,
	conversation: Conversation,
	occasion: Occasion,
): Promise<Message[]> {
	const replies = autoRepliesOf(channel.autoReplies)
	const greets = replies.greeting.enabled && occasion.created
	if (!greets && !replies.away.enabled) return []
	const schedule = await scheduleOf(trx, channel)
	const sent: Message[] = []
	const send = async (reply: AutoReply) => {
		const body = replyText(reply, occasion.locale, schedule.defaultLocale)
		const message = await insertText(trx, conversation, { direction: 'outgoing', body, externalId: null, status: 'pending' })
		await addJob(trx, 'send-message', { messageId: String(message.id) })
		sent.push(message)
	}
	if (greets) await send(replies.greeting)
	if (replies.away.enabled) {
		const periodStart = closedPeriodStart(schedule.hours, schedule.timeZone, occasion.at)
		const first =
			periodStart &&
			(await trx
				.insertInto('awayReplies')
				.values({ conversationId: conversation.id, periodStart })
				.onConflict((oc) => oc.columns(['conversationId', 'periodStart']).doNothing())
				.returning('periodStart')
				.executeTakeFirst())
		if (first) await send(replies.away)
	}
	return sent
}
