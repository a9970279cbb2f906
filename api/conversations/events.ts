import { notificationEvent, type NotificationEventData } from '#common/notifications.ts'
import { inboxChangedEvent, visitorChannel } from '#common/realtime.ts'
import { campaignsMovedBy } from '#api/campaigns/queries.ts'
import { type DB } from '#api/db/database.ts'
import { type Conversation, type ConversationStatus, type Message } from '#api/db/schema.ts'
import { notificationsForEvents, notificationJson } from '#api/notifications/queries.ts'
import { type NotificationEvent } from '#api/notifications/notify.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { publishToWorkspace, type WorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { type ConversationEventJson, type MessageJson } from './json.ts'
import { conversationsForEvents, messagesById } from './queries.ts'

type ConversationRef = Pick<Conversation, 'id' | 'workspaceId' | 'number'>
type MessageRef = Pick<Message, 'id' | 'kind' | 'direction'>
/** Where a conversation stood before a change: the tabs and counts it leaves. Without `teamId`, its team did not change. */
type Standing = Pick<Conversation, 'status' | 'assigneeId'> & { teamId?: string | null }

/** What members (and a link visitor) hear of a change, gathered in its transaction and published once it committed. */
export type InboxEvent =
	| { event: 'conversation.created' | 'conversation.updated'; conversation: ConversationRef; before?: Standing }
	| { event: 'message.created' | 'message.updated'; conversation: ConversationRef; message: MessageRef }
	/** A member's new notification (api/notifications/notify.ts), on their personal channel. */
	| NotificationEvent
	/** A chat link's survey was asked, answered or ended: the visitor's page shows or hides its form (members see its activity line). */
	| { event: 'survey.changed'; conversation: ConversationRef }

/** `before`: its status, assignee and team before the change, when the change moved it (a page moves it between its counts). */
export const conversationEvent = (event: 'conversation.created' | 'conversation.updated', conversation: ConversationRef, before?: Standing): InboxEvent => ({
	event,
	conversation,
	before,
})
export const messageEvent = (event: 'message.created' | 'message.updated', conversation: ConversationRef, message: MessageRef): InboxEvent => ({
	event,
	conversation,
	message,
})

/** The customer sees outgoing text only: never a note, never an activity line. */
export const reachesVisitor = (message: MessageRef) => message.kind === 'text' && message.direction === 'outgoing'

/** Every event of the workspace's channel: its number (absent when the database could not give one) and its workspace. */
type Numbered = { workspaceId: string; seq?: number }
/**
 * `conversation.created` and `conversation.updated` on the workspace's channel: the conversation's
 * list row as it is now, and where it stood before (null: it is new), so a page updates its list and
 * counts without reloading. Without `conversation` (it is gone, or the event was cut) the page reloads.
 */
export type ConversationEventData = Numbered & {
	conversationId: string
	number: number
	conversation?: ConversationEventJson
	previous?: { status: ConversationStatus; assigneeId: string | null; teamId: string | null } | null
}
/** `message.created` and `message.updated`: the message as the thread shows it. Without `message`, the page reloads. */
export type MessageEventData = Numbered & { conversationId: string; number: number; messageId: string; message?: MessageJson }

const standing = (before: Standing | undefined, row: ConversationEventJson | undefined) =>
	before && { status: before.status, assigneeId: before.assigneeId, teamId: before.teamId !== undefined ? before.teamId : (row?.team?.id ?? null) }

/**
 * Publishes after the commit, never awaited by routes: on the workspace's channel what changed,
 * numbered and shaped as the inbox shows it (every member who hears it may read every conversation,
 * notes included); to agents narrowed to their teams, that something of theirs changed; on the
 * visitor's channel the ids of what the customer sees (their page reloads its thread); to one user a notification.
 */
export function publishEvents(db: DB, realtime: Realtime, events: InboxEvent[]): Promise<void> {
	if (events.length === 0) return Promise.resolve()
	let batches = gathering.get(realtime)
	if (!batches) gathering.set(realtime, (batches = new Map()))
	let batch = batches.get(db)
	if (!batch) {
		const gathered: InboxEvent[] = []
		const done = new Promise<void>((resolve) => setTimeout(resolve, gatherMs)).then(() => {
			batches.delete(db)
			return publish(db, realtime, gathered)
		})
		batch = { events: gathered, done: realtime.track(done) }
		batches.set(db, batch)
	}
	batch.events.push(...events)
	return batch.done
}

/**
 * The events of a few milliseconds go together: their rows and messages are read in one query each
 * and numbered in one statement, so a campaign sending a thousand messages a second, or a busy
 * inbox, costs the database a few statements per batch, not three per event.
 */
const gatherMs = 20
const gathering = new WeakMap<Realtime, Map<DB, { events: InboxEvent[]; done: Promise<void> }>>()

type ConversationInboxEvent = Exclude<InboxEvent, NotificationEvent>

