import { z } from 'zod'
import { cannedLimits } from '#common/canned-responses.ts'

/**
 * A canned response's form, checked as the API checks it: a short code of one word (letters of any
 * script, digits, `-`, `_`; a `/` typed before it, as in the composer, is dropped) and its text.
 */
export const cannedSchema = z.object({
	cannedId: z.string().optional(),
	shortCode: z
		.string({ required_error: 'forms.required' })
		.trim()
		.transform((code) => code.replace(/^\/+/, ''))
		.pipe(
			z
				.string()
				.min(1, 'forms.required')
				.max(cannedLimits.shortCode, 'canned.shortCodeTooLong')
				.regex(/^[\p{L}\p{M}\p{N}_-]+$/u, 'canned.shortCodeRule'),
		),
	content: z.string({ required_error: 'forms.required' }).trim().min(1, 'forms.required').max(cannedLimits.content, 'canned.contentTooLong'),
})
