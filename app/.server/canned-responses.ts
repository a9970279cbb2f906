import { type ApiClient, type CannedResponseJson } from './api.ts'

// A workspace's canned responses (api/canned-responses/router.ts).
const cannedOf = (workspaceId: string) => `/workspaces/${workspaceId}/canned-responses`
const cannedPath = (workspaceId: string, id: string) => `${cannedOf(workspaceId)}/${encodeURIComponent(id)}`

type CannedValues = { shortCode: string; content: string }

/** The canned responses whose short code or text has `search` (all without one). */
export const listCannedResponses = (api: ApiClient, workspaceId: string, search?: string) =>
	api.get<{ cannedResponses: CannedResponseJson[] }>(cannedOf(workspaceId), { search: search || undefined }).then((answer) => answer.cannedResponses)

export const getCannedResponse = (api: ApiClient, workspaceId: string, id: string) => api.get<CannedResponseJson>(cannedPath(workspaceId, id))

export const createCannedResponse = (api: ApiClient, workspaceId: string, canned: CannedValues) => api.post<CannedResponseJson>(cannedOf(workspaceId), canned)

export const updateCannedResponse = (api: ApiClient, workspaceId: string, id: string, canned: CannedValues) =>
	api.patch<CannedResponseJson>(cannedPath(workspaceId, id), canned)

export const deleteCannedResponse = (api: ApiClient, workspaceId: string, id: string) => api.delete(cannedPath(workspaceId, id))
