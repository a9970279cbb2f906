import { sql, type SqlBool } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Activity, type Conversation } from '#api/db/schema.ts'
import { addJob } from '#api/jobs/queue.ts'

/**
 * A team's queue (issue 30): an open, unassigned conversation of an auto-assigning team waits in it
 * from `queued_at` until auto-assignment (api/assignment/drain.ts) or someone gives it an assignee.
 * These are the changes' side: they run in the transaction of the change that calls for them, and
 * ask for a drain, which a job does once however many ask at once.
 */

/** One pending drain per workspace: capacity is an agent's across all the workspace's teams, so its queues drain together. */
export const drainJobKey = (workspaceId: string) => `drain-queues:${workspaceId}`

/** Room may have appeared, or a conversation joined a queue: the workspace's queues are drained once this transaction commits. */
export async function requestDrain(trx: DB, workspaceId: string) {
	await addJob(trx, 'drain-queues', { workspaceId }, { key: drainJobKey(workspaceId) })
}

/** As `requestDrain`, only when something waits: for the changes that free room (a resolve, a hand-over), which most workspaces make without teams. */
export async function requestDrainIfWaiting(trx: DB, workspaceId: string) {
	const waiting = await trx
		.selectFrom('conversations')
		.select('id')
		.where('workspaceId', '=', workspaceId)
		.where('queuedAt', 'is not', null)
		.limit(1)
		.executeTakeFirst()
	if (waiting) await requestDrain(trx, workspaceId)
}

/** Whether the conversation's team auto-assigns. */
async function autoAssigns(trx: DB, conversation: Pick<Conversation, 'teamId'>) {
	if (!conversation.teamId) return false
	const team = await trx.selectFrom('teams').select('autoAssign').where('id', '=', conversation.teamId).executeTakeFirst()
	return team?.autoAssign === true
}

/**
 * Puts an open, unassigned conversation of an auto-assigning team in its queue, keeping the time it
 * joined if it already waits. Anything else is returned as it is.
 */
export async function enqueue(trx: DB, conversation: Conversation): Promise<Conversation> {
	if (conversation.status !== 'open' || conversation.assigneeId !== null || conversation.queuedAt !== null || !(await autoAssigns(trx, conversation)))
		return conversation
	const queued = await trx
		.updateTable('conversations')
		.set({ queuedAt: sql<Date>`now()` })
		.where('id', '=', conversation.id)
		.returningAll()
		.executeTakeFirstOrThrow()
	await requestDrain(trx, conversation.workspaceId)
	return queued
}

/**
 * What a conversation's change does to its stay in the queue, in the change's transaction, before
 * its update: an assignee given by hand ends the stay (recorded for the reports' queue wait); a
 * conversation that is no longer open, or moves to a team that does not auto-assign, leaves the
 * queue; one that moves to another auto-assigning team keeps its place in time there. Returns the
 * values to add to the update.
 */
export async function leaveQueue(
	trx: DB,
	conversation: Conversation,
	next: Pick<Conversation, 'status' | 'assigneeId' | 'teamId'>,
): Promise<{ queuedAt?: null }> {
	if (conversation.queuedAt === null) return {}
	if (next.assigneeId !== null) {
		await recordWaits(trx, [{ ...conversation, queuedAt: conversation.queuedAt }], false)
		return { queuedAt: null }
	}
	if (next.status !== 'open') return { queuedAt: null }
	if (next.teamId === conversation.teamId) return {}
	if (!(await autoAssigns(trx, next))) return { queuedAt: null }
	await requestDrain(trx, conversation.workspaceId)
	return {}
}

/** The stays in a queue that end now, by hand or by auto-assignment (`automatic`): what the reports' queue wait reads. */
export async function recordWaits(trx: DB, stays: Array<Pick<Conversation, 'workspaceId' | 'teamId'> & { id: string; queuedAt: Date }>, automatic: boolean) {
	if (stays.length === 0) return
	await trx
		.insertInto('queueWaits')
		.values(
			stays.map((stay) => ({
				workspaceId: stay.workspaceId,
				conversationId: stay.id,
				teamId: stay.teamId,
				queuedAt: stay.queuedAt,
				assignedAt: sql<Date>`now()`,
				automatic,
			})),
		)
		.execute()
}

/** The condition on `members` of an available member: online by their own choice, with a connection open. */
export const availableMember = sql<SqlBool>`(members.availability = 'online' and members.connected_at is not null)`

/** Whether the member is available. */
export async function isAvailable(trx: DB, workspaceId: string, userId: string) {
	const member = await trx
		.selectFrom('members')
		.select('userId')
		.where('workspaceId', '=', workspaceId)
		.where('userId', '=', userId)
		.where(availableMember)
		.executeTakeFirst()
	return member !== undefined
}

/**
 * A conversation the customer (or a snooze's end) reopened, already open: with the workspace's rule
 * "reassign", an assignee who is not available (or has left the workspace) gives it up and it goes
 * back through assignment; unassigned, it joins its team's queue. Returns it as it is now and the
 * activity line saying why it lost its assignee, if it did.
 */
export async function routeReopened(trx: DB, conversation: Conversation): Promise<{ conversation: Conversation; activity?: Activity }> {
	if (conversation.assigneeId === null) return { conversation: await enqueue(trx, conversation) }
	const workspace = await trx.selectFrom('workspaces').select('reopenAssignment').where('id', '=', conversation.workspaceId).executeTakeFirstOrThrow()
	if (workspace.reopenAssignment === 'keep' || (await isAvailable(trx, conversation.workspaceId, conversation.assigneeId))) return { conversation }
	const assignee = await trx.selectFrom('users').select('name').where('id', '=', conversation.assigneeId).executeTakeFirst()
	const unassigned = await trx.updateTable('conversations').set({ assigneeId: null }).where('id', '=', conversation.id).returningAll().executeTakeFirstOrThrow()
	return { conversation: await enqueue(trx, unassigned), activity: { key: 'activity.unassignedAway', values: { assignee: assignee?.name ?? '' } } }
}
