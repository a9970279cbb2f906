import { z } from 'zod'
import { workspaceLimits } from '#common/workspaces.ts'
import { locales } from '#locales/languages.ts'

/** A new workspace (setup-workspace and create): the same form and rules. */
export const workspaceSchema = z.object({
	name: z
		.string({ required_error: 'forms.required' })
		.trim()
		.min(workspaceLimits.nameMin, 'workspaces.nameLength')
		.max(workspaceLimits.nameMax, 'workspaces.nameLength'),
	// The API checks the zone against its own list; browsers' lists differ slightly.
	timezone: z.string({ required_error: 'forms.required' }).trim().min(1, 'forms.required').max(workspaceLimits.timezone, 'forms.tooLong'),
	defaultLocale: z.enum(locales, { required_error: 'forms.required', invalid_type_error: 'forms.invalid' }),
})
