import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Activity, type Channel, type Conversation, type Message, type SatisfactionSurvey } from '#api/db/schema.ts'
import { addJob } from '#api/jobs/queue.ts'
import { messageEvent, type InboxEvent } from '#api/conversations/events.ts'
import { defaultLocale, isLocale } from '#locales/languages.ts'

/** Days a survey waits for its rating (and a rating for its comment). */
export const surveyDays = 7

/** The surveys waiting for a rating or a comment. */
export const openStatuses = ['asked', 'rated'] as const

/** A customer's rating, as they may type it: one digit 1–5 (Western, Arabic-Indic or Persian), nothing else but spaces. */
export function ratingOf(text: string): number | null {
	const match = /^\s*([1-5١-٥۱-۵])\s*$/u.exec(text)
	if (!match) return null
	const code = match[1]!.codePointAt(0)!
	// ١ is U+0661 and ۱ is U+06F1: each script's digits run in order from its zero.
	return code >= 0x06f0 ? code - 0x06f0 : code >= 0x0660 ? code - 0x0660 : code - 0x30
}

/** Closes the conversation's open survey, if any (the conversation changed, or the customer wrote something else); whether there was one. */
export async function closeOpenSurvey(trx: DB, conversationId: string): Promise<boolean> {
	const { numUpdatedRows } = await trx
		.updateTable('satisfactionSurveys')
		.set({ status: 'closed', closedAt: sql<Date>`now()` })
		.where('conversationId', '=', conversationId)
		.where('status', 'in', openStatuses)
		.executeTakeFirst()
	return numUpdatedRows > 0n
}

/** What a chat link's visitor hears of their survey: their open page shows or hides its form without a reload. */
const surveyChanged = (conversation: Pick<Conversation, 'id' | 'workspaceId' | 'number'>): InboxEvent => ({ event: 'survey.changed', conversation })

/**
 * A conversation's status changed (`conversation` as it is now): an open survey is closed, and a
 * resolution asks again when its channel asks: on a messaging channel a question in the workspace's
 * language, sent like a reply; on a chat link the page shows a form. Returns what members hear of it.
 */
export async function surveyOnStatusChange(trx: DB, conversation: Conversation): Promise<InboxEvent[]> {
	const closed = await closeOpenSurvey(trx, conversation.id)
	if (conversation.status !== 'resolved' && !closed) return []
	const channel = await trx
		.selectFrom('channels')
		.innerJoin('workspaces', 'workspaces.id', 'channels.workspaceId')
		.select(['channels.kind', 'channels.csatEnabled', 'workspaces.defaultLocale'])
		.where('channels.id', '=', conversation.channelId)
		.executeTakeFirst()
	const events: InboxEvent[] = closed && channel?.kind === 'link' ? [surveyChanged(conversation)] : []
	if (conversation.status !== 'resolved' || !channel?.csatEnabled) return events
	let question: Message | null = null
	if (channel.kind !== 'link') {
		// Nothing tells the customer's own language on a messaging channel: the workspace's is theirs. The translations
		// load here, not with the module: they are JSON modules, which the browser tests' helpers (Node's loader) cannot import.
		const { translatorFor } = await import('#api/http/i18n.ts')
		const t = translatorFor(isLocale(channel.defaultLocale) ? channel.defaultLocale : defaultLocale)
		question = await threadMessage(trx, conversation, { kind: 'text', body: t('inbox:satisfaction.question'), status: 'pending' })
		await addJob(trx, 'send-message', { messageId: String(question.id) })
		events.push(messageEvent('message.created', conversation, question))
	}
	await trx
		.insertInto('satisfactionSurveys')
		.values({
			workspaceId: conversation.workspaceId,
			conversationId: conversation.id,
			channelId: conversation.channelId,
			contactId: conversation.contactId,
			assigneeId: conversation.assigneeId,
			teamId: conversation.teamId,
			questionMessageId: question ? String(question.id) : null,
		})
		.execute()
	const asked = await activityLine(trx, conversation, { key: 'activity.satisfactionAsked', values: {} })
	events.push(messageEvent('message.created', conversation, asked))
	// Closed and asked again at once (resolved twice): one event says both.
	if (channel.kind === 'link' && !closed) events.push(surveyChanged(conversation))
	return events
}

