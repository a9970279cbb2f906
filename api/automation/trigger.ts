import crypto from 'node:crypto'
import { type AutomationEvent } from '#common/automation.ts'
import { type DB } from '#api/db/database.ts'
import { type Conversation } from '#api/db/schema.ts'
import { addJob } from '#api/jobs/queue.ts'

/** A conversation's rule runs, one at a time and in the order of its events. */
export const automationQueue = (conversationId: string) => `automation:${conversationId}`

/**
 * In the transaction of the change: a `run-automation` job per event that an enabled rule of the
 * workspace listens to (one indexed query; nothing more for a workspace without rules). Each event
 * gets its key here, kept in the payload, so that a retried job never runs a rule twice.
 * `depth`: 0 for a person's or a customer's change, one more for each rule's own change.
 */
export async function triggerAutomation(
	trx: DB,
	conversation: Pick<Conversation, 'id' | 'workspaceId'>,
	events: readonly AutomationEvent[],
	options: { depth: number; messageId?: string },
) {
	if (events.length === 0) return
	const wanted = await trx
		.selectFrom('automationRules')
		.select('event')
		.distinct()
		.where('workspaceId', '=', conversation.workspaceId)
		.where('enabled', '=', true)
		.where('event', 'in', events)
		.execute()
	if (wanted.length === 0) return
	for (const event of events) {
		if (!wanted.some((row) => row.event === event)) continue
		const eventKey = options.messageId ? `${event}:${options.messageId}` : `${event}:${crypto.randomUUID()}`
		await addJob(
			trx,
			'run-automation',
			{ workspaceId: conversation.workspaceId, conversationId: conversation.id, event, eventKey, depth: options.depth, messageId: options.messageId },
			{ queueName: automationQueue(conversation.id) },
		)
	}
}
