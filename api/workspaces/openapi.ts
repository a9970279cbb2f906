import { z } from 'zod'
import { type UserJson, type WorkspaceJson } from '#api/auth/profile.ts'
import { availabilities, invitationMethods, invitedRoles, reopenAssignments, roles } from '#api/db/schema.ts'
import { listQuery } from '#api/http/pagination.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { type BusinessHours } from '#common/business-hours.ts'
import { type InvitationJson } from './invitations.ts'
import { type MemberJson } from './members.ts'
import {
	acceptInvitationBody,
	availabilityBody,
	changeMemberBody,
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

const timeRange = z.object({ from: z.string().openapi({ example: '09:00' }), to: z.string().openapi({ example: '17:00' }) })

/** Business hours (issue 31): seven weekdays, Monday first, each with up to two ranges (none: closed), and holiday dates. */
export const businessHoursAnswer = answerSchema<BusinessHours>()(
	z.object({ days: z.array(z.array(timeRange)).length(7), holidays: z.array(z.string().openapi({ example: '2026-12-25' })) }).openapi('BusinessHours'),
)

/** A workspace as the API answers it: with the caller's role in it. */
export const workspaceAnswer = answerSchema<WorkspaceJson>()(
	z
		.object({
			id: z.string().uuid(),
			name: z.string(),
			slug: z.string(),
			timezone: z.string(),
			defaultLocale: z.string(),
			logoColor: z.string(),
			requireTwoFactor: z.boolean(),
			country: z.string().nullable().openapi({
				description:
					'ISO 3166 country of local phone numbers (a contact’s phone without its prefix): the chosen one, else the time zone’s; null when neither says.',
			}),
			countryChosen: z.boolean().openapi({ description: 'False: `country` follows the time zone.' }),
			defaultCapacity: z
				.number()
				.int()
				.nullable()
				.openapi({ description: 'Open conversations auto-assignment gives an agent at most, unless their own `capacity` says otherwise; null: no limit.' }),
			reopenAssignment: z.enum(reopenAssignments).openapi({
				description: 'A reopened conversation whose assignee is not available: `keep` leaves it with them, `reassign` assigns it again.',
			}),
			agentsSeeOwnTeams: z.boolean().openapi({ description: 'Agents see only their teams’ conversations and those assigned to them.' }),
			replyWaitingAfter: z.number().int().openapi({ description: 'Minutes a customer waits for a reply before the assignee is notified (1 to 1440).' }),
			businessHours: businessHoursAnswer.nullable().openapi({ description: 'Business hours in `timezone`; null: always open.' }),
			role: z.enum(roles),
			createdAt: z.string().datetime(),
		})
		.openapi('Workspace'),
)

/** The signed-in user (login, register, profile, switch), with their current workspace or null. */
export const userAnswer = answerSchema<UserJson>()(
	z
		.object({
			id: z.string().uuid(),
			name: z.string(),
			email: z.string(),
			emailVerified: z.boolean(),
			locale: z.string(),
			theme: z.string(),
			twoFactorEnabled: z.boolean(),
			notificationSound: z.boolean().openapi({ description: 'A chime with each new notification in the app (`…/notification-preferences`).' }),
			workspace: workspaceAnswer.nullable(),
			createdAt: z.string().datetime(),
		})
		.openapi('User'),
)

const member = answerSchema<MemberJson>()(
	z
		.object({
			userId: z.string().uuid(),
			name: z.string(),
			email: z.string(),
			role: z.enum(roles),
			availability: z.enum(availabilities),
			capacity: z
				.number()
				.int()
				.nullable()
				.openapi({ description: 'Open conversations auto-assignment gives them at most; null: the workspace’s `defaultCapacity`.' }),
			twoFactorEnabled: z.boolean(),
			joinedAt: z.string().datetime(),
		})
		.openapi('Member'),
)

const invitation = answerSchema<InvitationJson>()(
	z
		.object({
			id: z.string().uuid(),
			code: z.string(),
			method: z.enum(invitationMethods),
			email: z.string().nullable(),
			role: z.enum(invitedRoles),
			expiresAt: z.string().datetime(),
			maxUses: z.number().int().nullable(),
			uses: z.number().int(),
			revoked: z.boolean(),
			createdAt: z.string().datetime(),
			createdByName: z.string().nullable(),
			url: z.string().url(),
		})
		.openapi('Invitation'),
)

const page = { page: z.number().int(), limit: z.number().int(), total: z.number().int() }

/** `/v1/user` (router.ts). */
export function documentUser(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/workspaces',
		summary: "The signed-in user's workspaces",
		query: listQuery,
		responses: { 200: { description: 'A page of workspaces, with the role in each.', schema: z.object({ workspaces: z.array(workspaceAnswer), ...page }) } },
	})
}