/** The conversation's open survey still within its days, locked; an older one is closed on the way. */
export async function openSurvey(trx: DB, conversationId: string): Promise<SatisfactionSurvey | undefined> {
	const survey = await trx
		.selectFrom('satisfactionSurveys')
		.selectAll()
		.where('conversationId', '=', conversationId)
		.where('status', 'in', openStatuses)
		.forUpdate()
		.executeTakeFirst()
	if (!survey) return undefined
	if (survey.askedAt.getTime() > Date.now() - surveyDays * 86_400_000) return survey
	await closeOpenSurvey(trx, conversationId)
	return undefined
}

/** What a customer's message is to the conversation's survey: its rating, its comment, or neither. */
export type SurveyAnswer = { survey: SatisfactionSurvey; rating: number } | { survey: SatisfactionSurvey; comment: string }

/**
 * A messaging channel's customer message on a resolved conversation (locked): one digit 1–5 rates
 * its open survey, the next message is the comment. Anything else closes the survey (the message
 * reopens the conversation, as any). A message with files is never a rating.
 */
export async function surveyAnswerOf(
	trx: DB,
	channel: Pick<Channel, 'kind'>,
	conversation: Conversation,
	message: { body: string; files: number },
): Promise<SurveyAnswer | null> {
	if (channel.kind === 'link' || conversation.status !== 'resolved') {
		await closeOpenSurvey(trx, conversation.id)
		return null
	}
	const survey = await openSurvey(trx, conversation.id)
	if (!survey) return null
	const rating = message.files === 0 ? ratingOf(message.body) : null
	if (survey.status === 'asked' && rating !== null) return { survey, rating }
	if (survey.status === 'rated' && message.body.trim()) return { survey, comment: message.body.trim() }
	await closeOpenSurvey(trx, conversation.id)
	return null
}

/** Records a rating or a comment on its survey, with its line in the thread. */
export async function recordAnswer(trx: DB, conversation: Thread, answer: SurveyAnswer): Promise<Message> {
	if ('rating' in answer) {
		await trx
			.updateTable('satisfactionSurveys')
			.set({ status: 'rated', rating: answer.rating, answeredAt: sql<Date>`now()` })
			.where('id', '=', answer.survey.id)
			.execute()
		return activityLine(trx, conversation, { key: 'activity.satisfactionRated', values: { rating: String(answer.rating) } })
	}
	await trx.updateTable('satisfactionSurveys').set({ status: 'commented', comment: answer.comment }).where('id', '=', answer.survey.id).execute()
	return activityLine(trx, conversation, { key: 'activity.satisfactionCommented', values: { comment: answer.comment } })
}

type Thread = Pick<Conversation, 'id' | 'workspaceId' | 'channelId'>

/** A message the business adds to the thread (as inbound.ts's `insertText` and `addActivity`, which import this module). */
function threadMessage(trx: DB, conversation: Thread, values: { kind: 'text' | 'activity'; body?: string; status?: 'pending'; activity?: Activity }) {
	return trx
		.insertInto('messages')
		.values({ workspaceId: conversation.workspaceId, conversationId: conversation.id, channelId: conversation.channelId, direction: 'outgoing', ...values })
		.returningAll()
		.executeTakeFirstOrThrow()
}

const activityLine = (trx: DB, conversation: Thread, activity: Activity) => threadMessage(trx, conversation, { kind: 'activity', activity })

/**
 * A chat-link visitor's answer to the survey of their conversation, rating and comment at once.
 * Null when no survey waits for a rating (none asked, expired, ended, or already rated).
 */
export async function rateConversation(trx: DB, conversationId: string, answer: { rating: number; comment?: string }) {
	const conversation = await trx
		.selectFrom('conversations')
		.select(['id', 'workspaceId', 'channelId', 'number'])
		.where('id', '=', conversationId)
		.forUpdate()
		.executeTakeFirstOrThrow()
	const survey = await openSurvey(trx, conversationId)
	if (survey?.status !== 'asked') return null
	const lines = [await recordAnswer(trx, conversation, { survey, rating: answer.rating })]
	if (answer.comment) lines.push(await recordAnswer(trx, conversation, { survey, comment: answer.comment }))
	return {
		survey: { status: answer.comment ? ('commented' as const) : ('rated' as const), rating: answer.rating },
		// The visitor's other tabs hear it too: their form goes.
		events: [...lines.map((line) => messageEvent('message.created', conversation, line)), surveyChanged(conversation)],
	}
}
