import { z } from 'zod'
import { limits as messageLimits } from '#api/conversations/schemas.ts'

export const limits = { externalId: 200, name: 200, email: 320, phone: 40 }

const externalId = z.string().trim().min(1).max(limits.externalId)

/** The customer as the integration knows them: its own id (their identity on the channel), and what it knows of them. */
export const inboundContact = z
	.object({
		externalId,
		name: z.string().trim().max(limits.name).optional(),
		email: z.string().trim().max(limits.email).email().optional(),
		phone: z.string().trim().max(limits.phone).optional(),
	})
	.strict()

/** A customer's message handed over by an integration (JSON; with a file, the same fields in a multipart form). */
export const inboundMessageBody = z
	.object({
		contact: inboundContact,
		text: z.string().trim().max(messageLimits.body).default(''),
		/** The integration's id of the message: the same id again is recorded once. */
		externalId: externalId.optional(),
	})
	.strict()

export type InboundMessageBody = z.output<typeof inboundMessageBody>

/** A multipart form's flat fields (`contact.externalId`, `text`…) as the JSON body nests them. */
export function nestedFields(fields: Record<string, string>): Record<string, unknown> {
	const body: Record<string, unknown> = {}
	const contact: Record<string, string> = {}
	for (const [name, value] of Object.entries(fields)) {
		if (name.startsWith('contact.')) contact[name.slice('contact.'.length)] = value
		else body[name] = value
	}
	return Object.keys(contact).length > 0 ? { ...body, contact } : body
}

/** What the integration reports of a reply it was given: its customer got it, read it, or never will. */
export const deliveryReportBody = z
	.object({
		status: z.enum(['delivered', 'read', 'failed']),
		error: z.string().trim().max(500).optional(),
	})
	.strict()

export const apiChannelParams = z.object({ id: z.string().uuid(), channelId: z.string().uuid() })
export const apiMessageParams = apiChannelParams.extend({ messageId: z.string().regex(/^\d{1,18}$/) })

/** The answer to a handed-over message: where it went (`duplicate`: the external id was known, nothing new was recorded). */
export type ReceivedJson = { conversationId: string; conversationNumber: number; messageId: string; duplicate: boolean }

/** The answer to a delivery report: the reply's status now (a report that would move it backwards changes nothing). */
export type DeliveryReportJson = { messageId: string; status: 'pending' | 'sent' | 'delivered' | 'read' | 'failed' }
