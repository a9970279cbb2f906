import { conversationEvent, messageEvent, type InboxEvent } from '#api/conversations/events.ts'
import { addActivity } from '#api/conversations/inbound.ts'
import { type DB } from '#api/db/database.ts'
import { enqueue } from './queue.ts'

/**
 * A member leaves the workspace (removed, or by themselves): the conversations they held that are
 * not resolved lose their assignee, with a line saying why, and the open ones go back through
 * assignment, so that none waits on someone who is gone. In the removal's transaction; returns
 * the events to publish once it committed.
 */
export async function releaseConversations(trx: DB, workspaceId: string, userId: string): Promise<InboxEvent[]> {
	const held = await trx
		.selectFrom('conversations')
		.selectAll()
		.where('workspaceId', '=', workspaceId)
		.where('assigneeId', '=', userId)
		.where('status', '!=', 'resolved')
		.orderBy('id')
		.forUpdate()
		.execute()
	if (held.length === 0) return []
	const user = await trx.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst()
	const events: InboxEvent[] = []
	for (const conversation of held) {
		const unassigned = await trx
			.updateTable('conversations')
			.set({ assigneeId: null })
			.where('id', '=', conversation.id)
			.returningAll()
			.executeTakeFirstOrThrow()
		const line = await addActivity(trx, unassigned, { key: 'activity.unassignedLeft', values: { assignee: user?.name ?? '' } })
		await enqueue(trx, unassigned)
		events.push(conversationEvent('conversation.updated', unassigned, conversation), messageEvent('message.created', unassigned, line))
	}
	return events
}
