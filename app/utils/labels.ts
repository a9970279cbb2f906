import { z } from 'zod'

/** A label as the API answers it, and what a contact shows of each of its labels. */
export type { LabelJson as Label, LabelSummary } from '#app/.server/api.ts'

/** The label form's rules, as the API checks them (one word: letters of any script, digits, `-`, `_`). */
export const labelSchema = z.object({
	title: z
		.string({ required_error: 'forms.required' })
		.trim()
		.max(50, 'forms.tooLong')
		.regex(/^[\p{L}\p{M}\p{N}_-]+$/u, 'labels.titleRule'),
	description: z.string().trim().max(200, 'forms.tooLong').optional(),
	color: z.string({ required_error: 'forms.required' }).regex(/^#[0-9a-fA-F]{6}$/, 'labels.colorRule'),
})
