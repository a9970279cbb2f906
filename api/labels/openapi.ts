import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type LabelJson, type LabelSummary } from './queries.ts'
import { createLabelBody, labelParams, updateLabelBody } from './schemas.ts'

const label = answerSchema<LabelJson>()(
	z
		.object({
			id: z.string().uuid(),
			title: z.string(),
			description: z.string().nullable(),
			color: z.string(),
			contactCount: z.number().int(),
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
		})
		.openapi('Label'),
)

/** What a contact or conversation shows of each of its labels. */
export const labelSummary = answerSchema<LabelSummary>()(z.object({ id: z.string().uuid(), title: z.string(), color: z.string() }).openapi('LabelSummary'))

/** `/v1/workspaces/{id}/labels` (router.ts): everyone reads, owners and admins write. */
export function documentLabels(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The labels',
		params: workspaceParams,
		responses: { 200: { description: 'The labels, by title.', schema: z.object({ labels: z.array(label) }) } },
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a label',
		description: 'Owners and admins.',
		params: workspaceParams,
		body: createLabelBody,
		responses: { 201: { description: 'The label.', schema: label } },
		errors: [403, 409],
	})
	docs.add({ method: 'get', path: '/:labelId', summary: 'A label', params: labelParams, responses: { 200: { description: 'The label.', schema: label } } })
	docs.add({
		method: 'patch',
		path: '/:labelId',
		summary: 'Change a label',
		description: 'Owners and admins.',
		params: labelParams,
		body: updateLabelBody,
		responses: { 200: { description: 'The label.', schema: label } },
		errors: [403, 409],
	})
	docs.add({
		method: 'delete',
		path: '/:labelId',
		summary: 'Delete a label',
		description: 'Owners and admins; contacts and conversations lose it.',
		params: labelParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
}
