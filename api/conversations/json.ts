import { type AttachmentJson } from '#api/attachments/queries.ts'
import { type LabelSummary } from '#api/labels/queries.ts'
import { type ContactSatisfactionJson } from '#api/satisfaction/contact.ts'
import {
	type Activity,
	type ChannelKind,
	type ConversationStatus,
	type DeliveryStatus,
	type MessageDirection,
	type MessageKind,
	type Priority,
} from '#api/db/schema.ts'

/** A conversation as the list and the thread's header read it. */
export type ConversationJson = {
	id: string
	/** Per workspace: `#1024`. The API's paths and the inbox's `?conversation=` use it. */
	number: number
	status: ConversationStatus
	snoozedUntil: string | null
	priority: Priority
	/** `unverifiedEmail`: what a chat-link visitor typed as their e-mail, not checked. */
	contact: { id: string; name: string; email: string | null; unverifiedEmail: string | null; phone: string | null; avatarColor: string }
	channel: { id: string; kind: ChannelKind; name: string }
	assignee: { id: string; name: string } | null
	/** The team it belongs to; null: none. */
	team: { id: string; name: string } | null
	labels: LabelSummary[]
	/** Incoming messages the reading member has not seen. */
	unreadCount: number
	/** `sender`: the member who wrote it (an outgoing reply); null for the customer's, a campaign's or one sent from the provider's own app. */
	lastMessage: { excerpt: string; direction: MessageDirection; sender: { id: string; name: string } | null } | null
	lastActivityAt: string
	firstResponseAt: string | null
	createdAt: string
}

/** A conversation as the workspace's channel carries it: its list row for every member alike (each reader keeps their own unread count). */
export type ConversationEventJson = Omit<ConversationJson, 'unreadCount'>

/** A message of a thread. `sender` is the member who wrote an outgoing message or note; null for the customer's. */
export type MessageJson = {
	id: string
	conversationId: string
	direction: MessageDirection
	kind: MessageKind
	body: string
	/** For `activity` messages: a key of the `inbox` namespace and its values, translated by the reader. */
	activity: Activity | null
	sender: { id: string; name: string } | null
	/** Delivery of an outgoing text message; null otherwise. */
	status: DeliveryStatus | null
	error: string | null
	/** Its files (images, documents, voice…), oldest first; empty for most messages. */
	attachments: AttachmentJson[]
	createdAt: string
}

/**
 * `GET /conversations`: a page of the list, the cursor of the next, and how many conversations each
 * status tab has with the same filters and search. `countsLimit`: null when the counts are exact;
 * with a filter or a search each count stops there (a count equal to it means that many or more).
 */
export type ConversationListJson = {
	conversations: ConversationJson[]
	nextCursor: string | null
	counts: Record<ConversationStatus, number>
	countsLimit: number | null
}

/**
 * `GET /conversations/summary`: the sidebar's open conversations, the reader's, nobody's and those
 * of the reader's teams (`myTeamIds`, so that a page can follow that count with the events).
 */
export type InboxSummaryJson = { mine: number; unassigned: number; myTeams: number; myTeamIds: string[] }

/** `GET /conversations/{number}/messages`: a page of the thread, oldest first; `olderCursor` is the `before` of the page before it. */
export type MessagePageJson = { messages: MessageJson[]; olderCursor: string | null }

/**
 * `GET /conversations/{number}/view`: what an inbox shows of one open conversation, in one request:
 * the conversation, a page of its thread, and the contact's latest other conversations.
 */
export type ConversationViewJson = {
	conversation: ConversationJson
	thread: MessagePageJson
	otherConversations: ConversationJson[]
	/** The contact's ratings, of the conversations the reader sees. */
	contactSatisfaction: ContactSatisfactionJson
}
