import { ApiError, type ApiClient } from '#app/.server/api.ts'
import { listTemplates } from '#app/.server/channels.ts'
import { conversationView, markRead } from '#app/.server/conversations.ts'
import { markNotificationsRead } from '#app/.server/notifications.ts'
import { rethrowApiError } from '#app/.server/session.ts'
import { serverI18n } from '#app/i18n/i18n.server.ts'
import { selectedNumber } from '#app/utils/conversations.ts'
import { languageOf, type Locale } from '#locales/languages.ts'

/** The inbox's words for a loader or an action (`inbox:ui.…`). */
export async function inboxT(locale: Locale) {
	return (await serverI18n(locale)).getFixedT(languageOf(locale).tag, 'inbox', 'ui')
}

/** A list the page can do without (channels before any exist, members): empty when the API refuses it. */
export async function optional<T>(load: Promise<T>, empty: T, locale: Locale, request: Request): Promise<T> {
	try {
		return await load
	} catch (error) {
		if (error instanceof ApiError && error.statusCode !== 401 && error.statusCode < 500) return empty
		return rethrowApiError(error, locale, request)
	}
}

// How many of the contact's other conversations the contact panel lists.
const otherConversationsShown = 10

/** The open conversation, a page of its thread (the newest, or older than `before`), the contact's other conversations and ratings, in one API request; marks it read. */
async function openConversation(api: ApiClient, workspaceId: string, number: number, before: string | null) {
	try {
		const { conversation, thread, otherConversations, contactSatisfaction } = await conversationView(api, workspaceId, number, {
			before: before || undefined,
			limit: 30,
			others: otherConversationsShown,
		})
		// Opening a conversation is reading it: the unread badge goes (for this member only).
		if (conversation.unreadCount > 0) await markRead(api, workspaceId, number)
		return { conversation: { ...conversation, unreadCount: 0 }, thread, others: otherConversations, contactSatisfaction, missing: false }
	} catch (error) {
		if (error instanceof ApiError && (error.statusCode === 404 || error.statusCode === 400))
			return { conversation: null, thread: null, others: [], contactSatisfaction: null, missing: true }
		throw error
	}
}

/**
 * Opening a conversation reads its notifications (the bell hears of it on the personal channel). Not
 * awaited: the thread does not wait for it, and a failure is only logged.
 */
function readNotificationsOf(api: ApiClient, workspaceId: string, conversationNumber: number) {
	markNotificationsRead(api, workspaceId, { conversationNumber }).catch((error: unknown) => {
		if (error instanceof ApiError && error.statusCode === 404) return
		console.error('Marking the conversation’s notifications read failed:', error instanceof Error ? error.message : error)
	})
}

/**
 * What the inbox shows of the conversation `?conversation=` opens (none without one): the
 * conversation, its thread, the contact's other conversations, WhatsApp's templates when the agent
 * asked for them (`?templates`), and the page's title. The inbox's loader loads it with the list;
 * the thread route alone, when only the open conversation changes (app/utils/inbox-navigation.ts).
 */
export async function openedPart(api: ApiClient, workspaceId: string, url: URL, locale: Locale, request: Request) {
	const number = selectedNumber(url.searchParams)
	if (number !== null && !url.searchParams.has('before')) readNotificationsOf(api, workspaceId, number)
	const [t, opened] = await Promise.all([
		inboxT(locale),
		number === null
			? null
			: openConversation(api, workspaceId, number, url.searchParams.get('before')).catch((error: unknown) => rethrowApiError(error, locale, request)),
	])
	// WhatsApp's approved templates, asked of Meta only when the agent asks for them.
	const channel = opened?.conversation?.channel
	const templates =
		channel?.kind === 'whatsapp' && url.searchParams.has('templates') ? await optional(listTemplates(api, workspaceId, channel.id), [], locale, request) : null
	return {
		title: opened?.conversation ? t('titleOf', { number: opened.conversation.number, name: opened.conversation.contact.name }) : t('title'),
		conversation: opened?.conversation ?? null,
		thread: opened?.thread ?? null,
		otherConversations: opened?.others ?? [],
		contactSatisfaction: opened?.contactSatisfaction ?? null,
		missing: opened?.missing ?? false,
		templates,
	}
}

export type OpenedPart = Awaited<ReturnType<typeof openedPart>>
