import { type ApiClient, type TeamJson } from './api.ts'
import { listMembers } from './members.ts'

// The workspace's teams, as the API answers them (api/teams/router.ts).
const teamsOf = (workspaceId: string) => `/workspaces/${workspaceId}/teams`
const teamPath = (workspaceId: string, teamId: string) => `${teamsOf(workspaceId)}/${encodeURIComponent(teamId)}`

type TeamValues = { name: string; description: string | null; autoAssign: boolean; notifyAfter: number }

export const listTeams = (api: ApiClient, workspaceId: string) => api.get<{ teams: TeamJson[] }>(teamsOf(workspaceId)).then((answer) => answer.teams)

export const createTeam = (api: ApiClient, workspaceId: string, team: TeamValues & { userIds: string[] }) => api.post<TeamJson>(teamsOf(workspaceId), team)

export const updateTeam = (api: ApiClient, workspaceId: string, teamId: string, team: TeamValues) => api.patch<TeamJson>(teamPath(workspaceId, teamId), team)

/** The team's members become exactly `userIds`. */
export const replaceTeamMembers = (api: ApiClient, workspaceId: string, teamId: string, userIds: string[]) =>
	api.put<TeamJson>(`${teamPath(workspaceId, teamId)}/members`, { userIds })

export const deleteTeam = (api: ApiClient, workspaceId: string, teamId: string) => api.delete(teamPath(workspaceId, teamId))

/** Everyone a team may hold: every member of the workspace (by role, then name), a hundred at a time. */
export async function teamCandidates(api: ApiClient, workspaceId: string) {
	const limit = 100
	const first = await listMembers(api, workspaceId, { limit })
	const pages = Math.ceil(first.total / limit)
	const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, index) => listMembers(api, workspaceId, { limit, page: index + 2 })))
	return [first, ...rest].flatMap((page) => page.members).map((member) => ({ userId: member.userId, name: member.name }))
}
