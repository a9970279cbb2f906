import { z } from 'zod'
import { labelColorPattern, labelLimits, labelTitlePattern } from '#common/labels.ts'

export const labelTitle = z.string().trim().min(1).max(labelLimits.title).regex(labelTitlePattern, 'contacts:validation.labelTitle')

const color = z
	.string()
	.trim()
	.regex(labelColorPattern, 'contacts:validation.color')
	.transform((value) => value.toLowerCase())

// An empty description is none, as a form sends it.
const description = z
	.string()
	.trim()
	.max(labelLimits.description)
	.nullish()
	.transform((value) => value || null)

export const createLabelBody = z.object({ title: labelTitle, description, color })
export type CreateLabelBody = z.output<typeof createLabelBody>

export const updateLabelBody = z.object({
	title: labelTitle.optional(),
	description: description.optional(),
	color: color.optional(),
})
export type UpdateLabelBody = z.output<typeof updateLabelBody>

export const labelParams = z.object({ id: z.string().uuid(), labelId: z.string().uuid() })
