import { z } from 'zod'
import { filled, ticked } from '#app/utils/forms.ts'

/** A messaging channel's name and switch (its settings come from the provider). */
export const messagingChannelSchema = z.object({
	kind: z.literal('messaging'),
	name: filled,
	enabled: ticked,
})

const rateRule = 'channels:validation.campaignRate'

/** The channel's campaign rate: a whole number from 1 to 1000 (digits only), or empty for the kind's default. */
export const campaignRateSchema = z.object({
	intent: z.literal('campaignRate'),
	campaignRatePerSecond: z.string().trim().regex(/^\d+$/, rateRule).transform(Number).pipe(z.number().min(1, rateRule).max(1000, rateRule)).optional(),
})
