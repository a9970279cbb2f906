import { type BusinessHours } from '#common/business-hours.ts'
import { type DB } from '#api/db/database.ts'
import { type ReopenAssignment, type Role, type User, type Workspace } from '#api/db/schema.ts'
import { workspaceCountry } from '#common/countries.ts'

/** A workspace as the API answers it: with the caller's role in it. */
export type WorkspaceJson = {
	id: string
	name: string
	slug: string
	timezone: string
	defaultLocale: string
	logoColor: string
	/** Members must have two-step sign-in on to use it. */
	requireTwoFactor: boolean
	/** Where its local phone numbers are from when a contact names no country: chosen, or its time zone's; null when neither says (UTC). */
	country: string | null
	/** Whether `country` was chosen (false: it follows the time zone). */
	countryChosen: boolean
	/** Assignment (issue 30): an agent's open conversations at most unless their own capacity says otherwise; null: no limit. */
	defaultCapacity: number | null
	/** A reopened conversation whose assignee is not available: kept by them, or assigned again. */
	reopenAssignment: ReopenAssignment
	/** Agents see only their teams' conversations (and those assigned to them). */
	agentsSeeOwnTeams: boolean
	/** Minutes a customer waits for a reply before the assignee is notified. */
	replyWaitingAfter: number
	/** Business hours in `timezone` (issue 31); null: always open. */
	businessHours: BusinessHours | null
	role: Role
	createdAt: string
}

/** The signed-in user as the API answers it (login, register, profile, switch). */
export type UserJson = {
	id: string
	name: string
	email: string
	emailVerified: boolean
	locale: string
	theme: string
	/** Two-step sign-in is on (never the secret). */
	twoFactorEnabled: boolean
	/** A chime with each new notification in the app (the notification settings). */
	notificationSound: boolean
	/** The current workspace, or null when the user has none (the "has no workspace" state). */
	workspace: WorkspaceJson | null
	createdAt: string
}

export function workspaceJson(workspace: Workspace, role: Role): WorkspaceJson {
	return {
		id: workspace.id,
		name: workspace.name,
		slug: workspace.slug,
		timezone: workspace.timezone,
		defaultLocale: workspace.defaultLocale,
		logoColor: workspace.logoColor,
		requireTwoFactor: workspace.requireTwoFactor,
		country: workspaceCountry(workspace) ?? null,
		countryChosen: workspace.country !== null,
		defaultCapacity: workspace.defaultCapacity,
		reopenAssignment: workspace.reopenAssignment,
		agentsSeeOwnTeams: workspace.agentsSeeOwnTeams,
		replyWaitingAfter: workspace.replyWaitingAfter,
		businessHours: workspace.businessHours,
		role,
		createdAt: workspace.createdAt.toISOString(),
	}
}

/** The user with their current workspace, if they are still a member of it. */
export async function profileOf(db: DB, user: User): Promise<UserJson> {
	const current = user.currentWorkspaceId
		? await db
				.selectFrom('workspaces')
				.innerJoin('members', 'members.workspaceId', 'workspaces.id')
				.selectAll('workspaces')
				.select('members.role')
				.where('workspaces.id', '=', user.currentWorkspaceId)
				.where('members.userId', '=', user.id)
				.executeTakeFirst()
		: undefined
	return {
		id: user.id,
		name: user.name,
		email: user.email,
		emailVerified: user.emailVerifiedAt !== null,
		locale: user.locale,
		theme: user.theme,
		twoFactorEnabled: user.twoFactorEnabledAt !== null,
		notificationSound: user.notificationSound,
		workspace: current ? workspaceJson(current, current.role) : null,
		createdAt: user.createdAt.toISOString(),
	}
}
