import { type ApiClient, type MemberJson } from './api.ts'

// A workspace's members (api/workspaces/members.ts).
const membersOf = (workspaceId: string) => `/workspaces/${workspaceId}/members`
const memberPath = (workspaceId: string, userId: string) => `${membersOf(workspaceId)}/${encodeURIComponent(userId)}`

export type MemberPage = { members: MemberJson[]; page: number; limit: number; total: number }

/** A page of the members whose name or address has `search`. */
export const listMembers = (api: ApiClient, workspaceId: string, query: { page?: string | number | null; search?: string; limit?: number } = {}) =>
	api.get<MemberPage>(membersOf(workspaceId), query)

/** The first hundred members: whom a filter or an assignment offers. */
export const firstMembers = (api: ApiClient, workspaceId: string) => listMembers(api, workspaceId, { limit: 100 }).then((page) => page.members)

// What the team page posts goes as it is: the API checks it and says why it refuses.
export const changeRole = (api: ApiClient, workspaceId: string, userId: string, role: unknown) =>
	api.patch<MemberJson>(memberPath(workspaceId, userId), { role })

/** The signed-in user as a member of the workspace: their role, availability and capacity. */
export const myMembership = (api: ApiClient, workspaceId: string) => api.get<MemberJson>(`${membersOf(workspaceId)}/me`)

/** An owner's or admin's change to a member's capacity (null: the workspace's default). */
export const setCapacity = (api: ApiClient, workspaceId: string, userId: string, capacity: number | null) =>
	api.patch<MemberJson>(memberPath(workspaceId, userId), { capacity })

export const setAvailability = (api: ApiClient, workspaceId: string, availability: unknown) =>
	api.patch<MemberJson>(`${membersOf(workspaceId)}/me`, { availability })

export const removeMember = (api: ApiClient, workspaceId: string, userId: string) => api.delete(memberPath(workspaceId, userId))

export const resetTwoFactor = (api: ApiClient, workspaceId: string, userId: string) => api.post(`${memberPath(workspaceId, userId)}/two-factor/reset`)

export const transferOwnership = (api: ApiClient, workspaceId: string, userId: string) => api.post(`/workspaces/${workspaceId}/transfer-ownership`, { userId })

export const leaveWorkspace = (api: ApiClient, workspaceId: string) => api.post(`/workspaces/${workspaceId}/leave`)
