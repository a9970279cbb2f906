import { sql } from 'kysely'
import { sessionIdleTimeout } from '#api/auth/sessions.ts'
import { pruneAuditLog } from '#api/audit/queries.ts'
import { keptRuns } from '#api/automation/queries.ts'
import { type DB } from '#api/db/database.ts'
import { pruneNotifications } from '#api/notifications/queries.ts'

// Spent links stay a while so that opening an old one says why it no longer works.
const keepSpentTokens = '7 days'
const keepDeadInvitations = '30 days'
/** A webhook's log keeps its ended deliveries this long; those still waiting stay until they end. */
export const keepWebhookDeliveries = '30 days'

/** The audit log's lines are kept this many days unless AUDIT_LOG_DAYS says otherwise. */
export const defaultAuditLogDays = 365

/** The nightly clean-up: sessions, mailed tokens and invitations that can never be used again, audit lines past their time, each automation rule's runs past its last 1 000, notifications past 90 days, and webhook deliveries that ended 30 days ago. */
export async function prune(
	db: DB,
	options: { auditLogDays?: number } = {},
): Promise<{
	sessions: number
	tokens: number
	invitations: number
	auditEvents: number
	automationRuns: number
	notifications: number
	webhookDeliveries: number
}> {
	const idleSince = new Date(Date.now() - sessionIdleTimeout)
	const sessions = await db
		.deleteFrom('sessions')
		.where((eb) => eb.or([eb('expiresAt', '<=', sql<Date>`now()`), eb('lastUsedAt', '<=', idleSince)]))
		.executeTakeFirst()
	const tokens = await db
		.deleteFrom('accountTokens')
		.where((eb) =>
			eb.or([eb('expiresAt', '<', sql<Date>`now() - ${keepSpentTokens}::interval`), eb('usedAt', '<', sql<Date>`now() - ${keepSpentTokens}::interval`)]),
		)
		.executeTakeFirst()
	const invitations = await db
		.deleteFrom('invitations')
		.where((eb) =>
			eb.or([
				eb('expiresAt', '<', sql<Date>`now() - ${keepDeadInvitations}::interval`),
				eb('revokedAt', '<', sql<Date>`now() - ${keepDeadInvitations}::interval`),
			]),
		)
		.executeTakeFirst()
	const auditEvents = await pruneAuditLog(db, options.auditLogDays ?? defaultAuditLogDays)
	const automationRuns = await sql`
		delete from automation_runs using (
			select id from (select id, row_number() over (partition by rule_id order by id desc) as newer from automation_runs) ranked where newer > ${keptRuns}
		) old
		where automation_runs.id = old.id
	`.execute(db)
	return {
		sessions: Number(sessions.numDeletedRows),
		tokens: Number(tokens.numDeletedRows),
		invitations: Number(invitations.numDeletedRows),
		auditEvents,
		automationRuns: Number(automationRuns.numAffectedRows ?? 0),
		notifications: await pruneNotifications(db),
		webhookDeliveries: Number(
			(
				await db
					.deleteFrom('webhookDeliveries')
					.where('status', '!=', 'pending')
					.where('createdAt', '<', sql<Date>`now() - ${keepWebhookDeliveries}::interval`)
					.executeTakeFirst()
			).numDeletedRows,
		),
	}
}
