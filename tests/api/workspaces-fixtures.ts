import { type Role } from '#api/db/schema.ts'
import { createUser, createWorkspace, testDb } from './harness.ts'

export type TestUser = Awaited<ReturnType<typeof createUser>>

/** A workspace with one member of each role, a second agent to act on, and an outsider with a workspace of their own. */
export async function createTeam(name = 'Team workspace') {
	const [workspace, elsewhere] = await Promise.all([createWorkspace(name), createWorkspace('Elsewhere')])
	const member = (role: Role, label: string) => createUser({ workspaceId: workspace.id, role, name: `${label} of ${name}` })
	const [owner, admin, agent, otherAgent, outsider] = await Promise.all([
		member('owner', 'Owner'),
		member('admin', 'Admin'),
		member('agent', 'Agent'),
		member('agent', 'Second agent'),
		createUser({ workspaceId: elsewhere.id, role: 'owner', name: 'Outsider' }),
	])
	return { workspace, elsewhere, owner, admin, agent, otherAgent, outsider }
}

export type Team = Awaited<ReturnType<typeof createTeam>>

/** The roles of a workspace's members, by user id. */
export async function rolesIn(workspaceId: string): Promise<Record<string, Role>> {
	const rows = await testDb().selectFrom('members').select(['userId', 'role']).where('workspaceId', '=', workspaceId).execute()
	return Object.fromEntries(rows.map((row) => [row.userId, row.role]))
}

export async function currentWorkspaceOf(userId: string): Promise<string | null> {
	const user = await testDb().selectFrom('users').select('currentWorkspaceId').where('id', '=', userId).executeTakeFirstOrThrow()
	return user.currentWorkspaceId
}
