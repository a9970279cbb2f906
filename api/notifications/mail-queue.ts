import { type DB } from '#api/db/database.ts'
import { addJob } from '#api/jobs/queue.ts'
import { mailAttempts } from '#api/mail/mailer.ts'

// Apart from the mail's writing (./mail.ts), which loads the locales: notify() reaches this from the
// inbound path, which Playwright's loader imports, and it cannot import JSON.

/** How long notifications gather before they are mailed together: the first one's mail waits this long. */
export const mailBatchMs = 5 * 60_000

/** More lines than this make the mail a list to scroll: the rest are counted, and waiting in the app. */
export const mailedLinesAtMost = 20

export const notificationMailKey = (member: { userId: string; workspaceId: string }) => `notify-mail:${member.userId}:${member.workspaceId}`

/**
 * Queues the mail of each member's new notifications (called by `notify` in the change's
 * transaction): one job per member and workspace, keyed, which keeps its first `runAt`
 * (`preserve_run_at`), so everything of the next five minutes goes in one mail.
 */
export async function queueNotificationMail(trx: DB, members: Array<{ userId: string; workspaceId: string }>): Promise<void> {
	const seen = new Set<string>()
	for (const member of members) {
		const key = notificationMailKey(member)
		if (seen.has(key)) continue
		seen.add(key)
		await addJob(
			trx,
			'mail-notifications',
			{ userId: member.userId, workspaceId: member.workspaceId },
			{ key, keyMode: 'preserve_run_at', runAt: new Date(Date.now() + mailBatchMs), maxAttempts: mailAttempts },
		)
	}
}
