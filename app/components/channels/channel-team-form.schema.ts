import { z } from 'zod'

/** The team the channel's new conversations go to: one of the workspace's (the API checks which), or none when left empty. */
export const channelTeamSchema = z.object({
	intent: z.literal('team'),
	teamId: z.string().optional(),
})
