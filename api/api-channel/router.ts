import { Router, type Request } from 'express'
import { sql } from 'kysely'
import { type NewAttachment } from '#api/attachments/inbound.ts'
import { storageFor } from '#api/attachments/storage.ts'
import { isMultipart, readUpload } from '#api/attachments/upload.ts'
import { type ApiContext } from '#api/context.ts'
import { messageEvent, publishEvents } from '#api/conversations/events.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { type DeliveryStatus } from '#api/db/schema.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { apiChannelParams, apiMessageParams, deliveryReportBody, inboundMessageBody, nestedFields } from './schemas.ts'

/** A customer's message with a file, the API channel's one multipart request (read by busboy, not as JSON). */
export function isChannelMessageUpload(req: Request): boolean {
	return req.method === 'POST' && /^\/workspaces\/[^/]+\/channels\/[^/]+\/messages\/?$/.test(req.path) && isMultipart(req)
}

// A status only moves forward: a late "delivered" never undoes "read"; `failed` ends it wherever it was.
const progress: Record<DeliveryStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 4 }
const progressOf = sql<number>`case status when 'pending' then 0 when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 4 end`

const channelNotFound = () => new HttpError(404, 'channels:errors.notFound')

/**
 * `/v1/workspaces/:id/channels/:channelId/messages`: an integration hands over its customers' messages
 * on an API channel, through the inbound path every provider's webhook takes (contact, conversation,
 * rules, assignment, auto-replies, surveys, notifications), and reports what became of the team's replies.
 */
export function apiChannelRouter({ db, realtime, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))
	const storage = storageFor(config)

	/** The workspace's API channel of the path; any other (another kind, another workspace's) is one that does not exist. */
	async function requireApiChannel(req: Request) {
		const { workspace } = await requireMember(db, req)
		const { channelId } = parseParams(req, apiChannelParams, channelNotFound)
		const channel = await db
			.selectFrom('channels')
			.selectAll()
			.where('workspaceId', '=', workspace.id)
			.where('id', '=', channelId)
			.where('kind', '=', 'api')
			.executeTakeFirst()
		if (!channel) throw channelNotFound()
		return channel
	}

	router.post(
		'/',
		handler(async (req, res) => {
			const channel = await requireApiChannel(req)
			// A file comes in a multipart form, read only once the caller is known to be a member of the channel's workspace.
			const upload = isMultipart(req) ? await readUpload(req, storage, config.UPLOAD_MAX_BYTES) : null
			const file: NewAttachment | null = upload?.file ?? null
			try {
				if (upload) req.body = nestedFields(upload.fields)
				const body = parseRequest(req, 'body', inboundMessageBody)
				if (!body.text && !file) throw fieldError(req, 422, 'text', 'channels:api.errors.empty')
				// A switched-off channel takes nothing in, as a provider's webhook on it is left alone.
				if (!channel.enabled) throw new HttpError(422, 'inbox:errors.channelOff', { values: { name: channel.name } })
				const { contact } = body
				const received = await receiveMessage(db, realtime, {
					channel,
					from: {
						externalId: contact.externalId,
						name: contact.name || contact.externalId,
						unverifiedEmail: contact.email ?? null,
						phone: contact.phone ?? null,
					},
					externalId: body.externalId ?? null,
					body: body.text,
					attachments: file ? [file] : [],
					optOutWords: config.OPT_OUT_WORDS,
				})
				if (received.duplicate && file?.storageKey) await storage.remove(file.storageKey)
				res.status(received.duplicate ? 200 : 201).json({
					conversationId: received.conversation.id,
					conversationNumber: received.conversation.number,
					messageId: String(received.message.id),
					duplicate: received.duplicate,
				})
			} catch (error) {
				if (file?.storageKey) await storage.remove(file.storageKey)
				throw error
			}
		}),
	)

	/** What became of a reply the integration was given (its callback's `message.created`): delivered, read, or failed with why. */
	router.post(
		'/:messageId/status',
		handler(async (req, res) => {
			const channel = await requireApiChannel(req)
			const { messageId } = parseParams(req, apiMessageParams, () => new HttpError(404, 'inbox:errors.messageNotFound'))
			const report = parseRequest(req, 'body', deliveryReportBody)
			const message = await db
				.selectFrom('messages')
				.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
				.select(['messages.id', 'messages.kind', 'messages.direction', 'messages.conversationId', 'conversations.number', 'conversations.workspaceId'])
				.where('messages.channelId', '=', channel.id)
				.where('messages.id', '=', messageId)
				.where('messages.direction', '=', 'outgoing')
				.where('messages.kind', '=', 'text')
				.executeTakeFirst()
			if (!message) throw new HttpError(404, 'inbox:errors.messageNotFound')
			const updated = await db
				.updateTable('messages')
				.set({ status: report.status, error: report.status === 'failed' ? (report.error ?? null) : null, updatedAt: sql<Date>`now()` })
				.where('id', '=', messageId)
				.where(progressOf, '<', progress[report.status])
				.returning('status')
				.executeTakeFirst()
			if (updated) {
				const conversation = { id: message.conversationId, workspaceId: message.workspaceId, number: message.number }
				await publishEvents(db, realtime, [messageEvent('message.updated', conversation, message)])
			}
			const current = updated ?? (await db.selectFrom('messages').select('status').where('id', '=', messageId).executeTakeFirstOrThrow())
			res.json({ messageId, status: current.status })
		}),
	)

	return router
}
