import { z } from 'zod'
import { webhookDeliveryStatuses, webhookEventTypes, webhookTestEvent, type WebhookDeliveryJson, type WebhookSubscriptionJson } from '#common/webhooks.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { createWebhookBody, deliveryParams, listDeliveriesQuery, updateWebhookBody, webhookParams } from './schemas.ts'

const webhook = answerSchema<WebhookSubscriptionJson>()(
	z
		.object({
			id: z.string().uuid(),
			url: z.string(),
			events: z.array(z.enum(webhookEventTypes)),
			enabled: z.boolean(),
			failingSince: z
				.string()
				.datetime()
				.nullable()
				.openapi({ description: 'Since the first failed try of its current failing stretch; null once a try went through.' }),
			disabledAt: z
				.string()
				.datetime()
				.nullable()
				.openapi({ description: 'When it was turned off after failing for a day (its owners and admins were mailed).' }),
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
		})
		.openapi('Webhook'),
)

const delivery = answerSchema<WebhookDeliveryJson>()(
	z
		.object({
			id: z.string().regex(/^\d+$/),
			webhookId: z.string().openapi({ description: 'The `webhook-id` header: the same on every try and on "send again".' }),
			eventType: z.enum([...webhookEventTypes, webhookTestEvent]),
			status: z.enum(webhookDeliveryStatuses),
			attempts: z.number().int(),
			nextAttemptAt: z.string().datetime().nullable(),
			lastAttemptAt: z.string().datetime().nullable(),
			responseStatus: z.number().int().nullable(),
			responseBody: z.string().nullable().openapi({ description: "The first 1 KB of the receiver's last answer." }),
			error: z.string().nullable(),
			payload: z.string().openapi({ description: 'The body as sent: `{ type, timestamp, data: { workspaceId, … } }`, unchanged on every try.' }),
			createdAt: z.string().datetime(),
			deliveredAt: z.string().datetime().nullable(),
		})
		.openapi('WebhookDelivery'),
)

/** `/v1/workspaces/{id}/webhooks` (router.ts): owners and admins alone. */
export function documentOutgoingWebhooks(docs: ApiDocs) {
	const signing =
		'Each event is posted as JSON `{ type, timestamp, data }` and signed as the Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the `whsec_` secret), so any of its libraries verifies it. A try has 10 s; network errors, 5xx and 429 (with its `Retry-After`) are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; other answers are not; redirects are not followed. The events of one conversation (contact, campaign) arrive in order. A webhook failing for a day is turned off.'
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The webhooks',
		description: 'Owners and admins.',
		params: workspaceParams,
		responses: { 200: { description: 'The webhooks, oldest first.', schema: z.object({ webhooks: z.array(webhook) }) } },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Add a webhook',
		description: `Owners and admins; at most 20. The address must be https and on the Internet (unless WEBHOOK_ALLOW_PRIVATE). ${signing}`,
		params: workspaceParams,
		body: createWebhookBody,
		responses: {
			201: {
				description: 'The webhook, and its signing secret: shown this once.',
				schema: z.object({ webhook, secret: z.string().openapi({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) }),
			},
		},
		errors: [403, 422],
	})
	docs.add({
		method: 'get',
		path: '/:subscriptionId',
		summary: 'A webhook',
		description: 'Owners and admins.',
		params: webhookParams,
		responses: { 200: { description: 'The webhook.', schema: webhook } },
		errors: [403],
	})
	docs.add({
		method: 'patch',
		path: '/:subscriptionId',
		summary: 'Change a webhook',
		description: 'Owners and admins. `enabled: true` turns one that was turned off on again: the events that waited are sent.',
		params: webhookParams,
		body: updateWebhookBody,
		responses: { 200: { description: 'The webhook.', schema: webhook } },
		errors: [403, 422],
	})
	docs.add({
		method: 'delete',
		path: '/:subscriptionId',
		summary: 'Delete a webhook',
		description: 'Owners and admins; its delivery log goes with it.',
		params: webhookParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/:subscriptionId/secret',
		summary: "Roll a webhook's secret",
		description:
			'Owners and admins. A new signing secret, shown this once. For a day every try is signed with it and with the secret it replaced (two signatures in `webhook-signature`), so a receiver can switch without refusing a delivery; then with the new one alone.',
		params: webhookParams,
		responses: {
			200: {
				description: 'The new secret, and until when the one it replaced still signs (null when that one could not be opened).',
				schema: z.object({ secret: z.string(), previousSecretExpiresAt: z.string().datetime().nullable() }),
			},
		},
		errors: [403],
	})
	docs.add({
		method: 'get',
		path: '/:subscriptionId/deliveries',
		summary: "A webhook's delivery log",
		description: 'Owners and admins. Newest first, 50 a page; `nextCursor` asks for the older ones.',
		params: webhookParams,
		query: listDeliveriesQuery,
		responses: { 200: { description: 'A page of the log.', schema: z.object({ deliveries: z.array(delivery), nextCursor: z.string().nullable() }) } },
		errors: [400, 403],
	})
	docs.add({
		method: 'post',
		path: '/:subscriptionId/deliveries/:deliveryId/retry',
		summary: 'Send a delivery again',
		description: 'Owners and admins. The same `webhook-id` and body, with a new timestamp and signature; retried as a new delivery would be.',
		params: deliveryParams,
		responses: { 202: { description: 'The delivery, waiting to be sent.', schema: delivery } },
		errors: [403, 409],
	})
	docs.add({
		method: 'post',
		path: '/:subscriptionId/test',
		summary: 'Send a test event',
		description: 'Owners and admins. A `webhook.test` event, signed as every other, sent at once.',
		params: webhookParams,
		responses: { 202: { description: 'The delivery, waiting to be sent.', schema: delivery } },
		errors: [403, 409],
	})
}
