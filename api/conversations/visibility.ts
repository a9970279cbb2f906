import { type Request } from 'express'
import { sql, type Expression, type SqlBool } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Conversation } from '#api/db/schema.ts'
import { type Membership } from '#api/workspaces/membership.ts'
import { seesOwnTeamsOnly } from '#common/roles.ts'

/**
 * Who reads a workspace's conversations: their id, and whether the workspace's rule "agents see
 * only their teams' conversations" narrows them (an agent, while the rule is on) to the
 * conversations of their teams and those assigned to them.
 */
export type Reader = { id: string; ownTeamsOnly: boolean }

export function readerOf(req: Request, membership: Membership): Reader {
	return { id: req.user.id, ownTeamsOnly: seesOwnTeamsOnly(membership.role, membership.workspace.agentsSeeOwnTeams) }
}

/** Anyone the rule does not narrow: a manager, an agent of a workspace without it, the jobs. */
export const everyone = (id: string): Reader => ({ id, ownTeamsOnly: false })

/** The teams `userId` is a member of in the workspace, as an array (read once, then each conversation's team is looked up in it). */
export const teamsOf = (workspaceId: string, userId: string) =>
	sql`array(select team_members.team_id from team_members where team_members.workspace_id = ${workspaceId} and team_members.user_id = ${userId})`

/**
 * The one condition, on `conversations`, that every read and change of a workspace's conversations
 * meets for `reader`: their teams' and their own when the rule narrows them, every one otherwise.
 * Of one shape either way (the rule is a parameter), so that prepared statements keep one plan.
 */
export const visibleTo = (workspaceId: string, reader: Reader): Expression<SqlBool> =>
	sql<SqlBool>`(not ${reader.ownTeamsOnly}::boolean or conversations.assignee_id = ${reader.id} or conversations.team_id = any(${teamsOf(workspaceId, reader.id)}))`

/** `visibleTo` where only a narrowed reader needs it: the lists, whose plans it would otherwise change for everyone. */
export const narrowingFor = (workspaceId: string, reader: Reader): Array<Expression<SqlBool>> => (reader.ownTeamsOnly ? [visibleTo(workspaceId, reader)] : [])

/** Whether `reader` sees the workspace's conversation `conversationId` (one lookup; always, for a reader the rule does not narrow). */
export async function seesConversation(db: DB, workspaceId: string, conversationId: string, reader: Reader): Promise<boolean> {
	if (!reader.ownTeamsOnly) return true
	const found = await db.selectFrom('conversations').select('id').where('id', '=', conversationId).where(visibleTo(workspaceId, reader)).executeTakeFirst()
	return found !== undefined
}

/**
 * Of `userIds`, members of the conversation's workspace, those who see it: a notification (a mention)
 * names a conversation to nobody the workspace's rule keeps it from. Mentions are few: one lookup each.
 */
export async function membersWhoSee(db: DB, conversation: Pick<Conversation, 'id' | 'workspaceId'>, userIds: string[]): Promise<string[]> {
	if (userIds.length === 0) return []
	const members = await db
		.selectFrom('members')
		.innerJoin('workspaces', 'workspaces.id', 'members.workspaceId')
		.select(['members.userId', 'members.role', 'workspaces.agentsSeeOwnTeams'])
		.where('members.workspaceId', '=', conversation.workspaceId)
		.where('members.userId', 'in', userIds)
		.execute()
	const seeing = await Promise.all(
		members.map((member) =>
			seesConversation(db, conversation.workspaceId, conversation.id, {
				id: member.userId,
				ownTeamsOnly: seesOwnTeamsOnly(member.role, member.agentsSeeOwnTeams),
			}),
		),
	)
	return members.filter((_, index) => seeing[index]).map((member) => member.userId)
}
