import { type ApiClient, type InvitationJson } from './api.ts'

// A workspace's invitations, as its managers see them on the agents page (api/workspaces/invitations.ts).
// The invitation a visitor arrived with is invitation.ts's.
const invitationsOf = (workspaceId: string) => `/workspaces/${workspaceId}/invitations`
const invitationPath = (workspaceId: string, invitationId: string) => `${invitationsOf(workspaceId)}/${encodeURIComponent(invitationId)}`

export const listInvitations = (api: ApiClient, workspaceId: string) =>
	api.get<{ invitations: InvitationJson[] }>(invitationsOf(workspaceId)).then((answer) => answer.invitations)

export const createInvitation = (api: ApiClient, workspaceId: string, invitation: object) => api.post<InvitationJson>(invitationsOf(workspaceId), invitation)

/** Sends an e-mail invitation again; the API says so in the user's language. */
export const resendInvitation = (api: ApiClient, workspaceId: string, invitationId: string) =>
	api.post<{ message: string }>(`${invitationPath(workspaceId, invitationId)}/resend`)

export const revokeInvitation = (api: ApiClient, workspaceId: string, invitationId: string) => api.delete(invitationPath(workspaceId, invitationId))
