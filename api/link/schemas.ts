import { z } from 'zod'
import { limits as messageLimits } from '#api/canned-responses/schemas.ts'

/** The header a visitor's browser (through the link page) names itself by: the long random token of its cookie. */
export const visitorTokenHeader = 'X-Visitor-Token'

export const visitorTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{32,256}$/)

export const linkParams = z.object({ slug: z.string().trim().toLowerCase().min(1).max(100) })

// A form sends an empty field for "not given".
const optionalText = (schema: z.ZodString) => z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema.optional())

export const postVisitorMessageBody = z
	.object({
		body: z.string().trim().min(1).max(messageLimits.content),
		name: optionalText(z.string().trim().max(80)),
		email: optionalText(z.string().trim().toLowerCase().email().max(254)),
	})
	.strict()

export const visitorThreadQuery = z
	.object({
		/** A message id: the page of messages before it (older). */
		before: z
			.string()
			.regex(/^\d{1,18}$/)
			.optional(),
		limit: z.coerce.number().int().min(1).max(100).default(30),
	})
	.strict()

// Pusher's socket ids: two integers joined by a dot.
export const visitorRealtimeAuthBody = z.object({
	socket_id: z
		.string()
		.max(64)
		.regex(/^\d+\.\d+$/),
	channel_name: z.string().min(1).max(200),
})

/** The newest of the team's replies the visitor has on screen: it and those before it are read. */
export const markReadBody = z
	.object({
		upTo: z.string().regex(/^\d{1,18}$/),
	})
	.strict()

const ratingRule = 'channels:validation.rating'

/** The visitor's answer to the survey of their resolved conversation: 1 to 5, and what they want to add. */
export const rateConversationBody = z
	.object({
		rating: z.number({ required_error: ratingRule, invalid_type_error: ratingRule }).refine((rating) => [1, 2, 3, 4, 5].includes(rating), ratingRule),
		comment: optionalText(z.string().trim().max(messageLimits.content)),
	})
	.strict()
