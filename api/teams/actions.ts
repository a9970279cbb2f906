import { sql, type Kysely } from 'kysely'
import { requestDrain, requestDrainIfWaiting } from '#api/assignment/queue.ts'
import { type Database } from '#api/db/schema.ts'
import { type CreateTeamBody, type UpdateTeamBody } from './schemas.ts'

type Executor = Kysely<Database>

/** A new team with its members (checked to be members of the workspace first). A name another team has is refused by the database (`teamNameConstraint`). */
export async function createTeam(db: Executor, workspaceId: string, { userIds, ...values }: CreateTeamBody): Promise<string> {
	return db.transaction().execute(async (trx) => {
		const team = await trx
			.insertInto('teams')
			.values({ workspaceId, ...values })
			.returning('id')
			.executeTakeFirstOrThrow()
		await writeMembers(trx, workspaceId, team.id, userIds)
		return team.id
	})
}

/**
 * Whether the team was there to change. A name taken is thrown as createTeam's. A team that starts
 * auto-assigning puts its open, unassigned conversations in its queue, from now; one that stops
 * empties its queue (they stay unassigned in the team).
 */
export async function updateTeam(db: Executor, workspaceId: string, teamId: string, changes: UpdateTeamBody): Promise<boolean> {
	return db.transaction().execute(async (trx) => {
		const before = await trx
			.selectFrom('teams')
			.select('autoAssign')
			.where('workspaceId', '=', workspaceId)
			.where('id', '=', teamId)
			.forUpdate()
			.executeTakeFirst()
		if (!before) return false
		await trx
			.updateTable('teams')
			.set({ ...changes, updatedAt: new Date() })
			.where('id', '=', teamId)
			.execute()
		if (changes.autoAssign === undefined || changes.autoAssign === before.autoAssign) return true
		const conversations = trx.updateTable('conversations').where('workspaceId', '=', workspaceId).where('teamId', '=', teamId)
		if (changes.autoAssign) {
			await conversations
				.set({ queuedAt: sql<Date>`now()` })
				.where('status', '=', 'open')
				.where('assigneeId', 'is', null)
				.where('queuedAt', 'is', null)
				.execute()
			await requestDrain(trx, workspaceId)
		} else await conversations.set({ queuedAt: null }).where('queuedAt', 'is not', null).execute()
		return true
	})
}

/** The team's members become exactly `userIds` (members of the workspace). */
export async function replaceMembers(db: Executor, workspaceId: string, teamId: string, userIds: readonly string[]) {
	await db.transaction().execute((trx) => writeMembers(trx, workspaceId, teamId, userIds))
}

/** In a transaction: a new member may take what waits. */
async function writeMembers(trx: Executor, workspaceId: string, teamId: string, userIds: readonly string[]) {
	await trx.deleteFrom('teamMembers').where('workspaceId', '=', workspaceId).where('teamId', '=', teamId).execute()
	if (userIds.length > 0)
		await trx
			.insertInto('teamMembers')
			.values([...new Set(userIds)].map((userId) => ({ workspaceId, teamId, userId })))
			.execute()
	await requestDrainIfWaiting(trx, workspaceId)
}

/**
 * Whether the workspace had the team. Its channels and conversations are left without a team first,
 * in the same transaction (their keys to it take no action: migration 0030).
 */
export async function deleteTeam(db: Executor, workspaceId: string, teamId: string): Promise<boolean> {
	return db.transaction().execute(async (trx) => {
		await trx.updateTable('channels').set({ teamId: null }).where('workspaceId', '=', workspaceId).where('teamId', '=', teamId).execute()
		await trx.updateTable('conversations').set({ teamId: null, queuedAt: null }).where('workspaceId', '=', workspaceId).where('teamId', '=', teamId).execute()
		const deleted = await trx.deleteFrom('teams').where('workspaceId', '=', workspaceId).where('id', '=', teamId).executeTakeFirst()
		return deleted.numDeletedRows > 0n
	})
}
