import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type AuditValues } from '#api/db/schema.ts'
import { type AuditKind } from '#common/audit.ts'

// The kinds live in common/audit.ts, which the page's filter reads too.
export { auditKinds, type AuditKind } from '#common/audit.ts'

/** Who did it: the signed-in user, whose name is kept with the line. */
export type AuditActor = { id: string; name: string }

/** Adds a line to a workspace's log; given a transaction, inside it, so that it stands or falls with the change. */
/** `actor.id` null: no member did it (an automation rule, named by `actor.name`). */
export async function recordAudit(db: DB, workspaceId: string, actor: { id: string | null; name: string }, kind: AuditKind, values: AuditValues = {}) {
	await db
		.insertInto('auditEvents')
		.values({
			workspaceId,
			actorId: actor.id,
			actorName: actor.name,
			kind,
			values,
		})
		.execute()
}

/**
 * A session entering a workspace: a sign-in, in the workspace it opens in (the user's current
 * one), and a switch to another. Only while the user is a member there: a stale current workspace says nothing.
 */
export async function recordSignIn(db: DB, user: AuditActor, workspaceId: string, values: AuditValues = {}) {
	await db
		.insertInto('auditEvents')
		.columns(['workspaceId', 'actorId', 'actorName', 'kind', 'values'])
		.expression((eb) =>
			eb
				.selectFrom('members')
				.select([
					'members.workspaceId',
					eb.val(user.id).as('actorId'),
					eb.val(user.name).as('actorName'),
					eb.val<AuditKind>('session.signedIn').as('kind'),
					sql<AuditValues>`${JSON.stringify(values)}::jsonb`.as('values'),
				])
				.where('members.workspaceId', '=', workspaceId)
				.where('members.userId', '=', user.id),
		)
		.execute()
}

/**
 * A change to the user's own account that each of their workspaces should know of (two-step
 * sign-in turned on or off): a line in every workspace they are a member of.
 */
export async function recordInEveryWorkspace(db: DB, user: AuditActor, kind: AuditKind) {
	await db
		.insertInto('auditEvents')
		.columns(['workspaceId', 'actorId', 'actorName', 'kind'])
		.expression((eb) =>
			eb
				.selectFrom('members')
				.select(['members.workspaceId', eb.val(user.id).as('actorId'), eb.val(user.name).as('actorName'), eb.val<AuditKind>(kind).as('kind')])
				.where('members.userId', '=', user.id),
		)
		.execute()
}
