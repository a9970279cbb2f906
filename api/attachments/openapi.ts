import { z } from 'zod'
import { attachmentKinds } from '#api/db/schema.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type AttachmentJson } from './queries.ts'
import { attachmentParams } from './router.ts'

/** A file of a message; its bytes are at `/v1/workspaces/{id}/attachments/{attachmentId}`. */
export const attachmentAnswer = answerSchema<AttachmentJson>()(
	z
		.object({
			id: z.string().uuid(),
			kind: z.enum(attachmentKinds),
			filename: z.string(),
			contentType: z.string(),
			size: z.number().int().nullable(),
			status: z.enum(['stored', 'too-large', 'failed']),
		})
		.openapi('Attachment'),
)

/** `/v1/workspaces/{id}/attachments` (router.ts). */
export function documentAttachments(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/:attachmentId',
		summary: 'A file’s bytes',
		description: 'To members of its workspace only; anyone else gets the same 404 as for a file that does not exist.',
		params: [workspaceParams, attachmentParams],
		responses: { 200: { description: 'The file, in its own media type.', type: 'application/octet-stream', schema: z.string().openapi({ format: 'binary' }) } },
	})
}
