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
