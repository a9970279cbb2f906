import { z } from 'zod'
import { webhookEventTypes } from '#common/webhooks.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'

/** An address as given: trimmed, at most 2 000 characters; whether it may be reached is checked apart (checkOutboundUrl). */
const url = z.string().trim().min(1).max(2000)
const events = z
	.array(z.enum(webhookEventTypes))
	.min(1, 'webhooks:errors.eventsRequired')
	.max(webhookEventTypes.length)
	.transform((chosen) => [...new Set(chosen)])

export const createWebhookBody = z.object({ url, events, enabled: z.boolean().default(true) }).strict()
export type CreateWebhookBody = z.output<typeof createWebhookBody>

/** Turning it on again (after a day of failures) sends the deliveries that waited. */
export const updateWebhookBody = z.object({ url: url.optional(), events: events.optional(), enabled: z.boolean().optional() }).strict()
export type UpdateWebhookBody = z.output<typeof updateWebhookBody>

export const webhookParams = workspaceParams.extend({ subscriptionId: z.string().uuid() })
export const deliveryParams = webhookParams.extend({ deliveryId: z.string().regex(/^[1-9]\d{0,17}$/) })

/** `?cursor`: the deliveries older than this one (the `nextCursor` of the page before). */
export const listDeliveriesQuery = z
	.object({
		cursor: z
			.string()
			.regex(/^[1-9]\d{0,17}$/)
			.optional()
			.or(z.literal('').transform(() => undefined)),
	})
	.strict()
