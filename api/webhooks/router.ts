import express, { Router } from 'express'
import { type ApiContext } from '#api/context.ts'
import { channelKinds, type ChannelKind } from '#api/db/schema.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { rawRequest } from '#api/http/raw-request.ts'
import { jobBatcher } from '#api/jobs/queue.ts'
import { webhookParts } from './jobs.ts'
import { providerChannel } from '#api/channels/connection.ts'
import { providerFor } from '#api/channels/providers/index.ts'
import { isUuid } from '#common/ids.ts'

const isKind = (value: string): value is ChannelKind => (channelKinds as readonly string[]).includes(value)

/**
 * `/webhooks/{kind}/{channelId}`: where providers post their events (and Meta's GET handshake).
 * Answers at once: a genuine event is kept as a `process-webhook` job, in order, and processed
 * there; a bad signature is refused and nothing is kept; an event for a channel that is gone or
 * switched off is acknowledged and dropped, so that the provider stops retrying it.
 */
export function webhooksRouter({ db, config }: ApiContext): Router {
	const router = Router()
	// Webhooks come many at a time: their jobs are added in batches (one commit for many).
	const addJobs = jobBatcher(db)
	// The raw body: signatures are computed over the bytes as sent.
	router.use(express.raw({ type: () => true, limit: '1mb' }))
	router.all(
		'/:kind/:channelId',
		handler(async (req, res) => {
			if (req.method !== 'POST' && req.method !== 'GET')
				throw new HttpError(405, 'errors.methodNotAllowed', { values: { method: req.method }, headers: { Allow: 'GET, POST' } })
			const { kind, channelId } = req.params as { kind: string; channelId: string }
			const provider = isKind(kind) ? providerFor(kind) : undefined
			if (!provider?.verifyWebhook || !provider.parseWebhook)
				throw new HttpError(404, 'errors.notFound', { values: { method: req.method, path: req.originalUrl.split('?')[0] ?? '' } })
			const row = isUuid(channelId)
				? await db
						.selectFrom('channels')
						.selectAll()
						.where('id', '=', channelId)
						.where('kind', '=', kind as ChannelKind)
						.executeTakeFirst()
				: undefined
			if (!row || !row.enabled) {
				res.status(200).json({ ok: true })
				return
			}
			const { rawBody, headers } = rawRequest(req)
			const query = Object.fromEntries(Object.entries(req.query).map(([name, value]) => [name, typeof value === 'string' ? value : undefined]))
			const channel = providerChannel(row, config.ENCRYPTION_KEY)
			const verdict = provider.verifyWebhook(channel, { method: req.method, headers, query, rawBody })
			if (verdict.verdict === 'refuse') throw new HttpError(verdict.status, 'channels:errors.webhookRefused')
			if (verdict.verdict === 'respond') {
				res.status(verdict.status).type('text/plain').send(verdict.body)
				return
			}
			let body: unknown
			try {
				body = JSON.parse(rawBody.toString('utf8'))
			} catch {
				throw new HttpError(400, 'errors.invalidJson')
			}
			// A customer's messages go to their queue of the channel, recorded in the order they came;
			// other customers' queues run beside it. Statuses need no order (they only move forward).
			const parts = webhookParts(provider.parseWebhook(channel, body))
			// Several customers in one webhook (Meta batches): their jobs are kept together or not at all;
			// a webhook with nothing to record (a field we do not take) needs no job.
			if (parts.length > 0)
				await addJobs(
					parts.map((part) => ({
						name: 'process-webhook',
						payload: { channelId: row.id, body, part },
						queueName: part === null ? undefined : `webhooks:${row.id}:${part}`,
					})),
				)
			res.status(200).json({ ok: true })
		}),
	)
	return router
}
