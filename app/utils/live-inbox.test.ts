import { describe, expect, test } from 'vitest'
import { type WorkspaceEventEntry } from '#app/realtime/event-sequence.ts'
import { inboxQuery, type Conversation, type ConversationPage } from './conversations.ts'
import { mergeInboxEvent, mergeSidebarCounts, reloadWhenStandingMoves, type InboxData, type InboxView } from './live-inbox.ts'

const me = 'me-0000'
function row(number: number, changes: Partial<Conversation> = {}): Conversation {
	return {
		id: `c${number}`,
		number,
		status: 'open',
		snoozedUntil: null,
		priority: 'none',
		contact: { id: `k${number}`, name: `Contact ${number}`, email: null, unverifiedEmail: null, phone: null, avatarColor: '#000' },
		channel: { id: 'ch', kind: 'link', name: 'Site' },
		assignee: null,
		labels: [],
		unreadCount: 0,
		lastMessage: null,
		lastActivityAt: `2026-11-26T10:00:${String(number).padStart(2, '0')}.000Z`,
		firstResponseAt: null,
		createdAt: '2026-11-26T09:00:00.000Z',
		...changes,
	}
}
const page = (conversations: Conversation[], counts = { open: conversations.length, pending: 0, resolved: 0, snoozed: 0 }): ConversationPage => ({
	conversations,
	nextCursor: null,
	counts,
	countsLimit: null,
})
const view = (search = ''): InboxView => ({ query: inboxQuery(new URLSearchParams(search)), me })
const updated = (
	conversation: Conversation,
	previous: { status: Conversation['status']; assigneeId: string | null } | null,
	event = 'conversation.updated',
): WorkspaceEventEntry => {
	const { unreadCount: _unread, ...shared } = conversation
	return { event, data: { seq: 1, conversationId: conversation.id, number: conversation.number, conversation: shared, previous } }
}
const merged = (data: InboxData, inView: InboxView, entry: WorkspaceEventEntry) => {
	const result = mergeInboxEvent(data, inView, entry)
	if (result.kind !== 'changed') throw new Error(`expected a change, got ${result.kind}`)
	return result.data
}

describe('the inbox merges the workspace channel', () => {
	test('a conversation with new activity moves to the top, keeping this reader’s unread count', () => {
		const data: InboxData = { page: page([row(2), row(1, { unreadCount: 3 })]), conversation: null, thread: null }
		const after = merged(data, view(), updated(row(1, { lastActivityAt: '2026-11-26T11:00:00.000Z' }), { status: 'open', assigneeId: null }))
		expect(after.page.conversations.map((conversation) => [conversation.number, conversation.unreadCount])).toEqual([
			[1, 3],
			[2, 0],
		])
	})

	test('a new conversation enters the open tab and its count; a resolved one leaves it for the resolved count', () => {
		const data: InboxData = { page: page([row(1)]), conversation: null, thread: null }
		const entered = merged(data, view(), updated(row(2), null, 'conversation.created'))
		expect(entered.page.conversations.map((conversation) => conversation.number)).toEqual([2, 1])
		expect(entered.page.counts.open).toBe(2)
		const left = merged(entered, view(), updated(row(1, { status: 'resolved' }), { status: 'open', assigneeId: null }))
		expect(left.page.conversations.map((conversation) => conversation.number)).toEqual([2])
		expect(left.page.counts).toMatchObject({ open: 1, resolved: 1 })
	})

	test('the Mine tab counts what is assigned to the reader; a search gains no row it cannot check', () => {
		const mine = merged(
			{ page: page([]), conversation: null, thread: null },
			view('assignee=me'),
			updated(row(3, { assignee: { id: me, name: 'Me' } }), { status: 'open', assigneeId: null }),
		)
		expect(mine.page.conversations).toHaveLength(1)
		expect(mine.page.counts.open).toBe(1)
		const searched = mergeInboxEvent(
			{ page: { ...page([]), countsLimit: 100 }, conversation: null, thread: null },
			view('search=refund'),
			updated(row(4), null, 'conversation.created'),
		)
		expect(searched.kind === 'changed' && searched.data.page.conversations).toEqual([])
	})

	test('a message joins the open thread once; elsewhere a customer’s adds to the row’s unread count; without its data the page reloads', () => {
		const message = {
			id: '9',
			conversationId: 'c1',
			direction: 'incoming',
			kind: 'text',
			body: 'Hi',
			activity: null,
			sender: null,
			status: null,
			error: null,
			attachments: [],
			createdAt: '2026-11-26T10:00:00.000Z',
		} as const
		const entry: WorkspaceEventEntry = { event: 'message.created', data: { seq: 1, conversationId: 'c1', number: 1, messageId: '9', message } }
		const open: InboxData = { page: page([row(1)]), conversation: row(1), thread: { messages: [], olderCursor: null } }
		const once = merged(merged(open, view(), entry), view(), entry)
		expect(once.thread?.messages.map((item) => item.id)).toEqual(['9'])
		const closed = merged({ ...open, conversation: null, thread: null }, view(), entry)
		expect(closed.page.conversations[0]?.unreadCount).toBe(1)
		expect(mergeInboxEvent(open, view(), { event: 'message.created', data: { seq: 1, conversationId: 'c1', number: 1, messageId: '9', cut: true } }).kind).toBe(
			'reload',
		)
	})

	test('the sidebar counts open conversations, mine and nobody’s', () => {
		const assigned = mergeSidebarCounts(
			{ mine: 0, unassigned: 1 },
			me,
			updated(row(1, { assignee: { id: me, name: 'Me' } }), { status: 'open', assigneeId: null }),
		)
		expect(assigned).toEqual({ kind: 'changed', data: { mine: 1, unassigned: 0 } })
		expect(mergeSidebarCounts({ mine: 1, unassigned: 0 }, me, updated(row(1, { status: 'pending' }), { status: 'pending', assigneeId: null })).kind).toBe(
			'same',
		)
	})

	test('the dashboard reloads when a conversation is created or moves, not for a message that moves none', () => {
		const moved = (entry: WorkspaceEventEntry) => reloadWhenStandingMoves(null, null, entry).kind
		expect(moved(updated(row(1), null, 'conversation.created'))).toBe('reload')
		expect(moved(updated(row(1, { status: 'resolved' }), { status: 'open', assigneeId: null }))).toBe('reload')
		expect(moved(updated(row(1, { assignee: { id: me, name: 'Me' } }), { status: 'open', assigneeId: null }))).toBe('reload')
		expect(moved(updated(row(1, { lastMessage: null }), { status: 'open', assigneeId: null }))).toBe('same')
		expect(moved({ event: 'message.created', data: { seq: 1, conversationId: 'c1', number: 1, messageId: '9' } })).toBe('same')
		expect(moved({ event: 'conversation.updated', data: { seq: 1, conversationId: 'c1', number: 1, cut: true } })).toBe('reload')
	})
})
