import crypto from 'node:crypto'
import { findCampaign } from '#api/campaigns/queries.ts'
import { findContact } from '#api/contacts/queries.ts'
import { conversationsForEvents, findMessage } from '#api/conversations/queries.ts'
import { type DB } from '#api/db/database.ts'
import { type WebhookEventSubject } from '#api/db/schema.ts'
import { type WebhookDeliveryEventType, type WebhookEventType } from '#common/webhooks.ts'

/** What the fan-out needs to know of an event besides its body: the channel of its conversation, and whether it is a reply the customer gets. */
export type ShapedEvent = { data: Record<string, unknown>; channelId: string | null; outgoingText: boolean; messageId: string | null }

/**
 * The event's `data` as `/v1` shapes its object now (the fan-out's moment: the body is then kept and
 * resent unchanged), or undefined when the object is gone (a conversation deleted meanwhile).
 */
export async function shapeEvent(db: DB, workspaceId: string, type: WebhookEventType, subject: WebhookEventSubject): Promise<ShapedEvent | undefined> {
	const base = { workspaceId }
	const none = { channelId: null, outgoingText: false, messageId: null }
	const conversationOf = async (id: string | undefined) => (id ? (await conversationsForEvents(db, [id])).get(id) : undefined)
	switch (type) {
		case 'conversation.created':
		case 'conversation.updated':
		case 'conversation.status_changed':
		case 'conversation.assigned': {
			const conversation = await conversationOf(subject.conversationId)
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
			const [conversation, message] = await Promise.all([
				conversationOf(subject.conversationId),
				subject.messageId ? findMessage(db, subject.messageId) : undefined,
			])
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
			const contact = subject.contactId ? await findContact(db, workspaceId, subject.contactId) : undefined
			return contact ? { ...none, data: { ...base, contact } } : undefined
		}
		case 'contact.deleted':
			return subject.contact ? { ...none, data: { ...base, contact: subject.contact } } : undefined
		case 'campaign.completed': {
			const campaign = subject.campaignId ? await findCampaign(db, workspaceId, subject.campaignId) : undefined
			return campaign ? { ...none, data: { ...base, campaign } } : undefined
		}
		case 'csat.rated': {
			const [conversation, survey] = await Promise.all([
				conversationOf(subject.conversationId),
				subject.surveyId
					? db
							.selectFrom('satisfactionSurveys')
							.select(['id', 'status', 'rating', 'comment', 'askedAt', 'answeredAt'])
							.where('id', '=', subject.surveyId)
							.executeTakeFirst()
					: undefined,
			])
			if (!conversation || !survey) return undefined
			const rating = {
				id: survey.id,
				status: survey.status,
				rating: survey.rating,
				comment: survey.comment,
				askedAt: survey.askedAt.toISOString(),
				answeredAt: survey.answeredAt?.toISOString() ?? null,
			}
			return { ...none, data: { ...base, conversation, survey: rating }, channelId: conversation.channel.id }
		}
	}
}

/** A `webhook-id` as Standard Webhooks' examples write them: unique per event, the same on every try. */
export function newWebhookId(): string {
	return `msg_${crypto.randomBytes(16).toString('base64url')}`
}

/** The body as sent (Standard Webhooks' recommended shape): the event, when it happened, and its data. */
export function webhookBody(type: WebhookDeliveryEventType, at: Date, data: Record<string, unknown>): string {
	return JSON.stringify({ type, timestamp: at.toISOString(), data })
}