async function publish(db: DB, realtime: Realtime, all: InboxEvent[]): Promise<unknown> {
	const notifications = all.filter((entry): entry is NotificationEvent => entry.event === 'notification')
	const events = all.filter((entry): entry is ConversationInboxEvent => entry.event !== 'notification')
	const conversationIds = events.flatMap((entry) =>
		entry.event === 'conversation.created' || entry.event === 'conversation.updated' ? [entry.conversation.id] : [],
	)
	const messageIds = events.flatMap((entry) => ('message' in entry ? [String(entry.message.id)] : []))
	const answered = events.flatMap((entry) =>
		entry.event === 'message.created' && entry.message.direction === 'incoming' && entry.message.kind === 'text' ? [entry.conversation.id] : [],
	)
	const [conversations, messages, campaigns, notified] = await Promise.all([
		conversationsForEvents(db, [...new Set(conversationIds)]).catch(() => new Map<string, ConversationEventJson>()),
		messagesById(db, [...new Set(messageIds)]).catch(() => new Map<string, MessageJson>()),
		campaignsMovedBy(db, [...new Set(messageIds)], [...new Set(answered)]).catch(() => []),
		notificationsForEvents(
			db,
			notifications.map((entry) => entry.notificationId),
		).catch(() => new Map<string, never>()),
	])

	const byWorkspace = new Map<string, WorkspaceEvent[]>()
	const elsewhere: Array<Promise<unknown>> = []
	for (const { userId, workspaceId, notificationId } of notifications) {
		const found = notified.get(notificationId)
		if (found)
			elsewhere.push(
				realtime.notifyUser(userId, notificationEvent, {
					workspaceId,
					notification: notificationJson(found.row),
					unread: found.unread,
				} satisfies NotificationEventData),
			)
	}
	for (const entry of events) {
		const { conversation } = entry
		const ids = { conversationId: conversation.id, number: conversation.number }
		if (entry.event === 'survey.changed') {
			elsewhere.push(realtime.publish(visitorChannel(conversation.id), entry.event, { workspaceId: conversation.workspaceId, ...ids }))
			continue
		}
		const ofWorkspace = byWorkspace.get(conversation.workspaceId) ?? []
		byWorkspace.set(conversation.workspaceId, ofWorkspace)
		if ('message' in entry) {
			const messageId = String(entry.message.id)
			const data: MessageEventData = { workspaceId: conversation.workspaceId, ...ids, messageId, message: messages.get(messageId) }
			ofWorkspace.push({ event: entry.event, data })
			if (reachesVisitor(entry.message))
				elsewhere.push(realtime.publish(visitorChannel(conversation.id), entry.event, { workspaceId: conversation.workspaceId, ...ids, messageId }))
			continue
		}
		const row = conversations.get(conversation.id)
		const previous =
			entry.event === 'conversation.created'
				? null
				: standing(entry.before ?? (row && { status: row.status, assigneeId: row.assignee?.id ?? null, teamId: row.team?.id ?? null }), row)
		const data: ConversationEventData = { workspaceId: conversation.workspaceId, ...ids, conversation: row, previous }
		ofWorkspace.push({ event: entry.event, data })
	}
	// A campaign's totals, moved by its messages' deliveries and answers: its page reloads on this, not on every message.
	for (const { workspaceId, campaignId } of campaigns) {
		const ofWorkspace = byWorkspace.get(workspaceId) ?? []
		byWorkspace.set(workspaceId, ofWorkspace)
		ofWorkspace.push({ event: 'campaign.updated', data: { workspaceId, campaignId } })
	}
	return Promise.all([
		...elsewhere,
		...[...byWorkspace].map(([workspaceId, list]) => publishToWorkspace(db, realtime, workspaceId, list)),
		tellNarrowedAgents(db, realtime, events).catch(() => undefined),
	])
}

/**
 * An agent narrowed to their teams' conversations (api/conversations/visibility.ts) may not hear the
 * workspace's channel, which carries every conversation. They are told instead, on their own channel,
 * that something they see changed, once per batch and without what changed (`{ workspaceId }`): their
 * page reloads its data, which the API narrows. A conversation they saw before the change (it left
 * their team, or them) counts too, so that it leaves their page.
 */
async function tellNarrowedAgents(db: DB, realtime: Realtime, events: ConversationInboxEvent[]): Promise<void> {
	const changes = events.filter((entry) => entry.event !== 'survey.changed')
	if (changes.length === 0) return
	const narrowed = await db
		.selectFrom('workspaces')
		.select('id')
		.where('id', 'in', [...new Set(changes.map((entry) => entry.conversation.workspaceId))])
		.where('agentsSeeOwnTeams', '=', true)
		.execute()
	if (narrowed.length === 0) return
	const workspaceIds = narrowed.map((workspace) => workspace.id)
	const concerned = changes.filter((entry) => workspaceIds.includes(entry.conversation.workspaceId))
	const [agents, standings] = await Promise.all([
		db
			.selectFrom('members')
			.leftJoin('teamMembers', (join) => join.onRef('teamMembers.userId', '=', 'members.userId').onRef('teamMembers.workspaceId', '=', 'members.workspaceId'))
			.select(['members.workspaceId', 'members.userId', 'teamMembers.teamId'])
			.where('members.workspaceId', 'in', workspaceIds)
			.where('members.role', '=', 'agent')
			.execute(),
		db
			.selectFrom('conversations')
			.select(['id', 'teamId', 'assigneeId'])
			.where('id', 'in', [...new Set(concerned.map((entry) => entry.conversation.id))])
			.execute(),
	])
	// Once per agent and workspace.
	const told = new Map<string, { userId: string; workspaceId: string }>()
	for (const entry of concerned) {
		const { workspaceId } = entry.conversation
		const now = standings.find((row) => row.id === entry.conversation.id)
		const before = 'before' in entry ? entry.before : undefined
		for (const standing of [now, before]) {
			if (!standing) continue
			for (const agent of agents) {
				if (agent.workspaceId !== workspaceId) continue
				if (agent.userId === standing.assigneeId || (agent.teamId !== null && agent.teamId === standing.teamId))
					told.set(`${agent.userId} ${workspaceId}`, { userId: agent.userId, workspaceId })
			}
		}
	}
	await Promise.all([...told.values()].map(({ userId, workspaceId }) => realtime.notifyUser(userId, inboxChangedEvent, { workspaceId })))
}
