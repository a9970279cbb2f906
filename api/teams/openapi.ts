import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type TeamJson } from './queries.ts'
import { createTeamBody, teamMembersBody, teamParams, updateTeamBody } from './schemas.ts'

const team = answerSchema<TeamJson>()(
	z
		.object({
			id: z.string().uuid(),
			name: z.string(),
			description: z.string().nullable(),
			autoAssign: z.boolean(),
			notifyAfter: z.number().int().openapi({ description: 'Minutes a conversation waits unassigned in the queue before the team is notified (1 to 1440).' }),
			members: z.array(z.object({ userId: z.string().uuid(), name: z.string() })),
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
		})
		.openapi('Team'),
)

/** `/v1/workspaces/{id}/teams` (router.ts): everyone reads, owners and admins write. */
export function documentTeams(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The teams',
		params: workspaceParams,
		responses: { 200: { description: 'The teams, by name, with their members.', schema: z.object({ teams: z.array(team) }) } },
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a team',
		description: 'Owners and admins. Its members must be members of the workspace.',
		params: workspaceParams,
		body: createTeamBody,
		responses: { 201: { description: 'The team.', schema: team } },
		errors: [403, 409, 422],
	})
	docs.add({ method: 'get', path: '/:teamId', summary: 'A team', params: teamParams, responses: { 200: { description: 'The team.', schema: team } } })
	docs.add({
		method: 'patch',
		path: '/:teamId',
		summary: 'Change a team',
		description: 'Owners and admins.',
		params: teamParams,
		body: updateTeamBody,
		responses: { 200: { description: 'The team.', schema: team } },
		errors: [403, 409],
	})
	docs.add({
		method: 'put',
		path: '/:teamId/members',
		summary: "Replace a team's members",
		description: 'Owners and admins. Members of the workspace only.',
		params: teamParams,
		body: teamMembersBody,
		responses: { 200: { description: 'The team.', schema: team } },
		errors: [403, 422],
	})
	docs.add({
		method: 'delete',
		path: '/:teamId',
		summary: 'Delete a team',
		description: 'Owners and admins; its channels and conversations are left without a team.',
		params: teamParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
}
