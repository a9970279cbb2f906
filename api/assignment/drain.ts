import { sql } from 'kysely'
import { conversationEvent, messageEvent, publishEvents, type InboxEvent } from '#api/conversations/events.ts'
import { type DB } from '#api/db/database.ts'
import { type Conversation } from '#api/db/schema.ts'
import { notify } from '#api/notifications/notify.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { drainQueue, type Candidate } from './policy.ts'
import { availableMember, drainJobKey, recordWaits } from './queue.ts'

/** Conversations taken from the queues per transaction; a longer queue drains in several, oldest first. */
const drainBatch = 500

/**
 * Serves a workspace's queues (the `drain-queues` job): while someone has room, each waiting
 * conversation, oldest first, goes to the available member of its team with the fewest open
 * conversations (api/assignment/policy.ts). Exactly once across processes: a transaction holds the
 * workspace's drain lock, so two drains never count the same loads; an assignment applies only to a
 * conversation still waiting, locked. Each is a line in the thread, a row of `queue_waits`, an
 * event for the inbox and a notification for the assignee. Returns how many it assigned.
 */
export async function drainQueues(db: DB, realtime: Realtime, workspaceId: string): Promise<number> {
	let assigned = 0
	for (;;) {
		const drained = await db.transaction().execute((trx) => drainOnce(trx, workspaceId))
		void publishEvents(db, realtime, drained.events)
		assigned += drained.assigned
		if (!drained.more) return assigned
	}
}

async function drainOnce(trx: DB, workspaceId: string): Promise<{ assigned: number; events: InboxEvent[]; more: boolean }> {
	await sql`select pg_advisory_xact_lock(hashtextextended(${drainJobKey(workspaceId)}, 0))`.execute(trx)
	const waiting = await trx
		.selectFrom('conversations')
		.innerJoin('teams', 'teams.id', 'conversations.teamId')
		.select('conversations.id')
		.where('conversations.workspaceId', '=', workspaceId)
		.where('conversations.queuedAt', 'is not', null)
		.where('teams.autoAssign', '=', true)
		.orderBy('conversations.queuedAt')
		.orderBy('conversations.id')
		.limit(drainBatch)
		.execute()
	if (waiting.length === 0) return { assigned: 0, events: [], more: false }
	// Locked in id order, as every change of several conversations locks them, so that none deadlocks with a drain.
	const queue = (
		await trx
			.selectFrom('conversations')
			.selectAll()
			.where(
				'id',
				'in',
				waiting.map((row) => row.id),
			)
			.orderBy('id')
			.forUpdate()
			.execute()
	).filter((conversation) => conversation.queuedAt !== null && conversation.status === 'open' && conversation.assigneeId === null)
	const candidates = await availableMembers(trx, workspaceId)
	const now = Date.now()
	const assignments = drainQueue(
		queue.map((conversation) => ({ conversationId: conversation.id, teamId: conversation.teamId!, queuedAt: conversation.queuedAt!.getTime() })),
		candidates,
		now,
	)
	if (assignments.length === 0) return { assigned: 0, events: [], more: false }

	const byId = new Map(queue.map((conversation) => [conversation.id, conversation]))
	const names = new Map(
		(
			await trx
				.selectFrom('users')
				.select(['id', 'name'])
				.where(
					'id',
					'in',
					assignments.map((assignment) => assignment.userId),
				)
				.execute()
		).map((user) => [user.id, user.name]),
	)
	// The conversations are locked and still waiting: each of these assignments applies. Their own rows change last,
	// so that the inbox's counts (a row per workspace, assignee and status, which a new conversation changes too) are
	// held for as short a time as possible.
	await recordWaits(
		trx,
		assignments.map(({ conversationId }) => {
			const { teamId, queuedAt } = byId.get(conversationId)!
			return { workspaceId, id: conversationId, teamId, queuedAt: queuedAt! }
		}),
		true,
	)
	const lines = await trx
		.insertInto('messages')
		.values(
			assignments.map(({ conversationId, userId }) => ({
				workspaceId,
				conversationId,
				channelId: byId.get(conversationId)!.channelId,
				direction: 'outgoing' as const,
				kind: 'activity' as const,
				activity: { key: 'activity.autoAssigned', values: { assignee: names.get(userId) ?? '' } },
			})),
		)
		.returningAll()
		.execute()
	// Who was given one last: the tie-break of the next assignment. The drain's order is kept in milliseconds.
	const lastGiven = new Map(assignments.map(({ userId }, index) => [userId, new Date(now + index)]))
	for (const [userId, at] of lastGiven)
		await trx.updateTable('members').set({ lastAssignedAt: at }).where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute()
	// One statement per agent given some.
	const byAgent = new Map<string, string[]>()
	for (const { conversationId, userId } of assignments) byAgent.set(userId, [...(byAgent.get(userId) ?? []), conversationId])
	const updated: Conversation[] = []
	for (const [userId, conversationIds] of byAgent)
		updated.push(
			...(await trx
				.updateTable('conversations')
				.set({ assigneeId: userId, queuedAt: null, updatedAt: sql<Date>`now()` })
				.where('id', 'in', conversationIds)
				.returningAll()
				.execute()),
		)

	const events: InboxEvent[] = []
	const lineOf = new Map(lines.map((line) => [line.conversationId, line]))
	for (const conversation of updated) {
		events.push(conversationEvent('conversation.updated', conversation, { status: 'open', assigneeId: null }))
		events.push(messageEvent('message.created', conversation, lineOf.get(conversation.id)!))
	}
	events.push(
		...(await notify(
			trx,
			updated.map((conversation) => ({
				workspaceId: conversation.workspaceId,
				userId: conversation.assigneeId!,
				kind: 'assigned',
				conversationId: conversation.id,
			})),
		)),
	)
	return { assigned: updated.length, events, more: waiting.length === drainBatch }
}

/**
 * The members who can be given a conversation now: online by their own choice, with a connection
 * open, in an auto-assigning team; with their open conversations (pending and snoozed do not
 * count), their capacity (their own, else the workspace's) and their teams.
 */
async function availableMembers(trx: DB, workspaceId: string): Promise<Candidate[]> {
	const rows = await trx
		.selectFrom('members')
		.innerJoin('workspaces', 'workspaces.id', 'members.workspaceId')
		.innerJoin('teamMembers', (join) => join.onRef('teamMembers.workspaceId', '=', 'members.workspaceId').onRef('teamMembers.userId', '=', 'members.userId'))
		.innerJoin('teams', 'teams.id', 'teamMembers.teamId')
		.select((eb) => [
			'members.userId',
			'members.lastAssignedAt',
			eb.fn.coalesce('members.capacity', 'workspaces.defaultCapacity').as('capacity'),
			sql<string[]>`array_agg(teams.id)`.as('teamIds'),
			eb
				.selectFrom('conversations')
				.select((count) => count.fn.countAll<string>().as('open'))
				.where('conversations.workspaceId', '=', workspaceId)
				.whereRef('conversations.assigneeId', '=', 'members.userId')
				.where('conversations.status', '=', 'open')
				.as('open'),
		])
		.where('members.workspaceId', '=', workspaceId)
		.where(availableMember)
		.where('teams.autoAssign', '=', true)
		.groupBy(['members.userId', 'members.lastAssignedAt', 'members.capacity', 'workspaces.defaultCapacity'])
		.execute()
	return rows.map((row) => ({
		userId: row.userId,
		open: Number(row.open ?? 0),
		capacity: row.capacity,
		lastAssignedAt: row.lastAssignedAt?.getTime() ?? null,
		teamIds: row.teamIds,
	}))
}
