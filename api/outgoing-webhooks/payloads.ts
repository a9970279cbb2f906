import crypto from 'node:crypto'
import { campaignsById } from '#api/campaigns/queries.ts'
import { contactsById } from '#api/contacts/queries.ts'
import { conversationsForEvents, messagesById } from '#api/conversations/queries.ts'
import { type DB } from '#api/db/database.ts'
import { type WebhookEventSubject } from '#api/db/schema.ts'
import { type WebhookDeliveryEventType, type WebhookEventType } from '#common/webhooks.ts'

/** What the fan-out needs to know of an event besides its body: the channel of its conversation, and whether it is a reply the customer gets. */
export type ShapedEvent = { data: Record<string, unknown>; channelId: string | null; outgoingText: boolean; messageId: string | null }

/** An outbox event as the fan-out shapes it: its type and the ids it names. */
export type EventToShape = { type: WebhookEventType; subject: WebhookEventSubject }

/** The distinct ids of `key` that the events name. */
function idsOf(events: EventToShape[], key: 'conversationId' | 'messageId' | 'contactId' | 'campaignId' | 'surveyId'): string[] {
	return [...new Set(events.flatMap((event) => event.subject[key] ?? []))]
}

/** A survey's rating as the `csat.rated` event carries it. */
async function ratingsById(db: DB, ids: string[]) {
	if (ids.length === 0) return new Map<string, Record<string, unknown>>()
	const surveys = await db
		.selectFrom('satisfactionSurveys')
		.select(['id', 'status', 'rating', 'comment', 'askedAt', 'answeredAt'])
		.where('id', 'in', ids)
		.execute()
	return new Map(
		surveys.map((survey) => [
			survey.id,
			{
				id: survey.id,
				status: survey.status,
				rating: survey.rating,
				comment: survey.comment,
				askedAt: survey.askedAt.toISOString(),
				answeredAt: survey.answeredAt?.toISOString() ?? null,
			},
		]),
	)
}

/**
 * Each event's `data` as `/v1` shapes its object now (the fan-out's moment: the body is then kept and
 * resent unchanged), in the events' order; undefined for one whose object is gone (a conversation
 * deleted meanwhile). Each kind of object is read once for all the events, whatever their number.
 */
export async function shapeEvents(db: DB, workspaceId: string, events: EventToShape[]): Promise<Array<ShapedEvent | undefined>> {
	const [conversations, messages, contacts, campaigns, ratings] = await Promise.all([
		conversationsForEvents(db, idsOf(events, 'conversationId')),
		messagesById(db, idsOf(events, 'messageId')),
		// A deleted contact's event carries what it was.
		contactsById(
			db,
			workspaceId,
			idsOf(
				events.filter((event) => event.type !== 'contact.deleted'),
				'contactId',
			),
		),
		campaignsById(db, workspaceId, idsOf(events, 'campaignId')),
		ratingsById(db, idsOf(events, 'surveyId')),
	])
	const base = { workspaceId }
	const none = { channelId: null, outgoingText: false, messageId: null }
	return events.map(({ type, subject }): ShapedEvent | undefined => {
		const conversation = subject.conversationId ? conversations.get(subject.conversationId) : undefined
		switch (type) {
			case 'conversation.created':
			case 'conversation.updated':
			case 'conversation.status_changed':
			case 'conversation.assigned': {
				if (!conversation) return undefined
				const extra =
					type === 'conversation.status_changed'
						? { previousStatus: subject.previousStatus ?? null }
						: type === 'conversation.assigned'
							? { previousAssigneeId: subject.previousAssigneeId ?? null }
							: {}
				return { ...none, data: { ...base, conversation, ...extra }, channelId: conversation.channel.id }
			}
			case 'message.created':
			case 'message.updated': {
				const message = subject.messageId ? messages.get(subject.messageId) : undefined
				if (!conversation || !message) return undefined
				return {
					data: { ...base, conversation, message },
					channelId: conversation.channel.id,
					outgoingText: message.direction === 'outgoing' && message.kind === 'text',
					messageId: message.id,
				}
			}
			case 'contact.created':
			case 'contact.updated': {
				const contact = subject.contactId ? contacts.get(subject.contactId) : undefined
				return contact ? { ...none, data: { ...base, contact } } : undefined
			}
			case 'contact.deleted':
				return subject.contact ? { ...none, data: { ...base, contact: subject.contact } } : undefined
			case 'campaign.completed': {
				const campaign = subject.campaignId ? campaigns.get(subject.campaignId) : undefined
				return campaign ? { ...none, data: { ...base, campaign } } : undefined
			}
			case 'csat.rated': {
				const survey = subject.surveyId ? ratings.get(subject.surveyId) : undefined
				if (!conversation || !survey) return undefined
				return { ...none, data: { ...base, conversation, survey }, channelId: conversation.channel.id }
			}
		}
	})
}

/** A `webhook-id` as Standard Webhooks' examples write them: unique per event, the same on every try. */
export function newWebhookId(): string {
	return `msg_${crypto.randomBytes(16).toString('base64url')}`
}

/** The body as sent (Standard Webhooks' recommended shape): the event, when it happened, and its data. */
export function webhookBody(type: WebhookDeliveryEventType, at: Date, data: Record<string, unknown>): string {
	return JSON.stringify({ type, timestamp: at.toISOString(), data })
}
