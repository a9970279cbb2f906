import { type Insertable } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Activity, type Conversation, type MessagesTable } from '#api/db/schema.ts'

type Thread = Pick<Conversation, 'id' | 'workspaceId' | 'channelId'>

/**
 * A message's row in a conversation's thread. Its own module, imported by inbound.ts, the
 * auto-replies and the surveys alike (inbound.ts imports the latter two).
 */

/** A text message of a conversation, as it came or went on its channel. */
export function insertText(trx: DB, conversation: Thread, values: Pick<Insertable<MessagesTable>, 'direction' | 'body' | 'externalId' | 'status'>) {
	return trx
		.insertInto('messages')
		.values({ workspaceId: conversation.workspaceId, conversationId: conversation.id, channelId: conversation.channelId, kind: 'text', ...values })
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** A line of what happened in the thread, translated when read (`inbox:activity.*`). */
export function addActivity(trx: DB, conversation: Thread, activity: Activity, senderId: string | null = null) {
	return trx
		.insertInto('messages')
		.values({
			workspaceId: conversation.workspaceId,
			conversationId: conversation.id,
			channelId: conversation.channelId,
			direction: 'outgoing',
			kind: 'activity',
			activity,
			senderId,
		})
		.returningAll()
		.executeTakeFirstOrThrow()
}
