import { parseWithZod } from '@conform-to/zod'
import { workspaceSchema } from '#app/components/workspace-form.schema.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { replyInvalid, replyWithApiError } from './forms.ts'
import { type ApiClient, type OverviewJson } from './api.ts'
import { type SignedIn, type User, type Workspace } from './session.ts'
import { redirectWithToast } from './toast.ts'
import { formOf } from '#app/utils/http.ts'

/** The action of the workspace form (setup-workspace and create): the new workspace becomes the current one. */
export async function createWorkspace(request: Request, { locale, api }: SignedIn) {
	const submission = parseWithZod(await formOf(request), { schema: workspaceSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	try {
		await api.post<Workspace>('/workspaces', submission.value)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn: { locale, request } })
	}
	const t = await serverT(locale)
	return redirectWithToast(`/${locale}/dashboard`, { type: 'success', title: t('workspaces.created', { name: submission.value.name }) })
}

export type WorkspacePage = { workspaces: Workspace[]; page: number; limit: number; total: number }

/** A page of the user's workspaces whose name has `search`. */
export const listMyWorkspaces = (api: ApiClient, query: { page?: string | number | null; search?: string; limit?: number } = {}) =>
	api.get<WorkspacePage>('/user/workspaces', query)

export const getWorkspace = (api: ApiClient, workspaceId: string) => api.get<Workspace>(`/workspaces/${encodeURIComponent(workspaceId)}`)

/** Makes another of the user's workspaces the current one; the answer is the user, in it. */
export const switchWorkspace = (api: ApiClient, workspaceId: string) => api.put<User>('/workspaces/switch', { workspaceId })

export const updateWorkspace = (api: ApiClient, workspaceId: string, changes: object) =>
	api.patch<Workspace>(`/workspaces/${encodeURIComponent(workspaceId)}`, changes)

/** Deletes a workspace: its owner types its name to confirm. */
export const deleteWorkspace = (api: ApiClient, workspaceId: string, confirmName: string) =>
	api.delete(`/workspaces/${encodeURIComponent(workspaceId)}`, { confirmName })

/** What the home page counts: members, pending invitations, contacts, channels. */
export const workspaceOverview = (api: ApiClient, workspaceId: string) => api.get<OverviewJson>(`/workspaces/${workspaceId}/overview`)
