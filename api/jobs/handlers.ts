import { prune } from './prune.ts'
import { type JobHandlers } from './queue.ts'

/** Every task of the job queue, by name. */
export const jobHandlers: JobHandlers = {
	prune: async (_payload, { db }) => {
		await prune(db)
	},
}
