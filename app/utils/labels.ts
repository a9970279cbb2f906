import { z } from 'zod'
import { labelColorPattern, labelLimits, labelTitlePattern } from '#common/labels.ts'

/** A label as the API answers it, and what a contact shows of each of its labels. */
export type { LabelJson as Label, LabelSummary } from '#app/.server/api.ts'

/** The label form's rules, as the API checks them (one word: letters of any script, digits, `-`, `_`). */
export const labelSchema = z.object({
	title: z
		.string({ required_error: 'forms.required' })
		.trim()
		.min(1, 'forms.required')
		.max(labelLimits.title, 'forms.tooLong')
		.regex(labelTitlePattern, 'labels.titleRule'),
	description: z.string().trim().max(labelLimits.description, 'forms.tooLong').optional(),
	color: z.string({ required_error: 'forms.required' }).regex(labelColorPattern, 'labels.colorRule'),
})
