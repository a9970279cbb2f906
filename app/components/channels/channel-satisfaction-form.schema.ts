import { z } from 'zod'
import { ticked } from '#app/utils/forms.ts'

/** Whether the channel asks its customers to rate a conversation once resolved. */
export const channelSatisfactionSchema = z.object({
	intent: z.literal('satisfaction'),
	csatEnabled: ticked,
})
