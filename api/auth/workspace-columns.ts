import { type Workspace } from '#api/db/schema.ts'

/**
 * A workspace's columns, each named `w` and its own name, for the queries that read it in the same
 * row as a user's (a session's, an access token's): one round trip per request.
 */
export const workspaceColumns = [
	'workspaces.id as wId',
	'workspaces.name as wName',
	'workspaces.slug as wSlug',
	'workspaces.timezone as wTimezone',
	'workspaces.defaultLocale as wDefaultLocale',
	'workspaces.logoColor as wLogoColor',
	'workspaces.requireTwoFactor as wRequireTwoFactor',
	'workspaces.country as wCountry',
	'workspaces.businessHours as wBusinessHours',
	'workspaces.defaultCapacity as wDefaultCapacity',
	'workspaces.reopenAssignment as wReopenAssignment',
	'workspaces.agentsSeeOwnTeams as wAgentsSeeOwnTeams',
	'workspaces.replyWaitingAfter as wReplyWaitingAfter',
	'workspaces.contactCount as wContactCount',
	'workspaces.createdAt as wCreatedAt',
	'workspaces.updatedAt as wUpdatedAt',
] as const

type Nullable<T> = { [K in keyof T]: T[K] | null }
type Prefixed = { [K in keyof Workspace as `w${Capitalize<K & string>}`]: Workspace[K] }

/** The row without the workspace's columns, and the workspace they make (null: a left join found none). */
export function splitWorkspace<Row extends Nullable<Prefixed>>(row: Row): { rest: Omit<Row, keyof Prefixed>; workspace: Workspace | null } {
	const {
		wId,
		wName,
		wSlug,
		wTimezone,
		wDefaultLocale,
		wLogoColor,
		wRequireTwoFactor,
		wCountry,
		wBusinessHours,
		wDefaultCapacity,
		wReopenAssignment,
		wAgentsSeeOwnTeams,
		wReplyWaitingAfter,
		wContactCount,
		wCreatedAt,
		wUpdatedAt,
		...rest
	} = row
	const workspace =
		wId &&
		wName &&
		wSlug &&
		wTimezone &&
		wDefaultLocale &&
		wLogoColor &&
		wRequireTwoFactor !== null &&
		wReopenAssignment !== null &&
		wAgentsSeeOwnTeams !== null &&
		wReplyWaitingAfter !== null &&
		wContactCount !== null &&
		wCreatedAt &&
		wUpdatedAt
			? {
					id: wId,
					name: wName,
					slug: wSlug,
					timezone: wTimezone,
					defaultLocale: wDefaultLocale,
					logoColor: wLogoColor,
					requireTwoFactor: wRequireTwoFactor,
					country: wCountry,
					businessHours: wBusinessHours,
					defaultCapacity: wDefaultCapacity,
					reopenAssignment: wReopenAssignment,
					agentsSeeOwnTeams: wAgentsSeeOwnTeams,
					replyWaitingAfter: wReplyWaitingAfter,
					contactCount: wContactCount,
					createdAt: wCreatedAt,
					updatedAt: wUpdatedAt,
				}
			: null
	return { rest, workspace }
}
