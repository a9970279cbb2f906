import { runAutomation } from '#api/automation/run.ts'
import { drainQueues } from '#api/assignment/drain.ts'
import { defaultPresenceOfflineAfter, reconcilePresence, turnOfflineAfterLeaving } from '#api/assignment/presence.ts'
import { sendCampaignBatch, startScheduledCampaign } from '#api/campaigns/sending.ts'
import { deliverMessage, wakeSnoozed } from '#api/conversations/jobs.ts'
import { sendMail } from '#api/mail/jobs.ts'
import { mailNotifications } from '#api/notifications/mail.ts'
import { sendPush } from '#api/notifications/push.ts'
import { notifyWaiting } from '#api/notifications/waiting.ts'
import { publishEvents } from '#api/conversations/events.ts'
import { refreshReportsJob } from '#api/reports/rollup.ts'
import { processWebhook } from '#api/webhooks/jobs.ts'
import { deliverWebhooks } from '#api/outgoing-webhooks/delivery.ts'
import { fanOutWebhooks } from '#api/outgoing-webhooks/fan-out.ts'
import { prune } from './prune.ts'
import { type JobHandlers } from './queue.ts'

/** Every task of the job queue, by name. */
export const jobHandlers: JobHandlers = {
	prune: async (_payload, { db, config }) => {
		await prune(db, { auditLogDays: config.AUDIT_LOG_DAYS })
	},
	'send-message': async ({ messageId, attempt }, { db, realtime, config }) => {
		await deliverMessage(db, realtime, config, messageId, attempt)
	},
	'wake-snoozed': async ({ conversationId }, { db, realtime }) => {
		await wakeSnoozed(db, realtime, conversationId)
	},
	'process-webhook': async ({ channelId, body, part }, { db, realtime, config }) => {
		await processWebhook(db, realtime, config, channelId, body, part)
	},
	'start-campaign': async ({ campaignId }, { db, realtime }) => {
		await startScheduledCampaign(db, realtime, campaignId)
	},
	'send-campaign': async ({ campaignId }, { db, realtime, config }) => {
		await sendCampaignBatch(db, realtime, config, campaignId)
	},
	'refresh-reports': async (_payload, { db }) => {
		await refreshReportsJob(db)
	},
	'drain-queues': async ({ workspaceId }, { db, realtime }) => {
		await drainQueues(db, realtime, workspaceId)
	},
	'presence-offline': async (payload, { db, realtime }) => {
		await turnOfflineAfterLeaving(db, realtime, payload)
	},
	'reconcile-presence': async (_payload, { db, realtime, config }) => {
		if (config.PRESENCE_RECONCILE === false) return
		await reconcilePresence(db, realtime, config.PRESENCE_OFFLINE_AFTER ?? defaultPresenceOfflineAfter)
	},
	'run-automation': async (payload, { db, realtime }) => {
		await runAutomation(db, realtime, payload)
	},
	'notify-waiting': async (_payload, { db, realtime }) => {
		await publishEvents(db, realtime, await notifyWaiting(db))
	},
	'send-push': async (payload, { db, config }) => {
		await sendPush(db, config, payload)
	},
	'send-mail': async (payload, { db, mailer, config }) => {
		await sendMail(db, mailer, config, payload)
	},
	'fan-out-webhooks': async ({ workspaceId }, { db }) => {
		await fanOutWebhooks(db, workspaceId)
	},
	'deliver-webhooks': async (job, { db, realtime, config }) => {
		await deliverWebhooks(db, realtime, config, job)
	},
	'mail-notifications': async (member, { db, mailer, config }) => {
		await mailNotifications(db, mailer, config, member)
	},
}
