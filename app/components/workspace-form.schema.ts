import { z } from 'zod'
import { locales } from '#locales/languages.ts'

/** A new workspace (setup-workspace and create): the same form and rules. */
export const workspaceSchema = z.object({
	name: z.string({ required_error: 'forms.required' }).trim().min(2, 'workspaces.nameLength').max(60, 'workspaces.nameLength'),
	// The API checks the zone against its own list; browsers' lists differ slightly.
	timezone: z.string({ required_error: 'forms.required' }).trim().min(1, 'forms.required').max(64, 'forms.tooLong'),
	defaultLocale: z.enum(locales, { required_error: 'forms.required', invalid_type_error: 'forms.invalid' }),
})
