import { z } from 'zod'
import { teamLimits } from '#common/teams.ts'
import { waitMinutes, workspaceParams } from '#api/workspaces/schemas.ts'

const name = z.string().trim().min(1).max(teamLimits.name)
// An empty description is none, as a form sends it.
const description = z
	.string()
	.trim()
	.max(teamLimits.description)
	.nullish()
	.transform((value) => value || null)
const userIds = z.array(z.string().uuid()).max(teamLimits.members)

export const createTeamBody = z
	.object({ name, description, autoAssign: z.boolean().default(false), notifyAfter: waitMinutes.default(10), userIds: userIds.default([]) })
	.strict()
export type CreateTeamBody = z.output<typeof createTeamBody>

export const updateTeamBody = z
	.object({ name: name.optional(), description: description.optional(), autoAssign: z.boolean().optional(), notifyAfter: waitMinutes.optional() })
	.strict()
export type UpdateTeamBody = z.output<typeof updateTeamBody>

/** The team's members, all at once. */
export const teamMembersBody = z.object({ userIds }).strict()

export const teamParams = workspaceParams.extend({ teamId: z.string().uuid() })
