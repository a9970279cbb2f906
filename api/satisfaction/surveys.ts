import { sql } from 'kysely'
import { providerFor } from '#api/channels/providers/index.ts'
import { type OutgoingChoices, type TappedChoice } from '#api/channels/providers/provider.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel, type ChannelKind, type Conversation, type Message, type SatisfactionSurvey } from '#api/db/schema.ts'
import { addJob } from '#api/jobs/queue.ts'
import { messageEvent, type InboxEvent } from '#api/conversations/events.ts'
import { addActivity, insertText } from '#api/conversations/thread-lines.ts'
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

/** The ratings a survey's list offers, best first. */
const listedRatings = [5, 4, 3, 2, 1] as const

/** A survey list's row id, which comes back with the customer's tap: the question's message and the rating. */
const choiceId = (questionMessageId: string, rating: number) => `satisfaction:${questionMessageId}:${rating}`

/** The rating a tapped row gives this survey; null for a row of another list (an older survey's). */
function tappedRating(survey: SatisfactionSurvey, choice: TappedChoice): number | null {
	const match = /^satisfaction:(\d+):([1-5])$/.exec(choice.id)
	return match && survey.questionMessageId !== null && match[1] === String(survey.questionMessageId) ? Number(match[2]) : null
}

/**
 * Whether a survey's question goes as a list to tap: its channel sends lists, and the customer wrote within the
 * reply window before it was asked (a list is a session message, refused after). `question`: the question's id once
 * it exists (its send job asks again, and gets the same answer); without it, asked now.
 */
async function asksWithChoices(db: DB, kind: ChannelKind, conversationId: string, question?: string): Promise<boolean> {
	const provider = providerFor(kind)
	if (!provider?.sendsChoices || !provider.replyWindowMs) return false
	const askedAt = question ? sql<Date>`(select created_at from messages where id = ${question})` : sql<Date>`now()`
	let written = db
		.selectFrom('messages')
		.select('id')
		.where('conversationId', '=', conversationId)
		.where('direction', '=', 'incoming')
		.where('createdAt', '>', sql<Date>`${askedAt} - ${provider.replyWindowMs} * interval '1 millisecond'`)
	if (question) written = written.where('id', '<', question)
	return (await written.limit(1).executeTakeFirst()) !== undefined
}

/**
 * Nothing tells the customer's own language on a messaging channel: the workspace's is theirs. The translations load
 * here, not with the module: they are JSON modules, which the browser tests' helpers (Node's loader) cannot import.
 */
async function customerTranslator(locale: string) {
	const { translatorFor } = await import('#api/http/i18n.ts')
	return translatorFor(isLocale(locale) ? locale : defaultLocale)
}

/** The list a survey's question offers when it was asked with one: the ratings, best first, in the workspace's language. */
export async function questionChoices(
	db: DB,
	channel: Pick<Channel, 'kind' | 'workspaceId'>,
	question: { id: string; conversationId: string },
): Promise<OutgoingChoices | undefined> {
	if (!(await asksWithChoices(db, channel.kind, question.conversationId, question.id))) return undefined
	const workspace = await db.selectFrom('workspaces').select('defaultLocale').where('id', '=', channel.workspaceId).executeTakeFirstOrThrow()
	const t = await customerTranslator(workspace.defaultLocale)
	return {
		button: t('inbox:satisfaction.listButton'),
		rows: listedRatings.map((rating) => ({ id: choiceId(question.id, rating), title: t(`inbox:satisfaction.choices.${rating}`) })),
	}
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
 * language, sent like a reply (on WhatsApp inside the customer's window, with a list to tap); on a
 * chat link the page shows a form. Returns what members hear of it.
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
		const t = await customerTranslator(channel.defaultLocale)
		const listed = await asksWithChoices(trx, channel.kind, conversation.id)
		const body = t(listed ? 'inbox:satisfaction.listQuestion' : 'inbox:satisfaction.question')
		question = await insertText(trx, conversation, { direction: 'outgoing', body, externalId: null, status: 'pending' })
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
	const asked = await addActivity(trx, conversation, { key: 'activity.satisfactionAsked', values: {} })
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
 * A messaging channel's customer message on a resolved conversation (locked): one digit 1–5, or a tap
 * on a row of the survey's list, rates its open survey, the next message is the comment. Anything else
 * closes the survey (the message reopens the conversation, as any). A message with files is never a rating.
 */
export async function surveyAnswerOf(
	trx: DB,
	channel: Pick<Channel, 'kind'>,
	conversation: Conversation,
	message: { body: string; files: number; choice?: TappedChoice | null },
): Promise<SurveyAnswer | null> {
	// A survey is open only while its conversation stays resolved (every change of status closes it): nothing to read otherwise.
	if (conversation.status !== 'resolved') return null
	if (channel.kind === 'link') {
		await closeOpenSurvey(trx, conversation.id)
		return null
	}
	const survey = await openSurvey(trx, conversation.id)
	if (!survey) return null
	// A tap on the survey's list rates it, again before the comment (a change of mind); a tap is never a comment.
	const tapped = message.choice ? tappedRating(survey, message.choice) : null
	if (tapped !== null) return { survey, rating: tapped }
	const rating = message.files === 0 && !message.choice ? ratingOf(message.body) : null
	if (survey.status === 'asked' && rating !== null) return { survey, rating }
	if (survey.status === 'rated' && !message.choice && message.body.trim()) return { survey, comment: message.body.trim() }
	await closeOpenSurvey(trx, conversation.id)
	return null
}

/** Records a rating or a comment on its survey, with its line in the thread. */
export async function recordAnswer(trx: DB, conversation: Pick<Conversation, 'id' | 'workspaceId' | 'channelId'>, answer: SurveyAnswer): Promise<Message> {
	if ('rating' in answer) {
		await trx
			.updateTable('satisfactionSurveys')
			.set({ status: 'rated', rating: answer.rating, answeredAt: sql<Date>`now()` })
			.where('id', '=', answer.survey.id)
			.execute()
		return addActivity(trx, conversation, { key: 'activity.satisfactionRated', values: { rating: String(answer.rating) } })
	}
	await trx.updateTable('satisfactionSurveys').set({ status: 'commented', comment: answer.comment }).where('id', '=', answer.survey.id).execute()
	return addActivity(trx, conversation, { key: 'activity.satisfactionCommented', values: { comment: answer.comment } })
}

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
