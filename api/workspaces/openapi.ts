import { listQuery } from '#api/http/pagination.ts'
import { type ApiDocs } from '#api/http/openapi.ts'
import {
	availabilityBody,
	changeRoleBody,
	createInvitationBody,
	createWorkspaceBody,
	deleteWorkspaceBody,
	invitationCodeBody,
	invitationParams,
	memberParams,
	switchWorkspaceBody,
	transferOwnershipBody,
	updateWorkspaceBody,
	workspaceParams,
} from './schemas.ts'

/** `/v1/user` (router.ts). */
export function documentUser(docs: ApiDocs) {
	docs.add({ method: 'get', path: '/workspaces', summary: "The signed-in user's workspaces", query: listQuery, responses: { 200: 'A page of workspaces with the role in each: `{ workspaces, page, limit, total }`.' } })
}

/** `/v1/workspaces` (router.ts, members.ts, invitations.ts). */
export function documentWorkspaces(docs: ApiDocs) {
	const workspace = 'The workspace, with the caller’s `role` in it.'
	docs.add({
		method: 'post',
		path: '/invitations/preview',
		summary: 'What an invitation is for, before signing up',
		caller: 'anyone',
		body: invitationCodeBody,
		responses: { 200: '`{ workspaceName, role, expiresAt }`.' },
		errors: [410, 422],
	})
	docs.add({ method: 'post', path: '/', summary: 'Create a workspace', description: 'The caller becomes its owner.', body: createWorkspaceBody, responses: { 201: workspace } })
	docs.add({ method: 'put', path: '/switch', summary: 'Make another of the user’s workspaces the current one', body: switchWorkspaceBody, responses: { 200: 'The profile, as `GET /v1/auth/profile` answers it.' }, errors: [404] })
	docs.add({
		method: 'post',
		path: '/invitations/accept',
		summary: 'Join a workspace with an invitation',
		description: 'Joins with the invited role and makes the workspace current; a member already keeps their role.',
		body: invitationCodeBody,
		responses: { 200: '`{ user, workspace }`: the profile and the workspace joined.' },
		errors: [403, 404, 410, 422],
	})
	docs.add({ method: 'get', path: '/:id', summary: 'A workspace', params: workspaceParams, responses: { 200: workspace } })
	docs.add({ method: 'patch', path: '/:id', summary: 'Change a workspace', description: 'Owners and admins.', params: workspaceParams, body: updateWorkspaceBody, responses: { 200: workspace }, errors: [403] })
	docs.add({
		method: 'delete',
		path: '/:id',
		summary: 'Delete a workspace and everything in it',
		description: 'The owner only, who types the workspace’s name to confirm.',
		params: workspaceParams,
		body: deleteWorkspaceBody,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
	docs.add({ method: 'get', path: '/:id/overview', summary: 'Counts for the workspace’s home page', params: workspaceParams, responses: { 200: 'The overview.' } })

	docs.add({ method: 'get', path: '/:id/members', summary: 'The members', description: 'Owner first, then admins, then agents, each by name.', params: workspaceParams, query: listQuery, responses: { 200: '`{ members, page, limit, total }`.' } })
	docs.add({ method: 'patch', path: '/:id/members/me', summary: 'Set one’s own availability', params: workspaceParams, body: availabilityBody, responses: { 200: 'The caller as a member.' } })
	docs.add({ method: 'patch', path: '/:id/members/:userId', summary: 'Change a member’s role', description: 'Owners and admins; the owner’s role is changed by transferring ownership.', params: memberParams, body: changeRoleBody, responses: { 200: 'The member.' }, errors: [403] })
	docs.add({
		method: 'delete',
		path: '/:id/members/:userId',
		summary: 'Remove a member (or oneself)',
		description: 'Owners and admins remove others; anyone but the owner removes themselves.',
		params: memberParams,
		responses: { 204: 'Removed.' },
		errors: [403, 409],
	})
	docs.add({ method: 'post', path: '/:id/leave', summary: 'Leave the workspace', description: 'Anyone but the owner, who must hand the workspace over first.', params: workspaceParams, responses: { 204: 'Left.' }, errors: [409] })
	docs.add({
		method: 'post',
		path: '/:id/transfer-ownership',
		summary: 'Hand the workspace to another member',
		description: 'The owner only, who becomes an admin.',
		params: workspaceParams,
		body: transferOwnershipBody,
		responses: { 200: 'The workspace, with the caller now an admin.' },
		errors: [403, 409],
	})

	docs.add({ method: 'get', path: '/:id/invitations', summary: 'The invitations', description: 'Owners and admins.', params: workspaceParams, responses: { 200: '`{ invitations }`, each with its URL.' }, errors: [403] })
	docs.add({ method: 'post', path: '/:id/invitations', summary: 'Invite by link or by mail', description: 'Owners and admins.', params: workspaceParams, body: createInvitationBody, responses: { 201: 'The invitation, with its URL.' }, errors: [403, 409, 502] })
	docs.add({ method: 'delete', path: '/:id/invitations/:invitationId', summary: 'Revoke an invitation', description: 'Owners and admins.', params: invitationParams, responses: { 204: 'Revoked.' }, errors: [403] })
}
