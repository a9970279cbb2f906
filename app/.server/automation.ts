import { type AutomationAction, type AutomationEvent, type AutomationOutcome, type AutomationRuleInput } from '#common/automation.ts'
import { type ApiClient } from './api.ts'

// A workspace's automation rules and their runs (api/automation/router.ts), as issue 31's contract answers them.
const rulesOf = (workspaceId: string) => `/workspaces/${workspaceId}/automation-rules`
const rulePath = (workspaceId: string, ruleId: string) => `${rulesOf(workspaceId)}/${encodeURIComponent(ruleId)}`

export type AutomationRuleJson = AutomationRuleInput & { id: string; position: number; createdAt: string; updatedAt: string; lastRunAt: string | null }

/** Why a run or an action failed: a key of the `automation` namespace and its values (a bare key from an older run). */
export type AutomationRunError = string | { key: string; values?: Record<string, unknown> }

export type AutomationRunJson = {
	id: string
	event: AutomationEvent
	outcome: AutomationOutcome
	depth: number
	conversation: { number: number } | null
	actions: Array<{ kind: AutomationAction['kind']; outcome: 'done' | 'failed' | 'skipped'; error?: AutomationRunError | null }>
	error: AutomationRunError | null
	createdAt: string
}

export type AutomationRunPageJson = { runs: AutomationRunJson[]; nextCursor: string | null }

export const listRules = (api: ApiClient, workspaceId: string) => api.get<{ rules: AutomationRuleJson[] }>(rulesOf(workspaceId)).then((answer) => answer.rules)

export const getRule = (api: ApiClient, workspaceId: string, ruleId: string) => api.get<AutomationRuleJson>(rulePath(workspaceId, ruleId))

export const createRule = (api: ApiClient, workspaceId: string, rule: AutomationRuleInput) => api.post<AutomationRuleJson>(rulesOf(workspaceId), rule)

export const updateRule = (api: ApiClient, workspaceId: string, ruleId: string, changes: Partial<AutomationRuleInput>) =>
	api.patch<AutomationRuleJson>(rulePath(workspaceId, ruleId), changes)

export const deleteRule = (api: ApiClient, workspaceId: string, ruleId: string) => api.delete(rulePath(workspaceId, ruleId))

/** One place earlier or later in the run order; the API answers the whole order. */
export const moveRule = (api: ApiClient, workspaceId: string, ruleId: string, direction: 'up' | 'down') =>
	api.post<{ rules: AutomationRuleJson[] }>(`${rulePath(workspaceId, ruleId)}/move`, { direction })

/** A page of the rule's runs, newest first; `cursor` is the last page's `nextCursor`. */
export const listRuns = (api: ApiClient, workspaceId: string, ruleId: string, cursor?: string | null) =>
	api.get<AutomationRunPageJson>(`${rulePath(workspaceId, ruleId)}/runs`, { cursor: cursor || undefined })
