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
		team: null,
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
const myTeam = '7e9a0000-0000-4000-8000-000000000001'
const otherTeam = '7e9a0000-0000-4000-8000-000000000002'
const view = (search = ''): InboxView => ({ query: inboxQuery(new URLSearchParams(search)), me, myTeamIds: [myTeam] })
const updated = (
	conversation: Conversation,
	previous: { status: Conversation['status']; assigneeId: string | null; teamId?: string | null } | null,
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
		// A reply's delivery heard before the page's data holds the reply: it reads the thread again; an older message's is not shown.
		const holding: InboxData = { ...open, thread: { messages: once.thread!.messages, olderCursor: null } }
		const delivery = (id: string): WorkspaceEventEntry => ({
			event: 'message.updated',
			data: { seq: 2, conversationId: 'c1', number: 1, messageId: id, message: { ...message, id, direction: 'outgoing', status: 'sent' } },
		})
		expect(mergeInboxEvent(holding, view(), delivery('10')).kind).toBe('reload')
		expect(mergeInboxEvent(holding, view(), delivery('8')).kind).toBe('same')
	})

	test('the sidebar counts open conversations, mine and nobody’s', () => {
		const summary = { mine: 0, unassigned: 1, myTeams: 0, myTeamIds: [] }
		const assigned = mergeSidebarCounts(summary, me, updated(row(1, { assignee: { id: me, name: 'Me' } }), { status: 'open', assigneeId: null }))
		expect(assigned).toEqual({ kind: 'changed', data: { ...summary, mine: 1, unassigned: 0 } })
		expect(
			mergeSidebarCounts({ ...summary, mine: 1, unassigned: 0 }, me, updated(row(1, { status: 'pending' }), { status: 'pending', assigneeId: null })).kind,
		).toBe('same')
	})

	test('the sidebar counts my teams’ open conversations as they enter and leave my teams', () => {
		const summary = { mine: 0, unassigned: 1, myTeams: 0, myTeamIds: [myTeam] }
		const inMine = { id: myTeam, name: 'Billing' }
		const moved = mergeSidebarCounts(summary, me, updated(row(1, { team: inMine }), { status: 'open', assigneeId: null, teamId: null }))
		expect(moved).toEqual({ kind: 'changed', data: { ...summary, myTeams: 1 } })
		const counted = { ...summary, myTeams: 1 }
		// A message in it moves nothing (the event's `previous` is where it stands); resolving it, or moving it to another team, takes it out.
		expect(mergeSidebarCounts(counted, me, updated(row(1, { team: inMine }), { status: 'open', assigneeId: null, teamId: myTeam })).kind).toBe('same')
		expect(mergeSidebarCounts(counted, me, updated(row(1, { team: inMine, status: 'resolved' }), { status: 'open', assigneeId: null }))).toEqual({
			kind: 'changed',
			data: { ...summary, unassigned: 0 },
		})
		expect(
			mergeSidebarCounts(counted, me, updated(row(1, { team: { id: otherTeam, name: 'Sales' } }), { status: 'open', assigneeId: null, teamId: myTeam })),
		).toEqual({ kind: 'changed', data: summary })
	})

	test('a team’s list gains and loses rows as their team changes, its counts follow, and one at its limit that loses a row reloads', () => {
		const inMine = { id: myTeam, name: 'Billing' }
		const teamPage = (conversations: Conversation[], counts = { open: conversations.length, pending: 0, resolved: 0, snoozed: 0 }) => ({
			...page(conversations, counts),
			countsLimit: 100,
		})
		const data: InboxData = { page: teamPage([row(1, { team: inMine })]), conversation: null, thread: null }
		for (const search of ['team=mine', `team=${myTeam}`]) {
			const entered = merged(data, view(search), updated(row(2, { team: inMine }), { status: 'open', assigneeId: null, teamId: null }))
			expect(entered.page.conversations.map((conversation) => conversation.number)).toEqual([2, 1])
			expect(entered.page.counts.open).toBe(2)
			const left = merged(data, view(search), updated(row(1, { team: { id: otherTeam, name: 'Sales' } }), { status: 'open', assigneeId: null, teamId: myTeam }))
			expect(left.page.conversations).toEqual([])
			expect(left.page.counts.open).toBe(0)
			// A conversation of another team, changed, stays out and counts nowhere.
			const elsewhere = merged(
				data,
				view(search),
				updated(row(3, { team: { id: otherTeam, name: 'Sales' }, status: 'pending' }), { status: 'open', assigneeId: null }),
			)
			expect(elsewhere.page).toEqual(data.page)
		}
		// Resolved: it leaves the open tab for the resolved one (the team, not in `previous`, is the row's).
		const resolved = merged(data, view('team=mine'), updated(row(1, { team: inMine, status: 'resolved' }), { status: 'open', assigneeId: null }))
		expect(resolved.page.counts).toEqual({ open: 0, pending: 0, resolved: 1, snoozed: 0 })
		// At the limit ("100+"): one more stays 100+, one fewer is unknown without the server.
		const full: InboxData = { ...data, page: teamPage([row(1, { team: inMine })], { open: 100, pending: 0, resolved: 0, snoozed: 0 }) }
		expect(merged(full, view('team=mine'), updated(row(2, { team: inMine }), { status: 'open', assigneeId: null, teamId: null })).page.counts.open).toBe(100)
		const message = merged(
			full,
			view('team=mine'),
			updated(row(1, { team: inMine, lastActivityAt: '2026-11-26T12:00:00.000Z' }), { status: 'open', assigneeId: null }),
		)
		expect(message.page.counts.open).toBe(100)
		expect(mergeInboxEvent(full, view('team=mine'), updated(row(1, { team: null }), { status: 'open', assigneeId: null, teamId: myTeam })).kind).toBe('reload')
		// With another filter beside the team the page cannot tell what the counts were: they stay.
		const labelled = merged(data, view(`team=mine&labelId=l1`), updated(row(1, { team: inMine, status: 'resolved' }), { status: 'open', assigneeId: null }))
		expect(labelled.page.counts).toEqual(data.page.counts)
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
