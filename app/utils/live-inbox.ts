import { type ConversationEventData, type InboxSummaryJson, type MessageEventData } from '#app/.server/api.ts'
import { type WorkspaceEventEntry } from '#app/realtime/event-sequence.ts'
import { type Merged } from '#app/realtime/use-workspace-events.ts'
import { priorities, type Conversation, type ConversationPage, type InboxQuery, type MessagePage } from './conversations.ts'

/**
 * The inbox's data as its loader gave it, kept up to date by the workspace channel's events
 * (issue 28): a conversation's row moves, enters or leaves the list, its tab counts follow, the open
 * thread gains its messages, without the loaders running again. What an event cannot settle here
 * (a row that may or may not match a search, an event without its data) reloads the page.
 */
export type InboxData = { page: ConversationPage; conversation: Conversation | null; thread: MessagePage | null }
/** `myTeamIds`: the reader's teams, for the list of `?team=mine`. */
export type InboxView = { query: InboxQuery; me: string; myTeamIds: readonly string[] }

const same = { kind: 'same' } as const
const reload = { kind: 'reload' } as const

/** Where a row stood; an event's `previous` without `teamId` (an older server) had the row's team. */
type Standing = { status: Conversation['status']; assigneeId: string | null; teamId?: string | null }

function teamMatches(query: InboxQuery, myTeamIds: readonly string[], teamId: string | null): boolean {
	if (!query.team) return true
	if (query.team === 'mine') return teamId !== null && myTeamIds.includes(teamId)
	return teamId === query.team
}

function assigneeMatches(query: InboxQuery, me: string, assigneeId: string | null): boolean {
	if (query.assignee === 'all') return true
	if (query.assignee === 'me') return assigneeId === me
	if (query.assignee === 'unassigned') return assigneeId === null
	return assigneeId === query.assignee
}

/** Whether a row belongs to the list as its filters say (the search aside, which only the server can answer). */
function matches({ query, me, myTeamIds }: InboxView, row: Conversation): boolean {
	return (
		(query.status === 'all' || row.status === query.status) &&
		assigneeMatches(query, me, row.assignee?.id ?? null) &&
		teamMatches(query, myTeamIds, row.team?.id ?? null) &&
		(!query.channelId || row.channel.id === query.channelId) &&
		(!query.labelId || row.labels.some((label) => label.id === query.labelId)) &&
		(!query.priority || row.priority === query.priority)
	)
}

// The list's orders, as the API sorts (api/conversations/queries.ts, sortKeys): newest first.
const byActivity = (a: Conversation, b: Conversation) => b.lastActivityAt.localeCompare(a.lastActivityAt) || b.id.localeCompare(a.id)
const orders: Record<InboxQuery['sort'], (a: Conversation, b: Conversation) => number> = {
	activity: byActivity,
	created: (a, b) => b.number - a.number,
	priority: (a, b) => priorities.indexOf(b.priority) - priorities.indexOf(a.priority) || byActivity(a, b),
}

/**
 * The tabs' counts after a row left one status and entered another, when the page can tell whether
 * it counted before and after: no filter but the assignee and the team, no search. A team's counts
 * stop at `countsLimit` (the API counts them, decision 010): one at the limit stays there when a row
 * enters, and reloads the page (null) when one leaves, as what it would become is unknown.
 */
function recount(page: ConversationPage, view: InboxView, previous: Standing | null | undefined, row: Conversation): ConversationPage['counts'] | null {
	const { query, me, myTeamIds } = view
	const byTeamAlone = Boolean(query.team) && !query.search && !query.channelId && !query.labelId && !query.priority
	if ((page.countsLimit !== null && !byTeamAlone) || previous === undefined) return page.counts
	const counted = (standing: Standing) => assigneeMatches(query, me, standing.assigneeId) && teamMatches(query, myTeamIds, standing.teamId ?? null)
	const moves: ConversationPage['counts'] = { open: 0, pending: 0, resolved: 0, snoozed: 0 }
	if (previous && counted({ ...previous, teamId: previous.teamId === undefined ? (row.team?.id ?? null) : previous.teamId })) moves[previous.status] -= 1
	if (counted({ status: row.status, assigneeId: row.assignee?.id ?? null, teamId: row.team?.id ?? null })) moves[row.status] += 1
	const counts = { ...page.counts }
	const limit = page.countsLimit ?? Infinity
	for (const status of Object.keys(counts) as Array<keyof typeof counts>) {
		if (moves[status] < 0 && counts[status] >= limit) return null
		counts[status] = Math.min(limit, Math.max(0, counts[status] + moves[status]))
	}
	return counts
}