/** `/v1/workspaces` (router.ts, members.ts, invitations.ts). */
export function documentWorkspaces(docs: ApiDocs) {
	const workspace = { description: 'The workspace, with the caller’s `role` in it.', schema: workspaceAnswer }
	docs.add({
		method: 'post',
		path: '/invitations/preview',
		summary: 'What an invitation is for, before signing up or accepting it',
		description: 'The workspace, the name of the member who made the invitation (null once their account is gone) and the role it grants.',
		caller: 'anyone',
		body: invitationCodeBody,
		responses: {
			200: {
				description: 'What the sign-up and confirmation pages say about it.',
				schema: z.object({ workspaceName: z.string(), inviterName: z.string().nullable(), role: z.enum(invitedRoles), expiresAt: z.string().datetime() }),
			},
		},
		errors: [410, 422],
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a workspace',
		description: 'The caller becomes its owner.',
		body: createWorkspaceBody,
		responses: { 201: workspace },
	})
	docs.add({
		method: 'put',
		path: '/switch',
		summary: 'Make another of the user’s workspaces the current one',
		body: switchWorkspaceBody,
		responses: { 200: { description: 'The profile, with the workspace now current.', schema: userAnswer } },
		errors: [404],
	})
	docs.add({
		method: 'post',
		path: '/invitations/accept',
		summary: 'Join a workspace with an invitation',
		description:
			'Joins with the invited role and makes the workspace current, unless `makeCurrent` is false and the user has a current workspace to stay in; a member already keeps their role.',
		body: acceptInvitationBody,
		responses: { 200: { description: 'The profile and the workspace joined.', schema: z.object({ user: userAnswer, workspace: workspaceAnswer }) } },
		errors: [403, 404, 410, 422],
	})
	docs.add({ method: 'get', path: '/:id', summary: 'A workspace', params: workspaceParams, responses: { 200: workspace } })
	docs.add({
		method: 'patch',
		path: '/:id',
		summary: 'Change a workspace',
		description:
			'Owners and admins, also its assignment settings (`defaultCapacity` 0 to 1000 or null for no limit, `reopenAssignment`, `agentsSeeOwnTeams`), `replyWaitingAfter`; `requireTwoFactor` the owner alone, and only once their own two-step sign-in is on (409 otherwise). While it is on, a member without two-step sign-in gets 403 from the workspace’s routes (`details.reason: twoFactorRequired`), but for reading the workspace and leaving it.',
		params: workspaceParams,
		body: updateWorkspaceBody,
		responses: { 200: workspace },
		errors: [403, 409],
	})
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
	docs.add({
		method: 'get',
		path: '/:id/events/last',
		summary: 'The number of the workspace channel’s last event',
		description:
			'Each event on `private-workspace-{id}` carries `seq`, one more than the one before. A page reads this before its data: the events above it are what its data lacks, and a number missing among them means it missed one.',
		params: workspaceParams,
		responses: { 200: { description: 'The last number, 0 before the first event.', schema: z.object({ seq: z.number().int() }) } },
	})
	docs.add({
		method: 'get',
		path: '/:id/overview',
		summary: 'Counts for the workspace’s home page',
		params: workspaceParams,
		responses: { 200: 'The overview.' },
	})

	docs.add({
		method: 'get',
		path: '/:id/members',
		summary: 'The members',
		description: 'Owner first, then admins, then agents, each by name.',
		params: workspaceParams,
		query: listQuery,
		responses: { 200: { description: 'A page of members.', schema: z.object({ members: z.array(member), ...page }) } },
	})
	docs.add({
		method: 'get',
		path: '/:id/members/me',
		summary: 'One’s own membership',
		description: 'The caller as a member: their role, availability and capacity.',
		params: workspaceParams,
		responses: { 200: { description: 'The caller as a member.', schema: member } },
	})
	docs.add({
		method: 'patch',
		path: '/:id/members/me',
		summary: 'Set one’s own availability',
		params: workspaceParams,
		body: availabilityBody,
		responses: { 200: { description: 'The caller as a member.', schema: member } },
	})
	docs.add({
		method: 'patch',
		path: '/:id/members/:userId',
		summary: 'Change a member’s role or capacity',
		description:
			'Owners and admins. `capacity` (0 to 1000, null for the workspace’s default) is how many open conversations auto-assignment gives them at most; the owner’s role is changed by transferring ownership.',
		params: memberParams,
		body: changeMemberBody,
		responses: { 200: { description: 'The member.', schema: member } },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/:id/members/:userId/two-factor/reset',
		summary: 'Turn a member’s two-step sign-in off',
		description:
			'For a member who lost their phone and recovery codes: the owner for admins and agents, an admin for agents. Ends their sessions, mails them, and is in the audit log. Refused (409) when it is off, or when the account is also a member of another workspace.',
		params: memberParams,
		responses: { 200: { description: 'The member.', schema: member } },
		errors: [403, 409],
	})
	docs.add({
		method: 'delete',
		path: '/:id/members/:userId',
		summary: 'Remove a member (or oneself)',
		description: 'Owners and admins remove others; anyone but the owner removes themselves.',
		params: memberParams,
		responses: { 204: 'Removed.' },
		errors: [403, 409],
	})
	docs.add({
		method: 'post',
		path: '/:id/leave',
		summary: 'Leave the workspace',
		description: 'Anyone but the owner, who must hand the workspace over first.',
		params: workspaceParams,
		responses: { 204: 'Left.' },
		errors: [409],
	})
	docs.add({
		method: 'post',
		path: '/:id/transfer-ownership',
		summary: 'Hand the workspace to another member',
		description: 'The owner only, who becomes an admin.',
		params: workspaceParams,
		body: transferOwnershipBody,
		responses: { 200: { description: 'The workspace, with the caller now an admin.', schema: workspaceAnswer } },
		errors: [403, 409],
	})

	docs.add({
		method: 'get',
		path: '/:id/invitations',
		summary: 'The invitations',
		description: 'Owners and admins.',
		params: workspaceParams,
		responses: { 200: { description: 'The invitations, each with its URL.', schema: z.object({ invitations: z.array(invitation) }) } },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/:id/invitations',
		summary: 'Invite by link or by mail',
		description:
			'Owners and admins; by mail, only once their own e-mail is confirmed (403 otherwise). At most 100 a day per workspace, 30 an hour per inviter, 10 mails a day per address (429).',
		params: workspaceParams,
		body: createInvitationBody,
		responses: {
			201: { description: 'The invitation, with its URL; its mail, if any, is queued (retried while the mail server refuses).', schema: invitation },
		},
		errors: [403, 409, 429],
	})
	docs.add({
		method: 'post',
		path: '/:id/invitations/:invitationId/resend',
		summary: 'Mail an invitation again',
		description:
			'Owners and admins whose own e-mail is confirmed; a live invitation by e-mail, five times an hour at most, and within the per-inviter and per-address limits of creating one.',
		params: invitationParams,
		responses: { 202: { description: 'The mail is queued.', schema: z.object({ message: z.string() }) } },
		errors: [403, 404, 410, 422, 429],
	})
	docs.add({
		method: 'delete',
		path: '/:id/invitations/:invitationId',
		summary: 'Revoke an invitation',
		description: 'Owners and admins.',
		params: invitationParams,
		responses: { 204: 'Revoked.' },
		errors: [403],
	})
}
