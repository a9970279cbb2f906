import { z } from 'zod'
import { automationRuleInput } from '#common/automation.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'

export const ruleParams = workspaceParams.extend({ ruleId: z.string().uuid() })

export const createRuleBody = automationRuleInput.strict()

/** Any fields of a rule; those absent stay as they are. */
export const updateRuleBody = automationRuleInput.partial().strict()
export type UpdateRuleBody = z.output<typeof updateRuleBody>

/** One place up or down the run order, or to a place (0 first; past the end is last). */
export const moveRuleBody = z.union([z.object({ direction: z.enum(['up', 'down']) }).strict(), z.object({ position: z.coerce.number().int().min(0) }).strict()])
export type MoveRuleBody = z.output<typeof moveRuleBody>

/** The page after `cursor`, a run's id from the previous page's `nextCursor`. */
export const runsQuery = z.object({
	cursor: z
		.string()
		.regex(/^\d{1,18}$/, 'validation.invalid')
		.optional(),
})
