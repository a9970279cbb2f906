import { z } from 'zod'

/** Letters of any script (with their marks), digits, `-` and `_`: one word, in a URL or a CSV cell alike (emptiness is `min`'s to report). */
export const labelTitlePattern = /^[\p{L}\p{M}\p{N}_-]*$/u

export const labelTitle = z.string().trim().min(1).max(50).regex(labelTitlePattern, 'contacts:validation.labelTitle')

const color = z
	.string()
	.trim()
	.regex(/^#[0-9a-fA-F]{6}$/, 'contacts:validation.color')
	.transform((value) => value.toLowerCase())

// An empty description is none, as a form sends it.
const description = z
	.string()
	.trim()
	.max(200)
	.nullish()
	.transform((value) => value || null)

export const createLabelBody = z.object({ title: labelTitle, description, color })

export const updateLabelBody = z.object({
	title: labelTitle.optional(),
	description: description.optional(),
	color: color.optional(),
})

export const labelParams = z.object({ id: z.string().uuid(), labelId: z.string().uuid() })
