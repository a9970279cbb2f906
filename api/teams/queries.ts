import { type Kysely } from 'kysely'
import { jsonArrayFrom } from 'kysely/helpers/postgres'
import { type Database } from '#api/db/schema.ts'

type Executor = Kysely<Database>

export type TeamJson = {
	id: string
	name: string
	description: string | null
	autoAssign: boolean
	/** Minutes a conversation waits unassigned in its queue before its members are notified. */
	notifyAfter: number
	/** Its members by name. */
	members: Array<{ userId: string; name: string }>
	createdAt: string
	updatedAt: string
}

export const teamNameConstraint = 'teams_workspace_name_key'

function teams(db: Executor, workspaceId: string) {
	return db
		.selectFrom('teams')
		.selectAll('teams')
		.select((eb) =>
			jsonArrayFrom(
				eb
					.selectFrom('teamMembers')
					.innerJoin('users', 'users.id', 'teamMembers.userId')
					.select(['teamMembers.userId', 'users.name'])
					.whereRef('teamMembers.teamId', '=', 'teams.id')
					.orderBy('users.name')
					.orderBy('teamMembers.userId'),
			).as('members'),
		)
		.where('teams.workspaceId', '=', workspaceId)
}

type TeamRow = Awaited<ReturnType<ReturnType<typeof teams>['executeTakeFirstOrThrow']>>

function teamJson(row: TeamRow): TeamJson {
	return {
		id: row.id,
		name: row.name,
		description: row.description,
		autoAssign: row.autoAssign,
		notifyAfter: row.notifyAfter,
		members: row.members,
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString(),
	}
}

/** Every team of a workspace by name (case-insensitive, citext), with its members. */
export async function listTeams(db: Executor, workspaceId: string): Promise<TeamJson[]> {
	const rows = await teams(db, workspaceId).orderBy('teams.name').orderBy('teams.id').execute()
	return rows.map(teamJson)
}

export async function findTeam(db: Executor, workspaceId: string, teamId: string): Promise<TeamJson | undefined> {
	const row = await teams(db, workspaceId).where('teams.id', '=', teamId).executeTakeFirst()
	return row && teamJson(row)
}

/** The ids among `userIds` that are not members of the workspace. */
export async function strangers(db: Executor, workspaceId: string, userIds: readonly string[]): Promise<string[]> {
	if (userIds.length === 0) return []
	const rows = await db
		.selectFrom('members')
		.select('userId')
		.where('workspaceId', '=', workspaceId)
		.where('userId', 'in', [...userIds])
		.execute()
	const known = new Set(rows.map((row) => row.userId))
	return userIds.filter((userId) => !known.has(userId))
}
