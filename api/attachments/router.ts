import { Router } from 'express'
import { z } from 'zod'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { readerOf, visibleTo } from '#api/conversations/visibility.ts'
import { storageFor } from './storage.ts'
import { sendAttachment } from './serving.ts'

export const attachmentParams = z.object({ attachmentId: z.string().uuid() })

export const attachmentNotFound = () => new HttpError(404, 'inbox:errors.attachmentNotFound')

/**
 * `/v1/workspaces/:id/attachments/:attachmentId`: a file's bytes, to members of its workspace who see its conversation only
 * (anyone else, members of other workspaces too, gets the same 404 as for a file that does not exist).
 */
export function attachmentsRouter({ db, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))
	const storage = storageFor(config)

	router.get(
		'/:attachmentId',
		handler(async (req, res) => {
			const membership = await requireMember(db, req)
			const { workspace } = membership
			const { attachmentId } = parseParams(req, attachmentParams, attachmentNotFound)
			// A file of a conversation the member does not see (their teams' only) is one that does not exist.
			const attachment = await db
				.selectFrom('attachments')
				.innerJoin('messages', 'messages.id', 'attachments.messageId')
				.innerJoin('conversations', 'conversations.id', 'messages.conversationId')
				.selectAll('attachments')
				.where('attachments.id', '=', attachmentId)
				.where('attachments.workspaceId', '=', workspace.id)
				.where(visibleTo(workspace.id, readerOf(req, membership)))
				.executeTakeFirst()
			if (!attachment || !(await sendAttachment(res, storage, attachment))) throw attachmentNotFound()
		}),
	)
	return router
}
