import { z } from 'zod'
import { filled } from '#app/utils/forms.ts'

// The API checks each value's shape with the provider's rules and words their messages; the form asks only that none is left empty.
const optional = z.string().trim().optional()
const meta = { name: filled, accessToken: filled, appSecret: filled, verifyToken: optional }

/** The form of each kind connected with a provider's credentials, told apart by its hidden `kind`. */
export const connectChannelSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('telegram'), name: filled, botToken: filled }),
	z.object({ kind: z.literal('whatsapp'), ...meta, phoneNumberId: filled, businessAccountId: filled }),
	z.object({ kind: z.enum(['messenger', 'facebook', 'instagram']), ...meta, pageId: filled }),
])

export type ConnectChannelValue = z.output<typeof connectChannelSchema>

/** New values for some of a channel's credentials: those left empty are kept (the API refuses none at all). */
export const replaceCredentialsSchema = z.object({
	intent: z.literal('credentials'),
	botToken: optional,
	accessToken: optional,
	appSecret: optional,
	verifyToken: optional,
})
