import { Router } from 'express'
import { z } from 'zod'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { storageFor } from './storage.ts'
import { contentDisposition, servedType } from './serving.ts'

const attachmentParams = z.object({ attachmentId: z.string().uuid() })

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
			const attachment = await db.selectFrom('attachments').selectAll().where('id', '=', attachmentId).where('workspaceId', '=', workspace.id).executeTakeFirst()
			const file = attachment?.status === 'stored' && attachment.storageKey ? await storage.open(attachment.storageKey) : null
			if (!attachment || !file) throw attachmentNotFound()
			const { type, inline } = servedType(attachment.contentType)
			res.status(200)
			res.setHeader('Content-Type', type)
			res.setHeader('Content-Length', String(file.size))
			res.setHeader('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', attachment.filename))
			res.setHeader('X-Content-Type-Options', 'nosniff')
			// Even opened directly, a file is never a page: no script, no plugin, no frame of ours.
			res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
			res.setHeader('Cache-Control', 'private, max-age=3600')
			file.stream.on('error', () => res.destroy())
			file.stream.pipe(res)
		}),
	)
	return router
}
