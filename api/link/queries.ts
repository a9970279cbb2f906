import { sql, type Kysely } from 'kysely'
import { attachmentsOfMessage, type AttachmentJson } from '#api/attachments/queries.ts'
import { linkSettingsOf } from '#api/channels/queries.ts'
import { autoRepliesOf, replyText } from '#common/auto-replies.ts'
import { hoursOf, isOpen, nextOpening } from '#common/business-hours.ts'
import { type Locale } from '#locales/languages.ts'
import { type Channel, type Database, type MessageDirection } from '#api/db/schema.ts'
import { surveyDays } from '#api/satisfaction/surveys.ts'

type Executor = Kysely<Database>

/** What anyone may see of a link channel: its page, before a word is written. */
export type LinkPageJson = {
	slug: string
	name: string
	businessName: string
	logoColor: string
	greeting: string
	/** The away auto-reply's words in the page's language: shown while closed, whether or not the reply is sent; null when it has none. */
	awayText: string | null
	askName: boolean
	askEmail: boolean
	/** Issue 31: the team is out of its business hours now (the channel's, else the workspace's). */
	closed: boolean
	/** When closed, when the team is back (null: not known); the page says it in `timezone`. */
	backAt: string | null
	/** The workspace's time zone. */
	timezone: string
}

/** A message of the visitor's own thread: what they wrote and the team's replies, never notes nor activity. */
/** A message of the visitor's thread; `attachments` are the team's files, read at `/v1/link/{slug}/attachments/{id}` with the visitor's token. */
export type VisitorMessageJson = {
	id: string
	direction: MessageDirection
	body: string
	senderName: string | null
	attachments: AttachmentJson[]
	createdAt: string
}

/** The survey of the visitor's resolved conversation: `asked`, the page shows the form; answered, its thanks. */
export type VisitorSurveyJson = { status: 'asked' | 'rated' | 'commented'; rating: number | null }

export type VisitorThreadJson = {
	/** Null until the visitor's first message; their realtime channel is `private-visitor-{conversationId}`. */
	conversationId: string | null
	/** Null when no survey waits or was just answered (a new message or resolution ends it). */
	survey: VisitorSurveyJson | null
	/** Oldest first. */
	messages: VisitorMessageJson[]
	/** Give it as `before` for the page of older messages; null at the start of the thread. */
	olderCursor: string | null
}

export type LinkChannel = { channel: Channel; page: LinkPageJson }

/** The enabled link channel of `slug` with its workspace's name, or undefined (unknown and switched off alike); its page in `locale`. */
export async function findLinkChannel(db: Executor, slug: string, locale: Locale): Promise<LinkChannel | undefined> {
	const row = await db
		.selectFrom('channels')
		.innerJoin('workspaces', 'workspaces.id', 'channels.workspaceId')
		.selectAll('channels')
		.select([
			'workspaces.name as businessName',
			'workspaces.logoColor',
			'workspaces.timezone',
			'workspaces.businessHours as workspaceHours',
			'workspaces.defaultLocale',
		])
		.where('channels.slug', '=', slug)
		.where('channels.kind', '=', 'link')
		.where('channels.enabled', '=', true)
		.executeTakeFirst()
	if (!row) return undefined
	const { businessName, logoColor, timezone, workspaceHours, defaultLocale, ...channel } = row
	const settings = linkSettingsOf(channel)
	const hours = hoursOf(channel.businessHours, workspaceHours)
	const now = new Date()
	const closed = !isOpen(hours, timezone, now)
	return {
		channel,
		page: {
			slug: channel.slug ?? slug,
			name: channel.name,
			businessName,
			logoColor,
			greeting: settings.greeting,
			awayText: replyText(autoRepliesOf(channel.autoReplies).away, locale, defaultLocale) || null,
			askName: settings.askName,
			askEmail: settings.askEmail,
			closed,
			backAt: closed ? (nextOpening(hours, timezone, now)?.toISOString() ?? null) : null,
			timezone,
		},
	}
}

/** Whether this visitor has written on the channel before (they then skip the pre-chat form). */
export async function hasIdentity(db: Executor, channelId: string, externalId: string): Promise<boolean> {
	const row = await db.selectFrom('contactIdentities').select('id').where('channelId', '=', channelId).where('externalId', '=', externalId).executeTakeFirst()
	return row !== undefined
}

