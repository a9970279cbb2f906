import { Router } from 'express'
import { z } from 'zod'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { storageFor } from './storage.ts'
import { sendAttachment } from './serving.ts'

export const attachmentParams = z.object({ attachmentId: z.string().uuid() })

export const attachmentNotFound = () => new HttpError(404, 'inbox:errors.attachmentNotFound')

/**
 * `/v1/workspaces/:id/attachments/:attachmentId`: a file's bytes, to members of its workspace only
 * (anyone else, members of other workspaces too, gets the same 404 as for a file that does not exist).
 */
export function attachmentsRouter({ db, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))
	const storage = storageFor(config)

	router.get(
		'/:attachmentId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { attachmentId } = parseParams(req, attachmentParams, attachmentNotFound)
			const attachment = await db
				.selectFrom('attachments')
				.selectAll()
				.where('id', '=', attachmentId)
				.where('workspaceId', '=', workspace.id)
				.executeTakeFirst()
			if (!attachment || !(await sendAttachment(res, storage, attachment))) throw attachmentNotFound()
		}),
	)
	return router
}
