import { z } from 'zod'
import { availabilities, invitationMethods, invitedRoles, reopenAssignments } from '#api/db/schema.ts'
import { country } from '#api/contacts/schemas.ts'
import { businessHoursSchema } from '#common/business-hours.ts'
import { waitMinutesLimits } from '#common/notifications.ts'
import { capacityLimits, workspaceLimits } from '#common/workspaces.ts'
import { locales, type Locale } from '#locales/languages.ts'

/** The canonical IANA name of a time zone (`africa/cairo` → `Africa/Cairo`), or undefined for anything else. */
export function canonicalTimeZone(name: string): string | undefined {
	try {
		const resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone
		// Newer engines also accept offsets such as `+01:00`; a workspace keeps a real zone name.
		return /^[A-Za-z][\w+-]*(\/[\w+-]+)*$/.test(resolved) ? resolved : undefined
	} catch {
		return undefined
	}
}

const name = z.string().trim().min(workspaceLimits.nameMin).max(workspaceLimits.nameMax)
const timezone = z
	.string()
	.trim()
	.max(workspaceLimits.timezone)
	.transform((value, context) => {
		const zone = canonicalTimeZone(value)
		if (!zone) context.addIssue({ code: 'custom', message: 'workspaces:validation.timezone' })
		return zone ?? value
	})
/** Open conversations at most: a whole number in range, or null (the workspace's default for a member, no limit for the workspace). */
const capacity = z
	.number()
	// One message for a fraction and either end of the range: what the field takes.
	.refine((value) => Number.isInteger(value) && value >= capacityLimits.min && value <= capacityLimits.max, 'workspaces:validation.capacity')
	.nullable()
/** Minutes before someone is told of a wait (issue 32). */
export const waitMinutes = z
	.number()
	.refine((value) => Number.isInteger(value) && value >= waitMinutesLimits.min && value <= waitMinutesLimits.max, 'workspaces:validation.waitMinutes')
const locale = z.enum(locales as [Locale, ...Locale[]])
const logoColor = z
	.string()
	.regex(/^#[0-9a-fA-F]{6}$/, 'workspaces:validation.color')
	.transform((color) => color.toLowerCase())

export const createWorkspaceBody = z.object({
	name,
	timezone: timezone.optional(),
	defaultLocale: locale.optional(),
})

export const updateWorkspaceBody = z.object({
	name: name.optional(),
	timezone: timezone.optional(),
	defaultLocale: locale.optional(),
	logoColor: logoColor.optional(),
	/** Where local phone numbers are from; null (or '') follows the time zone again. */
	country: z.preprocess((value) => (value === '' ? null : value), country.nullable()).optional(),
	/** Owner only: members must have two-step sign-in on. */
	requireTwoFactor: z.boolean().optional(),
	/** Assignment (issue 30): an agent's open conversations at most, unless their own capacity says otherwise; null: no limit. */
	defaultCapacity: capacity.optional(),
	/** A reopened conversation whose assignee is not available: kept by them, or assigned again. */
	reopenAssignment: z.enum(reopenAssignments).optional(),
	/** Agents see only their teams' conversations (and those assigned to them). */
	agentsSeeOwnTeams: z.boolean().optional(),
	/** Minutes a customer waits for a reply before their conversation's assignee is told (issue 32). */
	replyWaitingAfter: waitMinutes.optional(),
	/** Its business hours in its time zone (issue 31); null: always open. */
	businessHours: businessHoursSchema.nullable().optional(),
})

export const deleteWorkspaceBody = z.object({ confirmName: z.string() })

// A malformed id names no workspace, so it is answered as such later (404), not as a 400.
export const switchWorkspaceBody = z.object({ workspaceId: z.string().min(1) })

export const workspaceParams = z.object({ id: z.string().uuid() })
export const memberParams = workspaceParams.extend({ userId: z.string().uuid() })
export const invitationParams = workspaceParams.extend({ invitationId: z.string().uuid() })

/** A member's role, their capacity (null: the workspace's default), or both. */
export const changeMemberBody = z
	.object({ role: z.enum(invitedRoles).optional(), capacity: capacity.optional() })
	.refine((body) => body.role !== undefined || body.capacity !== undefined, { message: 'workspaces:validation.memberChange' })
export const availabilityBody = z.object({ availability: z.enum(availabilities) })
export const transferOwnershipBody = z.object({ userId: z.string().min(1) })

export const createInvitationBody = z
	.object({
		method: z.enum(invitationMethods),
		role: z.enum(invitedRoles),
		expiresInDays: z.number().int().min(1).max(30).default(7),
		maxUses: z.number().int().min(1).max(1000).nullish(),
		email: z.string().trim().toLowerCase().email().max(254).optional(),
	})
	.superRefine((body, context) => {
		if (body.method === 'email' && !body.email) context.addIssue({ code: 'custom', path: ['email'], message: 'validation.required' })
	})

export const invitationCodeBody = z.object({
	code: z.string().trim().min(1).max(200),
	method: z.enum(invitationMethods),
})

export const acceptInvitationBody = invitationCodeBody.extend({
	/** False keeps the user in their current workspace (the web app switches only when they choose); one without any is moved anyway. */
	makeCurrent: z.boolean().default(true),
})
