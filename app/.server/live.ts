import { ApiError, type ApiClient } from './api.ts'

/** The number of the workspace channel's last event, or null when it cannot be read (the page then reloads on the next event). */
export async function lastEvent(api: ApiClient, workspaceId: string): Promise<number | null> {
	return api
		.get<{ seq: number }>(`/workspaces/${workspaceId}/events/last`)
		.then((answer) => answer.seq)
		.catch((error: unknown) => {
			if (error instanceof ApiError && error.statusCode === 401) throw error
			return null
		})
}
