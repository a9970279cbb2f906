import { type ApiClient, type LabelJson } from './api.ts'

// The workspace's labels, as the API answers them (api/labels/router.ts).
const labelsOf = (workspaceId: string) => `/workspaces/${workspaceId}/labels`
const labelPath = (workspaceId: string, labelId: string) => `${labelsOf(workspaceId)}/${encodeURIComponent(labelId)}`

type LabelValues = { title: string; description?: string | null; color: string }

export const listLabels = (api: ApiClient, workspaceId: string) => api.get<{ labels: LabelJson[] }>(labelsOf(workspaceId)).then((answer) => answer.labels)

export const createLabel = (api: ApiClient, workspaceId: string, label: LabelValues) => api.post<LabelJson>(labelsOf(workspaceId), label)

export const updateLabel = (api: ApiClient, workspaceId: string, labelId: string, label: LabelValues) =>
	api.patch<LabelJson>(labelPath(workspaceId, labelId), label)

export const deleteLabel = (api: ApiClient, workspaceId: string, labelId: string) => api.delete(labelPath(workspaceId, labelId))
