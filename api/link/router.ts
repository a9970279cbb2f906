import { Router, type Request } from 'express'
import { attachmentNotFound, attachmentParams } from '#api/attachments/router.ts'
import { sendAttachment } from '#api/attachments/serving.ts'
import { storageFor } from '#api/attachments/storage.ts'
import { hashToken } from '#api/auth/tokens.ts'
import { type ApiContext } from '#api/context.ts'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { HttpError } from '#api/http/errors.ts'
import { clientAddressKey } from '#api/http/client-address.ts'
import { handler } from '#api/http/handler.ts'
import { consumeAll, createRateLimits } from '#api/http/rate-limit.ts'
import { parseRequest } from '#api/http/validate.ts'
import { parseParams } from '#api/workspaces/membership.ts'
import { channelSubject } from '#common/realtime.ts'
import { messageEvent, publishEvents } from '#api/conversations/events.ts'
import { rateConversation } from '#api/satisfaction/surveys.ts'
import {
	findLinkChannel,
	hasIdentity,
	markRepliesRead,
	visitorAttachment,
	visitorConversationId,
	visitorSurvey,
	visitorThread,
	type VisitorMessageJson,
} from './queries.ts'
import {
	linkParams,
	markReadBody,
	postVisitorMessageBody,
	rateConversationBody,
	visitorRealtimeAuthBody,
	visitorThreadQuery,
	visitorTokenHeader,
	visitorTokenSchema,
} from './schemas.ts'

const minute = 60

/**
 * Messages a visitor may send: per visitor (their token) and per address, which catches a script that
 * changes tokens. Marking replies read: the page asks when it is seen and when a reply comes, far less.
 */
export const linkLimitRules = {
	linkVisitor: { points: 20, seconds: minute },
	linkIp: { points: 60, seconds: minute },
	linkReadVisitor: { points: 30, seconds: minute },
	linkReadIp: { points: 120, seconds: minute },
}

function linkNotFound() {
	return new HttpError(404, 'channels:errors.linkNotFound')
}

/** The visitor's identity on a link channel: the SHA-256 of their token, so the database never holds the token itself. */
function visitorId(req: Request): string {
	const token = visitorTokenSchema.safeParse(req.get(visitorTokenHeader))
	if (!token.success) throw new HttpError(400, 'channels:errors.visitorToken')
	return hashToken(token.data)
}

/**
 * `/v1/link/{slug}`: the public side of a link channel, no account. Anyone reads the page (`GET`);
 * a visitor, named by the `X-Visitor-Token` header, writes, reads their own thread and signs their
 * own realtime channel. An unknown or switched-off slug answers 404 everywhere.
 */
