import express, { Router } from 'express'
import { applyPresence, type PresenceEvent } from '#api/assignment/presence.ts'
import { type ApiContext } from '#api/context.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { rawRequest } from '#api/http/raw-request.ts'

/**
 * `/webhooks/realtime`: the realtime server's webhooks (ours, Soketi's or Pusher's, signed with the
 * app's secret): a member's first connection to their workspace's presence channel and their last
 * one closing, which make them available to auto-assignment or not (api/assignment/presence.ts).
 * Anything else it sends is acknowledged and left.
 */
export function realtimeWebhookRouter({ db, realtime, config }: ApiContext): Router {
	const router = Router()
	router.post(
		'/',
		express.raw({ type: () => true, limit: '1mb' }),
		handler(async (req, res) => {
			const { rawBody, headers } = rawRequest(req)
			const webhook = realtime.verifyWebhook(headers, rawBody.toString('utf8'))
			if (!webhook) throw new HttpError(401, 'realtime.webhookRefused')
			const events = webhook.events.flatMap((event): PresenceEvent[] => {
				const userId = (event as { user_id?: unknown }).user_id
				return (event.name === 'member_added' || event.name === 'member_removed') && typeof event.channel === 'string' && typeof userId === 'string'
					? [{ name: event.name, channel: event.channel, userId, at: webhook.time }]
					: []
			})
			await applyPresence(db, realtime, events, config.PRESENCE_OFFLINE_AFTER)
			res.status(200).json({ ok: true })
		}),
	)
	return router
}
