import { type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { createLabelBody, labelParams, updateLabelBody } from './schemas.ts'

/** `/v1/workspaces/{id}/labels` (router.ts): everyone reads, owners and admins write. */
export function documentLabels(docs: ApiDocs) {
	docs.add({ method: 'get', path: '/', summary: 'The labels', params: workspaceParams, responses: { 200: '`{ labels }`.' } })
	docs.add({ method: 'post', path: '/', summary: 'Create a label', description: 'Owners and admins.', params: workspaceParams, body: createLabelBody, responses: { 201: 'The label.' }, errors: [403, 409] })
	docs.add({ method: 'get', path: '/:labelId', summary: 'A label', params: labelParams, responses: { 200: 'The label.' } })
	docs.add({ method: 'patch', path: '/:labelId', summary: 'Change a label', description: 'Owners and admins.', params: labelParams, body: updateLabelBody, responses: { 200: 'The label.' }, errors: [403, 409] })
	docs.add({ method: 'delete', path: '/:labelId', summary: 'Delete a label', description: 'Owners and admins; contacts and conversations lose it.', params: labelParams, responses: { 204: 'Deleted.' }, errors: [403] })
}
