import { z } from 'zod'

// Pusher's socket ids: two integers joined by a dot.
const socketId = z
	.string()
	.max(64)
	.regex(/^\d+\.\d+$/)

/** pusher-js's channel authorisation request. */
export const channelAuthBody = z.object({ socket_id: socketId, channel_name: z.string().min(1).max(200) })

/** pusher-js's user authentication request. */
export const userAuthBody = z.object({ socket_id: socketId, user_id: z.string().max(200).optional() })
