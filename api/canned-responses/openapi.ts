import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type CannedResponseJson } from './queries.ts'
import { cannedParams, createCannedBody, listCannedQuery, updateCannedBody } from './schemas.ts'

const canned = answerSchema<CannedResponseJson>()(
	z
		.object({ id: z.string().uuid(), shortCode: z.string(), content: z.string(), createdAt: z.string().datetime(), updatedAt: z.string().datetime() })
		.openapi('CannedResponse'),
)

/** `/v1/workspaces/{id}/canned-responses` (router.ts): everyone reads, owners and admins write. */
export function documentCannedResponses(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The canned responses',
		params: workspaceParams,
		query: listCannedQuery,
		responses: { 200: { description: 'The canned responses, by short code.', schema: z.object({ cannedResponses: z.array(canned) }) } },
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a canned response',
		description: 'Owners and admins.',
		params: workspaceParams,
		body: createCannedBody,
		responses: { 201: { description: 'The canned response.', schema: canned } },
		errors: [403, 409],
	})
	docs.add({
		method: 'get',
		path: '/:cannedId',
		summary: 'A canned response',
		params: cannedParams,
		responses: { 200: { description: 'The canned response.', schema: canned } },
	})
	docs.add({
		method: 'patch',
		path: '/:cannedId',
		summary: 'Change a canned response',
		description: 'Owners and admins.',
		params: cannedParams,
		body: updateCannedBody,
		responses: { 200: { description: 'The canned response.', schema: canned } },
		errors: [403, 409],
	})
	docs.add({
		method: 'delete',
		path: '/:cannedId',
		summary: 'Delete a canned response',
		description: 'Owners and admins.',
		params: cannedParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
}
