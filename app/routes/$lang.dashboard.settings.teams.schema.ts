import { z } from 'zod'
import { waitMinutesLimits } from '#common/notifications.ts'
import { teamLimits } from '#common/teams.ts'
import { text, ticked } from '#app/utils/forms.ts'

/** A team's form, checked as the API checks it: a name, a description, whether it auto-assigns, when its members hear of a wait, and its members (ticked by user id). */
export const teamSchema = z.object({
	teamId: z.string().optional(),
	name: text(teamLimits.name),
	description: z.string().trim().max(teamLimits.description, 'forms.tooLong').optional(),
	autoAssign: ticked,
	notifyAfter: z
		.number({ required_error: 'forms.required', invalid_type_error: 'forms.number' })
		.int('forms.number')
		.min(waitMinutesLimits.min, 'forms.range')
		.max(waitMinutesLimits.max, 'forms.range'),
	userIds: z.array(z.string()).max(teamLimits.members, 'forms.tooLong').default([]),
})
