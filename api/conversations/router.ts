import { Router, type Request } from 'express'
import { sql } from 'kysely'
import { type NewAttachment } from '#api/attachments/inbound.ts'
import { isMultipart, readUpload } from '#api/attachments/upload.ts'
import { storageFor } from '#api/attachments/storage.ts'
import { type ApiContext } from '#api/context.ts'
import { type DB } from '#api/db/database.ts'
import { type Conversation, type Workspace } from '#api/db/schema.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { addJob } from '#api/jobs/queue.ts'
import { providerFor } from '#api/channels/providers/index.ts'
import { approvedTemplate, fillTemplate } from '#api/channels/templates.ts'
import { existingLabelIds } from '#api/labels/queries.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { changeConversation, changeLabels, lockConversations, markRead, postMessage, type Actor, type MessageInput } from './actions.ts'
import { encodeCursor } from './cursor.ts'
import { messageEvent, publishEvents, type InboxEvent } from './events.ts'
import { type ConversationJson, type ConversationListJson, type ConversationViewJson, type InboxSummaryJson, type MessagePageJson } from './json.ts'
import { conversationList, conversationView, findConversation, findMessage, inboxSummary, messagesPage } from './queries.ts'
import {
	bulkBody,
	conversationParams,
	createMessageBody,
	type CreateMessageBody,
	messageParams,
	messageWithFileBody,
	listConversationsQuery,
	listMessagesQuery,
	replaceLabelsBody,
	updateConversationBody,
	viewConversationQuery,
} from './schemas.ts'
import { everyone, readerOf, visibleTo, type Reader } from './visibility.ts'

/** A reply with a file: the one request of the API that comes as `multipart/form-data`. */
export function isMessageUpload(req: Request): boolean {
	return req.method === 'POST' && /^\/workspaces\/[^/]+\/conversations\/[^/]+\/messages\/?$/.test(req.path) && isMultipart(req)
}

export function conversationNotFound() {
	return new HttpError(404, 'inbox:errors.conversationNotFound')
}

/**
 * `/v1/workspaces/:id/conversations`: every member reads, replies, writes notes, assigns, changes
 * the status and labels (PRODUCT.md, Roles); anyone else learns nothing (404). Events are published
 * once the change committed.
 */