/**
 * The visitor's conversation: the latest one started by their own identity on the channel. Only
 * theirs: a contact matched by e-mail may have others, which this visitor never sees.
 */
export async function visitorConversationId(db: Executor, channelId: string, externalId: string): Promise<string | null> {
	const row = await db
		.selectFrom('contactIdentities')
		.innerJoin('conversations', 'conversations.identityId', 'contactIdentities.id')
		.select('conversations.id')
		.where('contactIdentities.channelId', '=', channelId)
		.where('contactIdentities.externalId', '=', externalId)
		.orderBy('conversations.createdAt', 'desc')
		.limit(1)
		.executeTakeFirst()
	return row?.id ?? null
}

/** A page of the thread's text messages from the newest (or from before `before`), oldest first. */
export async function visitorThread(
	db: Executor,
	conversationId: string,
	page: { before?: string; limit: number },
): Promise<Omit<VisitorThreadJson, 'conversationId' | 'survey'>> {
	let query = db
		.selectFrom('messages')
		.leftJoin('users', 'users.id', 'messages.senderId')
		.select(['messages.id', 'messages.direction', 'messages.body', 'messages.createdAt', 'users.name as senderName'])
		.select(attachmentsOfMessage.as('attachments'))
		.where('messages.conversationId', '=', conversationId)
		.where('messages.kind', '=', 'text')
	if (page.before) query = query.where('messages.id', '<', page.before)
	const rows = await query
		.orderBy('messages.id', 'desc')
		.limit(page.limit + 1)
		.execute()
	const more = rows.length > page.limit
	const shown = rows.slice(0, page.limit).reverse()
	return {
		messages: shown.map((row) => ({
			id: String(row.id),
			direction: row.direction,
			body: row.body,
			senderName: row.senderName,
			attachments: row.attachments,
			createdAt: row.createdAt.toISOString(),
		})),
		olderCursor: more && shown[0] ? String(shown[0].id) : null,
	}
}

/** A file of the visitor's own conversation (a text message's, never a note's), if that is what `attachmentId` names. */
export async function visitorAttachment(db: Executor, conversationId: string, attachmentId: string) {
	return db
		.selectFrom('attachments')
		.innerJoin('messages', 'messages.id', 'attachments.messageId')
		.select(['attachments.status', 'attachments.storageKey', 'attachments.contentType', 'attachments.filename'])
		.where('attachments.id', '=', attachmentId)
		.where('messages.conversationId', '=', conversationId)
		.where('messages.kind', '=', 'text')
		.executeTakeFirst()
}

/**
 * The team's replies in the visitor's conversation, up to message `upTo`, now read (they were sent
 * or delivered; a failed one stays failed). Returns those that changed, for the agents' threads.
 */
export async function markRepliesRead(db: Executor, conversationId: string, upTo: string) {
	return db
		.updateTable('messages')
		.set({ status: 'read', updatedAt: sql<Date>`now()` })
		.where('conversationId', '=', conversationId)
		.where('direction', '=', 'outgoing')
		.where('kind', '=', 'text')
		.where('status', 'in', ['sent', 'delivered'])
		.where('id', '<=', upTo)
		.returning(['id', 'kind', 'direction'])
		.execute()
}

/** The survey the visitor's page shows while the conversation stays resolved: one still asking (within its days), or the one they answered. */
export async function visitorSurvey(db: Executor, conversationId: string): Promise<VisitorSurveyJson | null> {
	const row = await db
		.selectFrom('satisfactionSurveys')
		.innerJoin('conversations', 'conversations.id', 'satisfactionSurveys.conversationId')
		.select(['satisfactionSurveys.status', 'satisfactionSurveys.rating'])
		.where('satisfactionSurveys.conversationId', '=', conversationId)
		// Reopened (the visitor wrote again), the conversation has nothing to rate nor thank for.
		.where('conversations.status', '=', 'resolved')
		.where((eb) =>
			eb.or([
				eb.and([
					eb('satisfactionSurveys.status', '=', 'asked'),
					eb('satisfactionSurveys.askedAt', '>', sql<Date>`now() - make_interval(days => ${surveyDays})`),
				]),
				eb('satisfactionSurveys.status', 'in', ['rated', 'commented']),
			]),
		)
		.orderBy('satisfactionSurveys.askedAt', 'desc')
		.limit(1)
		.executeTakeFirst()
	if (!row || row.status === 'closed') return null
	return { status: row.status, rating: row.rating }
}
