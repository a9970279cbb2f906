import { z } from 'zod'
import { filled, ticked } from '#app/utils/forms.ts'

/** A link channel's form, on the create page and the channel's own: the API checks the address and the lengths, and words their messages. */
export const linkChannelSchema = z.object({
	name: filled,
	// Empty: the API makes one up from the name.
	slug: z.string().trim().optional(),
	greeting: z.string().trim().default(''),
	askName: ticked,
	askEmail: ticked,
	enabled: ticked,
})

export type LinkChannelValue = z.output<typeof linkChannelSchema>
