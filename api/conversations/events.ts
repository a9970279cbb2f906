import { visitorChannel, workspaceChannel } from '#common/realtime.ts'
import { type Conversation, type Message } from '#api/db/schema.ts'
import { type Realtime } from '#api/realtime/publisher.ts'

type ConversationRef = Pick<Conversation, 'id' | 'workspaceId' | 'number'>
type MessageRef = Pick<Message, 'id' | 'kind' | 'direction'>

/** What members (and a link visitor) hear of a change, gathered in its transaction and published once it committed. */
export type InboxEvent =
	| { event: 'conversation.created' | 'conversation.updated'; conversation: ConversationRef }
	| { event: 'message.created' | 'message.updated'; conversation: ConversationRef; message: MessageRef }
	| { event: 'notification'; userId: string; kind: 'assigned' | 'mentioned'; conversation: ConversationRef }

export const conversationEvent = (event: 'conversation.created' | 'conversation.updated', conversation: ConversationRef): InboxEvent => ({ event, conversation })
export const messageEvent = (event: 'message.created' | 'message.updated', conversation: ConversationRef, message: MessageRef): InboxEvent => ({ event, conversation, message })

/** The customer sees outgoing text only: never a note, never an activity line. */
export const reachesVisitor = (message: MessageRef) => message.kind === 'text' && message.direction === 'outgoing'

/**
 * Publishes ids only (the browser revalidates): on the workspace's channel for members, on the
 * visitor's channel for what the customer sees, to one user for a notification. Never awaited by routes.
 */
export function publishEvents(realtime: Realtime, events: InboxEvent[]): Promise<unknown> {
	return Promise.all(
		events.map((entry) => {
			const { conversation } = entry
			const ids = { workspaceId: conversation.workspaceId, conversationId: conversation.id, number: conversation.number }
			if (entry.event === 'notification') {
				return realtime.notifyUser(entry.userId, 'notification', { kind: entry.kind, workspaceId: conversation.workspaceId, number: conversation.number })
			}
			if (!('message' in entry)) return realtime.publish(workspaceChannel(conversation.workspaceId), entry.event, ids)
			const data = { ...ids, messageId: String(entry.message.id) }
			return Promise.all([
				realtime.publish(workspaceChannel(conversation.workspaceId), entry.event, data),
				reachesVisitor(entry.message) ? realtime.publish(visitorChannel(conversation.id), entry.event, data) : undefined,
			])
		}),
	)
}
