import { z } from 'zod'
import { filled } from '#app/utils/forms.ts'

/**
 * The visitor's message, and their name and e-mail when the page asks them (the API knows when it
 * does, checks them and words its messages in the visitor's language): only an empty message is
 * refused before it is sent.
 */
export const visitorMessageSchema = z.object({
	body: filled,
	name: z.string().trim().optional(),
	email: z.string().trim().optional(),
})

const ratingRule = 'channels:validation.rating'

/** The visitor's rating of their resolved conversation, 1 to 5, and an optional comment (the API checks its length too). */
export const surveySchema = z.object({
	intent: z.literal('rate'),
	rating: z.coerce.number({ required_error: ratingRule, invalid_type_error: ratingRule }).int(ratingRule).min(1, ratingRule).max(5, ratingRule),
	comment: z.string().trim().max(4096).optional(),
})
