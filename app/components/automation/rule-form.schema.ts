import { z } from 'zod'
import { automationRuleInput, type AutomationCondition, type AutomationRuleInput } from '#common/automation.ts'
import { ticked } from '#app/utils/forms.ts'

/** A condition as its row holds it: the words and the domains typed in one box, split at commas and lines. */
export type ConditionRow =
	| Exclude<AutomationCondition, { kind: 'messageContains' | 'emailDomain' }>
	| { kind: 'messageContains'; op: 'any' | 'none'; words: string }
	| { kind: 'emailDomain'; op: 'is' | 'isNot'; domains: string }

/** The rule's form: the rule, but for its conditions' lists of words and domains. */
export type RuleForm = Omit<AutomationRuleInput, 'conditions'> & { conditions: ConditionRow[] }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Commas (Latin or Arabic) and lines separate the words. */
const split = (value: unknown) =>
	typeof value === 'string'
		? value
				.split(/[,،\n]/)
				.map((word) => word.trim())
				.filter(Boolean)
		: value

const eachRow = (rows: unknown, change: (row: Record<string, unknown>) => Record<string, unknown>) =>
	Array.isArray(rows) ? rows.map((row) => (isRecord(row) ? change(row) : row)) : rows

/** The posted form as the rule reads it: words and domains as lists, a snooze with no minutes until the next opening. */
function ruleOfForm(value: unknown) {
	if (!isRecord(value)) return value
	return {
		...value,
		conditions: eachRow(value.conditions, (row) =>
			row.kind === 'messageContains' ? { ...row, words: split(row.words) } : row.kind === 'emailDomain' ? { ...row, domains: split(row.domains) } : row,
		),
		actions: eachRow(value.actions, (row) => (row.kind === 'snooze' && (row.minutes === undefined || row.minutes === '') ? { ...row, minutes: null } : row)),
	}
}

/**
 * The shared rule schema (common/automation.ts) read from the form, in the browser and in the action.
 * `enabled` is a checkbox, which posts nothing when unticked: the rule's default would read that as on.
 */
export const ruleFormSchema = z.preprocess(ruleOfForm, automationRuleInput.extend({ enabled: ticked })) as unknown as z.ZodType<
	AutomationRuleInput,
	z.ZodTypeDef,
	RuleForm
>

/** A saved rule as its form starts. */
export function formOfRule(rule: AutomationRuleInput): RuleForm {
	return {
		...rule,
		conditions: rule.conditions.map((condition) =>
			condition.kind === 'messageContains'
				? { ...condition, words: condition.words.join(', ') }
				: condition.kind === 'emailDomain'
					? { ...condition, domains: condition.domains.join(', ') }
					: condition,
		),
	}
}
