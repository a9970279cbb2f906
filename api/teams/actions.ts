import { type Kysely } from 'kysely'
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
		await replaceMembers(trx, workspaceId, team.id, userIds)
		return team.id
	})
}

/** Whether the team was there to change. A name taken is thrown as createTeam's. */
export async function updateTeam(db: Executor, workspaceId: string, teamId: string, changes: UpdateTeamBody): Promise<boolean> {
	const updated = await db
		.updateTable('teams')
		.set({ ...changes, updatedAt: new Date() })
		.where('workspaceId', '=', workspaceId)
		.where('id', '=', teamId)
		.executeTakeFirst()
	return updated.numUpdatedRows > 0n
}

/** The team's members become exactly `userIds` (members of the workspace). */
export async function replaceMembers(db: Executor, workspaceId: string, teamId: string, userIds: readonly string[]) {
	await db.deleteFrom('teamMembers').where('workspaceId', '=', workspaceId).where('teamId', '=', teamId).execute()
	if (userIds.length > 0)
		await db
			.insertInto('teamMembers')
			.values([...new Set(userIds)].map((userId) => ({ workspaceId, teamId, userId })))
			.execute()
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
