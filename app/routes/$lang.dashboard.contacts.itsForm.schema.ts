import { z } from 'zod'
import { parseAttributes } from '#app/utils/contacts.ts'
import { text } from '#app/utils/forms.ts'
import { contactLimits } from '#common/contacts.ts'

const optional = (maximum: number) => z.string().trim().max(maximum, 'forms.tooLong').optional()

export const schema = z.object({
	id: z.string().optional(),
	name: text(contactLimits.name),
	email: z.string().trim().email('forms.email').max(contactLimits.email, 'forms.tooLong').optional(),
	phone: optional(contactLimits.phone),
	country: z
		.string()
		.trim()
		.regex(/^[A-Za-z]{2}$/, 'contacts.countryRule')
		.optional(),
	// The country picker's search box: read by the action when no script turned it into a choice.
	countrySearch: z.string().trim().max(100, 'forms.tooLong').optional(),
	company: optional(contactLimits.company),
	notes: optional(contactLimits.notes),
	attributes: z
		.string()
		.optional()
		.transform((value, context) => {
			const attributes = parseAttributes(value ?? '')
			if (!attributes) context.addIssue({ code: 'custom', message: 'contacts.attributesRule' })
			return attributes ?? {}
		}),
	labelIds: z.array(z.string()).optional(),
})
