import { type z } from 'zod'

/**
 * The words of zod's own issues in the rule's form, which the shared schema leaves unnamed: a field
 * left empty (a label not chosen, no text) and a number out of its range. A module of its own, so
 * the page has it without loading zod.
 */
export const ruleErrorMap: z.ZodErrorMap = (issue, context) => {
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return { message: 'automation:errors.required' }
	if (issue.code === 'invalid_type' && issue.expected === 'number') return { message: 'automation:errors.number' }
	if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.type === 'number') return { message: 'automation:errors.number' }
	return { message: context.defaultError }
}
