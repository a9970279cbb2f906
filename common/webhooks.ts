/**
 * What the API and the web app agree on about outgoing webhooks (issue 33): the event types a
 * subscription may ask for, the statuses of a delivery, and the shapes the API answers. No dependencies.
 */

export const webhookEventTypes = [
	'conversation.created',
	'conversation.updated',
	'conversation.status_changed',
	'conversation.assigned',
	'message.created',
	'message.updated',
	'contact.created',
	'contact.updated',
	'contact.deleted',
	'campaign.completed',
	'csat.rated',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

/** Sent by "send a test event" only: never subscribed to. */
export const webhookTestEvent = 'webhook.test'
export type WebhookDeliveryEventType = WebhookEventType | typeof webhookTestEvent

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number]

export type WebhookSubscriptionJson = {
	id: string
	url: string
	events: WebhookEventType[]
	enabled: boolean
	/** Since its first failed try of the current failing stretch; null: its last try went through. */
	failingSince: string | null
	/** When it was turned off after failing for a day; null: not by failures. */
	disabledAt: string | null
	createdAt: string
	updatedAt: string
}

export type WebhookDeliveryJson = {
	id: string
	/** The `webhook-id` header: the same on every try and on "send again". */
	webhookId: string
	eventType: WebhookDeliveryEventType
	status: WebhookDeliveryStatus
	attempts: number
	nextAttemptAt: string | null
	lastAttemptAt: string | null
	responseStatus: number | null
	/** The first 1 KB of the receiver's last answer. */
	responseBody: string | null
	error: string | null
	/** The body as sent, unchanged on every try. */
	payload: string
	createdAt: string
	deliveredAt: string | null
}
