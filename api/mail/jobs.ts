import { issueAccountToken } from '#api/auth/account-tokens.ts'
import { accountMail, twoFactorResetMail, webhookDisabledMail } from '#api/auth/mails.ts'
import { type DB } from '#api/db/database.ts'
import { addJob, type JobConfig, type JobPayloads } from '#api/jobs/queue.ts'
import { invitationMail } from '#api/workspaces/invitation-mail.ts'
import { isLocale } from '#locales/languages.ts'
import { mailAttempts, type Mailer } from './mailer.ts'

/** A mail the job queue sends: what it is about, never its text (no link or token waits in the queue). */
export type MailJob = JobPayloads['send-mail']

/** One pending mail per subject: asking again while one waits (SMTP down) retries it now instead of queueing a second one. */
export function mailJobKey(job: MailJob): string {
	if (job.kind === 'invitation') return `mail:invitation:${job.invitationId}`
	if (job.kind === 'webhookDisabled') return `mail:webhookDisabled:${job.subscriptionId}:${job.userId}`
	return `mail:${job.kind}:${job.userId}`
}

/** Queues a mail; given a transaction, inside it (the mail goes only if the change that calls for it is committed). */
export async function queueMail(db: DB, job: MailJob): Promise<void> {
	await addJob(db, 'send-mail', job, { key: mailJobKey(job), maxAttempts: mailAttempts })
}

/**
 * The `send-mail` task: writes the mail as things are now and sends it. A refusal (SMTP down, 4xx)
 * throws, and the queue retries with backoff. A mail that no longer has a purpose (the address was
 * verified meanwhile, the invitation revoked or expired, the account gone) is dropped.
 */
export async function sendMail(db: DB, mailer: Mailer, config: Pick<JobConfig, 'PUBLIC_URL'>, job: MailJob): Promise<void> {
	if (job.kind === 'invitation') {
		const found = await db
			.selectFrom('invitations')
			.leftJoin('users as inviter', 'inviter.id', 'invitations.createdBy')
			// Both addresses are citext: compared without case.
			.leftJoin('users as invitee', 'invitee.email', 'invitations.email')
			.selectAll('invitations')
			.select(['inviter.name as inviterName', 'invitee.locale as inviteeLocale'])
			.where('invitations.id', '=', job.invitationId)
			.executeTakeFirst()
		if (!found?.email || found.revokedAt || found.expiresAt.getTime() <= Date.now() || (found.maxUses !== null && found.uses >= found.maxUses)) return
		const workspace = await db.selectFrom('workspaces').selectAll().where('id', '=', found.workspaceId).executeTakeFirstOrThrow()
		const locale = [found.inviteeLocale, workspace.defaultLocale].find(isLocale) ?? 'en-us'
		await mailer.send(invitationMail({ publicUrl: config.PUBLIC_URL, locale, invitation: found, workspace, inviterName: found.inviterName ?? workspace.name }))
		return
	}
	const user = await db.selectFrom('users').selectAll().where('id', '=', job.userId).executeTakeFirst()
	if (!user || (job.kind === 'verifyEmail' && user.emailVerifiedAt)) return
	if (job.kind === 'twoFactorReset') {
		const [workspace, actor] = await Promise.all([
			db.selectFrom('workspaces').select('name').where('id', '=', job.workspaceId).executeTakeFirst(),
			db.selectFrom('users').select('name').where('id', '=', job.byUserId).executeTakeFirst(),
		])
		const from = { actor: actor?.name ?? '—', workspace: workspace?.name ?? '—' }
		await mailer.send(twoFactorResetMail({ to: user.email, name: user.name, locale: user.locale, publicUrl: config.PUBLIC_URL, ...from }))
		return
	}
	if (job.kind === 'webhookDisabled') {
		const subscription = await db
			.selectFrom('webhookSubscriptions')
			.innerJoin('workspaces', 'workspaces.id', 'webhookSubscriptions.workspaceId')
			.innerJoin('members', (join) => join.onRef('members.workspaceId', '=', 'webhookSubscriptions.workspaceId').on('members.userId', '=', user.id))
			.select(['webhookSubscriptions.id', 'webhookSubscriptions.url', 'webhookSubscriptions.enabled', 'workspaces.name as workspace'])
			.where('webhookSubscriptions.id', '=', job.subscriptionId)
			.executeTakeFirst()
		// Turned on again meanwhile, deleted, or the reader is no longer a member: nothing to say.
		if (!subscription || subscription.enabled) return
		await mailer.send(
			webhookDisabledMail({
				to: user.email,
				name: user.name,
				locale: user.locale,
				publicUrl: config.PUBLIC_URL,
				url: subscription.url,
				workspace: subscription.workspace,
				subscriptionId: subscription.id,
			}),
		)
		return
	}
	// Issued as the mail is written: its link lives its full life from now, and a retry's link replaces the failed one's.
	const token = await issueAccountToken(db, user.id, job.kind === 'verifyEmail' ? 'verify_email' : 'reset_password')
	await mailer.send(accountMail(job.kind, { to: user.email, name: user.name, locale: user.locale, token, publicUrl: config.PUBLIC_URL }))
}