export function conversationsRouter({ db, realtime, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	const actorOf = (req: Request): Actor => ({ id: req.user.id, name: req.user.name })
	const storage = storageFor(config)

	/**
	 * The caller's workspace, and which of its conversations they see: all of them, or their teams' and
	 * their own (api/conversations/visibility.ts). Any other is answered as one that does not exist.
	 */
	async function requireReader(req: Request): Promise<{ workspace: Workspace; reader: Reader }> {
		const membership = await requireMember(db, req)
		return { workspace: membership.workspace, reader: readerOf(req, membership) }
	}

	/** The conversation of the path's number, locked in `trx`; 404 when the workspace has none the reader sees. */
	async function lockConversation(trx: DB, req: Request, workspaceId: string, reader: Reader): Promise<Conversation> {
		const { number } = parseParams(req, conversationParams, conversationNotFound)
		const [conversation] = await lockConversations(trx, workspaceId, [number], reader)
		if (!conversation) throw conversationNotFound()
		return conversation
	}

	/**
	 * The conversation as the reader sees it. After a change of theirs, read whoever they are: an agent
	 * who hands a conversation over to another team is answered with what they did.
	 */
	async function conversationAnswer(req: Request, workspaceId: string, number: number, reader = everyone(req.user.id)): Promise<ConversationJson> {
		const conversation = await findConversation(db, workspaceId, number, reader)
		if (!conversation) throw conversationNotFound()
		return conversation
	}

	/** The assignee's name, when they are a member of the workspace (422 otherwise, beside the field). */
	async function requireAssignee(trx: DB, req: Request, workspaceId: string, assigneeId: string | null | undefined): Promise<string | undefined> {
		if (!assigneeId) return undefined
		const member = await trx
			.selectFrom('members')
			.innerJoin('users', 'users.id', 'members.userId')
			.select('users.name')
			.where('members.workspaceId', '=', workspaceId)
			.where('members.userId', '=', assigneeId)
			.executeTakeFirst()
		if (!member) throw fieldError(req, 422, 'assigneeId', 'inbox:errors.assigneeNotMember')
		return member.name
	}

	/** The team's name, when it is one of the workspace's (422 otherwise, beside the field). */
	async function requireTeam(trx: DB, req: Request, workspaceId: string, teamId: string | null | undefined): Promise<string | undefined> {
		if (!teamId) return undefined
		// Held until the change commits: the team cannot be deleted in between.
		const team = await trx.selectFrom('teams').select('name').where('workspaceId', '=', workspaceId).where('id', '=', teamId).forKeyShare().executeTakeFirst()
		if (!team) throw fieldError(req, 422, 'teamId', 'inbox:errors.teamNotInWorkspace')
		return team.name
	}

	async function requireLabels(trx: DB, req: Request, workspaceId: string, field: string, labelIds: string[]) {
		const known = await existingLabelIds(trx, workspaceId, labelIds)
		if (known.size < labelIds.length) throw fieldError(req, 422, field, 'inbox:errors.unknownLabels')
	}

	function announce(events: InboxEvent[]) {
		void publishEvents(db, realtime, events)
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const query = parseRequest(req, 'query', listConversationsQuery)
			const { page, counts, countsLimit } = await conversationList(db, workspace.id, reader, query)
			const body: ConversationListJson = { conversations: page.conversations, nextCursor: page.next ? encodeCursor(page.next) : null, counts, countsLimit }
			res.json(body)
		}),
	)

	router.get(
		'/summary',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const body: InboxSummaryJson = await inboxSummary(db, workspace.id, reader)
			res.json(body)
		}),
	)

	router.post(
		'/bulk',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const body = parseRequest(req, 'body', bulkBody)
			const actor = actorOf(req)
			const { updated, events } = await db.transaction().execute(async (trx) => {
				const conversations = await lockConversations(trx, workspace.id, body.numbers, reader)
				const assigneeName = body.action === 'assign' ? await requireAssignee(trx, req, workspace.id, body.assigneeId) : undefined
				const teamName = body.action === 'team' ? await requireTeam(trx, req, workspace.id, body.teamId) : undefined
				if (body.labelId) await requireLabels(trx, req, workspace.id, 'labelId', [body.labelId])
				const events: InboxEvent[] = []
				for (const conversation of conversations) {
					if (body.action === 'assign')
						events.push(...(await changeConversation(trx, conversation, { assigneeId: body.assigneeId, assigneeName }, actor)).events)
					if (body.action === 'team') events.push(...(await changeConversation(trx, conversation, { teamId: body.teamId, teamName }, actor)).events)
					if (body.action === 'status')
						events.push(...(await changeConversation(trx, conversation, { status: body.status, snoozedUntil: body.snoozedUntil }, actor)).events)
					if (body.action === 'addLabel') events.push(...(await changeLabels(trx, conversation, { add: [body.labelId!], remove: [] }, actor)))
					if (body.action === 'removeLabel') events.push(...(await changeLabels(trx, conversation, { add: [], remove: [body.labelId!] }, actor)))
				}
				return { updated: conversations.length, events }
			})
			announce(events)
			res.json({ updated })
		}),
	)

	router.get(
		'/:number',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			res.json(await conversationAnswer(req, workspace.id, number, reader))
		}),
	)

	router.patch(
		'/:number',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			const changes = parseRequest(req, 'body', updateConversationBody)
			const { events } = await db.transaction().execute(async (trx) => {
				const conversation = await lockConversation(trx, req, workspace.id, reader)
				const assigneeName = await requireAssignee(trx, req, workspace.id, changes.assigneeId)
				const teamName = await requireTeam(trx, req, workspace.id, changes.teamId)
				return changeConversation(trx, conversation, { ...changes, assigneeName, teamName }, actorOf(req))
			})
			announce(events)
			res.json(await conversationAnswer(req, workspace.id, number))
		}),
	)

	router.put(
		'/:number/labels',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			const { labelIds } = parseRequest(req, 'body', replaceLabelsBody)
			const events = await db.transaction().execute(async (trx) => {
				const conversation = await lockConversation(trx, req, workspace.id, reader)
				await requireLabels(trx, req, workspace.id, 'labelIds', labelIds)
				const current = await trx.selectFrom('conversationLabels').select('labelId').where('conversationId', '=', conversation.id).execute()
				const had = new Set(current.map((row) => row.labelId))
				const add = labelIds.filter((labelId) => !had.has(labelId))
				const remove = [...had].filter((labelId) => !labelIds.includes(labelId))
				return changeLabels(trx, conversation, { add, remove }, actorOf(req))
			})
			announce(events)
			res.json(await conversationAnswer(req, workspace.id, number))
		}),
	)

	router.get(
		'/:number/messages',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			const query = parseRequest(req, 'query', listMessagesQuery)
			const conversation = await db
				.selectFrom('conversations')
				.select('id')
				.where('workspaceId', '=', workspace.id)
				.where('number', '=', number)
				.where(visibleTo(workspace.id, reader))
				.executeTakeFirst()
			if (!conversation) throw conversationNotFound()
			const body: MessagePageJson = await messagesPage(db, conversation.id, query)
			res.json(body)
		}),
	)

	router.get(
		'/:number/view',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			const query = parseRequest(req, 'query', viewConversationQuery)
			const body: ConversationViewJson | undefined = await conversationView(db, workspace.id, number, reader, query)
			if (!body) throw conversationNotFound()
			res.json(body)
		}),
	)

	router.post(
		'/:number/messages',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			// A file comes in a multipart form (read only once the caller is known to be a member), the rest as JSON.
			const upload = isMultipart(req) ? await readUpload(req, storage, config.UPLOAD_MAX_BYTES) : null
			const file: NewAttachment | null = upload?.file ?? null
			try {
				if (upload) req.body = upload.fields
				const body = file ? { ...parseRequest(req, 'body', messageWithFileBody), attachment: file } : parseRequest(req, 'body', createMessageBody)
				const input = await replyOnChannel(req, workspace.id, reader, number, body)
				const { message, events } = await db
					.transaction()
					.execute(async (trx) => postMessage(trx, await lockConversation(trx, req, workspace.id, reader), input, actorOf(req)))
				announce(events)
				res.status(201).json(await findMessage(db, String(message.id)))
			} catch (error) {
				if (file?.storageKey) await storage.remove(file.storageKey)
				throw error
			}
		}),
	)

	/** Sends a failed reply again: pending once more, through a new `send-message` job. Only a failed one (409 otherwise). */
	router.post(
		'/:number/messages/:messageId/retry',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number, messageId } = parseParams(req, messageParams, conversationNotFound)
			const message = await db
				.selectFrom('messages')
				.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
				.select([
					'messages.id',
					'messages.status',
					'messages.kind',
					'messages.direction',
					'conversations.id as conversationId',
					'conversations.number',
					'conversations.workspaceId',
				])
				.where('conversations.workspaceId', '=', workspace.id)
				.where('conversations.number', '=', number)
				.where('messages.id', '=', messageId)
				.where(visibleTo(workspace.id, reader))
				.executeTakeFirst()
			if (!message) throw new HttpError(404, 'inbox:errors.messageNotFound')
			const retried = await db.transaction().execute(async (trx) => {
				const updated = await trx
					.updateTable('messages')
					.set({ status: 'pending', error: null, updatedAt: sql<Date>`now()` })
					.where('id', '=', messageId)
					.where('status', '=', 'failed')
					.returning('id')
					.executeTakeFirst()
				if (updated) await addJob(trx, 'send-message', { messageId })
				return updated
			})
			if (!retried) throw new HttpError(409, 'inbox:errors.notFailed')
			announce([messageEvent('message.updated', { id: message.conversationId, workspaceId: message.workspaceId, number: message.number }, message)])
			res.json(await findMessage(db, messageId))
		}),
	)

	router.post(
		'/:number/read',
		handler(async (req, res) => {
			const { workspace, reader } = await requireReader(req)
			const { number } = parseParams(req, conversationParams, conversationNotFound)
			const conversation = await db
				.selectFrom('conversations')
				.select(['id', 'incomingCount'])
				.where('workspaceId', '=', workspace.id)
				.where('number', '=', number)
				.where(visibleTo(workspace.id, reader))
				.executeTakeFirst()
			if (!conversation) throw conversationNotFound()
			await markRead(db, conversation, req.user.id)
			res.status(204).end()
		}),
	)

	/**
	 * What the channel allows: outside WhatsApp's 24-hour window only a template (422 for a free
	 * reply), outside Meta's (Messenger, Facebook, Instagram) nothing; a template is checked against
	 * the provider's approved ones and written out as the customer will read it.
	 */
	async function replyOnChannel(
		req: Request,
		workspaceId: string,
		reader: Reader,
		number: number,
		input: CreateMessageBody | MessageInput,
	): Promise<MessageInput> {
		if (input.kind === 'note') return input
		const found = await db
			.selectFrom('conversations')
			.innerJoin('channels', 'channels.id', 'conversations.channelId')
			.selectAll('channels')
			.select('conversations.id as conversationId')
			.where('conversations.workspaceId', '=', workspaceId)
			.where('conversations.number', '=', number)
			.where(visibleTo(workspaceId, reader))
			.executeTakeFirst()
		if (!found) throw conversationNotFound()
		// A switched-off channel reaches nobody (a chat link's page answers 404, a bot or number has no credentials in use).
		if (!found.enabled) throw new HttpError(422, 'inbox:errors.channelOff', { values: { name: found.name } })
		const provider = providerFor(found.kind)
		if (input.kind === 'text') {
			if (!provider?.replyWindowMs) return input
			const last = await db
				.selectFrom('messages')
				.select('createdAt')
				.where('conversationId', '=', found.conversationId)
				.where('direction', '=', 'incoming')
				.orderBy('id', 'desc')
				.limit(1)
				.executeTakeFirst()
			if (!last || Date.now() - last.createdAt.getTime() > provider.replyWindowMs) {
				// WhatsApp lets a template through after the window; Meta's Messenger Platform nothing until the customer writes again.
				throw new HttpError(422, provider.listTemplates ? 'inbox:errors.windowClosed' : 'inbox:errors.windowClosedUntilCustomer', {
					values: { hours: provider.replyWindowMs / 3_600_000, count: provider.replyWindowMs / 3_600_000 },
				})
			}
			return input
		}
		if (input.kind !== 'template') return input
		const template = await approvedTemplate(req, found, config, input.template)
		const body = fillTemplate(template.body, input.template.parameters)
		return { kind: 'text', body, template: input.template }
	}

	return router
}
