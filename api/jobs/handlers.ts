import { deliverMessage, wakeSnoozed } from '#api/conversations/jobs.ts'
import { prune } from './prune.ts'
import { type JobHandlers } from './queue.ts'

/** Every task of the job queue, by name. */
export const jobHandlers: JobHandlers = {
	prune: async (_payload, { db }) => {
		await prune(db)
	},
	'send-message': async ({ messageId }, { db, realtime, config }) => {
		await deliverMessage(db, realtime, config, messageId)
	},
	'wake-snoozed': async ({ conversationId }, { db, realtime }) => {
		await wakeSnoozed(db, realtime, conversationId)
	},
}
