import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type AuditValues } from '#api/db/schema.ts'

/**
 * What the audit log records, each the key of its line under `audit:events` in the locales. A
 * line's values are names and counts, never a secret: a channel's change lists the fields that
 * changed, not what they became.
 */
export const auditKinds = [
	'session.signedIn',
	'member.roleChanged',
	'member.removed',
	'member.left',
	'member.ownershipTransferred',
	'invitation.created',
	'invitation.revoked',
	'invitation.accepted',
	'channel.created',
	'channel.updated',
	'channel.credentialsReplaced',
	'channel.deleted',
	'contacts.deleted',
	'contacts.imported',
	'campaign.started',
	'campaign.cancelled',
	'export.contacts',
	'export.campaignRecipients',
	'export.report',
] as const
export type AuditKind = (typeof auditKinds)[number]

/** Who did it: the signed-in user, whose name is kept with the line. */
export type AuditActor = { id: string; name: string }

/** Adds a line to a workspace's log; given a transaction, inside it, so that it stands or falls with the change. */
export async function recordAudit(db: DB, workspaceId: string, actor: AuditActor, kind: AuditKind, values: AuditValues = {}) {
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
				.where('members.userId', '=', user.id)
		)
		.execute()
}
