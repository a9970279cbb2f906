import { z } from 'zod'
import { workspaceSchema } from '#app/components/workspace-form.schema.ts'

export const updateSchema = workspaceSchema.extend({
	workspaceId: z.string(),
	// Where local phone numbers are from: '' follows the time zone; the search box is read when no script picked its answer.
	country: z.string().trim().max(2).optional(),
	countrySearch: z.string().trim().max(100, 'forms.tooLong').optional(),
})

export const deleteSchema = z.object({ workspaceId: z.string(), confirmName: z.string({ required_error: 'forms.required' }) })