function mergeConversation(data: InboxData, view: InboxView, event: ConversationEventData): Merged<InboxData> {
	if (!event.conversation) return reload
	const { page } = data
	const { query } = view
	const index = page.conversations.findIndex((row) => row.id === event.conversationId)
	const known = page.conversations[index]
	// Each reader has their own unread count: a row new to this list starts at none, and its incoming messages add to it.
	const row: Conversation = { ...event.conversation, unreadCount: known?.unreadCount ?? 0 }
	let rows = page.conversations
	if (!matches(view, row)) rows = rows.filter((other) => other.id !== row.id)
	else if (known) rows = rows.map((other) => (other.id === row.id ? row : other))
	// A later page, or a search only the server can answer, gains no row here.
	else if (!query.after && !query.search) rows = [...rows, row]
	rows = [...rows].sort(orders[query.sort])
	// A full page stays a page: the row pushed past its end is on the next one.
	if (rows.length > page.conversations.length && page.nextCursor) rows = rows.slice(0, page.conversations.length)
	const conversation = data.conversation?.id === row.id ? { ...row, unreadCount: 0 } : data.conversation
	const counts = recount(page, view, event.previous, row)
	if (!counts) return reload
	return { kind: 'changed', data: { ...data, conversation, page: { ...page, conversations: rows, counts } } }
}

function mergeMessage(data: InboxData, event: MessageEventData, created: boolean): Merged<InboxData> {
	const { message } = event
	if (!message) return reload
	const open = data.conversation?.id === event.conversationId && data.thread
	if (open) {
		const messages = data.thread!.messages
		const at = messages.findIndex((other) => other.id === message.id)
		if (at >= 0)
			return { kind: 'changed', data: { ...data, thread: { ...data.thread!, messages: messages.map((other, index) => (index === at ? message : other)) } } }
		// An update of a message newer than the thread holds (a reply just sent, its delivery heard before the
		// page's own data has the reply): the page's data is behind, and reads it again; an older one is not shown.
		if (!created) return messages.length > 0 && BigInt(message.id) > BigInt(messages.at(-1)!.id) ? reload : same
		return { kind: 'changed', data: { ...data, thread: { ...data.thread!, messages: [...messages, message] } } }
	}
	// The customer wrote in a conversation this reader has not open: one more unread.
	if (!created || message.direction !== 'incoming' || message.kind !== 'text') return same
	const rows = data.page.conversations
	if (!rows.some((row) => row.id === event.conversationId)) return same
	const conversations = rows.map((row) => (row.id === event.conversationId ? { ...row, unreadCount: row.unreadCount + 1 } : row))
	return { kind: 'changed', data: { ...data, page: { ...data.page, conversations } } }
}

/** The inbox's data after one event of the workspace channel. */
export function mergeInboxEvent(data: InboxData, view: InboxView, { event, data: payload }: WorkspaceEventEntry): Merged<InboxData> {
	switch (event) {
		case 'conversation.created':
		case 'conversation.updated':
			return mergeConversation(data, view, payload as ConversationEventData)
		case 'message.created':
		case 'message.updated':
			return mergeMessage(data, payload as MessageEventData, event === 'message.created')
		default:
			return same
	}
}

/** The sidebar's open conversations, mine (`me`), nobody's and my teams', after a conversation moved. */
export function mergeSidebarCounts(summary: InboxSummaryJson | null, me: string, { event, data }: WorkspaceEventEntry): Merged<InboxSummaryJson | null> {
	if (!summary || (event !== 'conversation.created' && event !== 'conversation.updated')) return same
	const { previous, conversation } = data as ConversationEventData
	if (!conversation) return reload
	if (previous === undefined) return same
	const next = { ...summary }
	const teamId = conversation.team?.id ?? null
	const count = (standing: Standing, delta: number) => {
		if (standing.status !== 'open') return
		if (standing.assigneeId === me) next.mine = Math.max(0, next.mine + delta)
		if (standing.assigneeId === null) next.unassigned = Math.max(0, next.unassigned + delta)
		const team = standing.teamId === undefined ? teamId : standing.teamId
		if (team !== null && summary.myTeamIds.includes(team)) next.myTeams = Math.max(0, next.myTeams + delta)
	}
	if (previous) count(previous, -1)
	count({ status: conversation.status, assigneeId: conversation.assignee?.id ?? null, teamId }, 1)
	return next.mine === summary.mine && next.unassigned === summary.unassigned && next.myTeams === summary.myTeams ? same : { kind: 'changed', data: next }
}

/**
 * The dashboard's figures count conversations by where they stand (open now, opened, resolved): a
 * conversation created, or one whose status or assignee moved, reloads it; a message that moves
 * neither does not (the period's message counts catch up with the next reload).
 */
export function reloadWhenStandingMoves<T>(_data: T, _view: unknown, { event, data }: WorkspaceEventEntry): Merged<T> {
	if (event === 'conversation.created') return reload
	if (event !== 'conversation.updated') return same
	const { previous, conversation } = data as ConversationEventData
	if (!conversation || !previous) return reload
	return previous.status === conversation.status && previous.assigneeId === (conversation.assignee?.id ?? null) ? same : reload
}