export function linkRouter({ db, realtime, config }: ApiContext): Router {
	const router = Router()
	const storage = storageFor(config)
	const limits = createRateLimits(db, linkLimitRules)

	async function requireLink(req: Request) {
		const { slug } = parseParams(req, linkParams, linkNotFound)
		const link = await findLinkChannel(db, slug, req.locale)
		if (!link) throw linkNotFound()
		return link
	}

	router.get(
		'/:slug',
		handler(async (req, res) => {
			const { page } = await requireLink(req)
			res.json(page)
		}),
	)

	router.get(
		'/:slug/messages',
		handler(async (req, res) => {
			const { channel } = await requireLink(req)
			const externalId = visitorId(req)
			const query = parseRequest(req, 'query', visitorThreadQuery)
			const conversationId = await visitorConversationId(db, channel.id, externalId)
			if (!conversationId) return res.json({ conversationId, survey: null, messages: [], olderCursor: null })
			const [thread, survey] = await Promise.all([visitorThread(db, conversationId, query), visitorSurvey(db, conversationId)])
			res.json({ conversationId, survey, ...thread })
		}),
	)

	router.post(
		'/:slug/messages',
		handler(async (req, res) => {
			const { channel, page } = await requireLink(req)
			const externalId = visitorId(req)
			await consumeAll([
				[limits.linkVisitor, externalId],
				[limits.linkIp, clientAddressKey(req)],
			])
			const body = parseRequest(req, 'body', postVisitorMessageBody)
			const known = await hasIdentity(db, channel.id, externalId)
			// The pre-chat form asks once: before the visitor's first message.
			const missing: Record<string, string[]> = {}
			if (!known && page.askName && !body.name) missing.name = [req.t('channels:validation.nameRequired')]
			if (!known && page.askEmail && !body.email) missing.email = [req.t('channels:validation.emailRequired')]
			if (Object.keys(missing).length > 0) throw new HttpError(400, 'errors.validation', { details: { source: 'body', fields: missing } })

			// What the form did not ask is not taken. A new visitor is a new contact: the e-mail they type is their claim, kept
			// as such (an agent may merge them into the contact it names); it never makes them that contact (issue 26).
			const name = (page.askName && body.name) || req.t('channels:link.visitorName', { code: externalId.slice(0, 6) })
			const unverifiedEmail = page.askEmail ? body.email : undefined
			const { message } = await receiveMessage(db, realtime, {
				channel,
				from: { externalId, name, unverifiedEmail },
				body: body.body,
				// The page's locale (its Accept-Language): the visitor reads the page in it.
				locale: req.locale,
				optOutWords: config.OPT_OUT_WORDS,
			})
			const json: VisitorMessageJson = {
				id: message.id,
				direction: message.direction,
				body: message.body,
				senderName: null,
				attachments: [],
				createdAt: message.createdAt.toISOString(),
			}
			res.status(201).json({ conversationId: await visitorConversationId(db, channel.id, externalId), message: json })
		}),
	)

	/** The visitor rates their resolved conversation (1 to 5, and a comment), once: a survey already answered, ended or never asked is a 409. */
	router.post(
		'/:slug/satisfaction',
		handler(async (req, res) => {
			const { channel } = await requireLink(req)
			const externalId = visitorId(req)
			await consumeAll([
				[limits.linkVisitor, externalId],
				[limits.linkIp, clientAddressKey(req)],
			])
			const answer = parseRequest(req, 'body', rateConversationBody)
			const conversationId = await visitorConversationId(db, channel.id, externalId)
			const rated = conversationId ? await db.transaction().execute((trx) => rateConversation(trx, conversationId, answer)) : null
			if (!rated) throw new HttpError(409, 'channels:errors.surveyClosed')
			void publishEvents(db, realtime, rated.events)
			res.json({ survey: rated.survey })
		}),
	)

	/**
	 * The visitor has the team's replies on screen, up to `upTo`: they are read, in the visitor's own
	 * conversation only, and the agents' threads hear it as they hear other channels' read receipts.
	 */
	router.post(
		'/:slug/read',
		handler(async (req, res) => {
			const { channel } = await requireLink(req)
			const externalId = visitorId(req)
			await consumeAll([
				[limits.linkReadVisitor, externalId],
				[limits.linkReadIp, clientAddressKey(req)],
			])
			const { upTo } = parseRequest(req, 'body', markReadBody)
			const conversationId = await visitorConversationId(db, channel.id, externalId)
			const read = conversationId ? await markRepliesRead(db, conversationId, upTo) : []
			if (conversationId && read.length > 0) {
				const conversation = await db
					.selectFrom('conversations')
					.select(['id', 'workspaceId', 'number'])
					.where('id', '=', conversationId)
					.executeTakeFirstOrThrow()
				void publishEvents(
					db,
					realtime,
					read.map((message) => messageEvent('message.updated', conversation, message)),
				)
			}
			res.status(204).end()
		}),
	)

	/** A file the team sent in the visitor's own conversation; any other (a note's, another visitor's, another channel's) is a 404. */
	router.get(
		'/:slug/attachments/:attachmentId',
		handler(async (req, res) => {
			const { channel } = await requireLink(req)
			const externalId = visitorId(req)
			const { attachmentId } = parseParams(req, attachmentParams, attachmentNotFound)
			const conversationId = await visitorConversationId(db, channel.id, externalId)
			const attachment = conversationId ? await visitorAttachment(db, conversationId, attachmentId) : undefined
			if (!attachment || !(await sendAttachment(res, storage, attachment))) throw attachmentNotFound()
		}),
	)

	router.post(
		'/:slug/realtime/auth',
		handler(async (req, res) => {
			const { channel } = await requireLink(req)
			const externalId = visitorId(req)
			const body = parseRequest(req, 'body', visitorRealtimeAuthBody)
			const subject = channelSubject(body.channel_name)
			const conversationId = subject?.kind === 'visitor' ? await visitorConversationId(db, channel.id, externalId) : null
			if (!subject || subject.id !== conversationId) throw new HttpError(403, 'channels:errors.channelForbidden')
			res.json(realtime.authorizeChannel(body.socket_id, body.channel_name))
		}),
	)

	return router
}
