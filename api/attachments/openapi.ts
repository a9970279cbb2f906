import { z } from 'zod'
import { type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { attachmentParams } from './router.ts'

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
