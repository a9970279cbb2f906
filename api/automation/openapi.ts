import { z } from 'zod'
import { automationAction, automationEvents, automationOutcomes, automationRuleInput } from '#common/automation.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type AutomationRuleJson, type AutomationRunJson } from './queries.ts'
import { createRuleBody, moveRuleBody, ruleParams, runsQuery, updateRuleBody } from './schemas.ts'

const rule = answerSchema<AutomationRuleJson>()(
	automationRuleInput
		.extend({
			id: z.string().uuid(),
			position: z.number().int(),
			createdAt: z.string().datetime(),
			updatedAt: z.string().datetime(),
			lastRunAt: z.string().datetime().nullable(),
		})
		.openapi('AutomationRule'),
)
const rules = z.object({ rules: z.array(rule) })

/** An `automation` translation key and its values, for the page to translate. */
const reason = z.object({ key: z.string(), values: z.record(z.string()) })
const actionKinds = automationAction.options.map((option) => option.shape.kind.value)

const run = answerSchema<AutomationRunJson>()(
	z
		.object({
			id: z.string(),
			event: z.enum(automationEvents),
			outcome: z.enum(automationOutcomes),
			depth: z.number().int(),
			conversation: z.object({ number: z.number().int() }).nullable(),
			actions: z.array(
				z.object({
					kind: z.enum(actionKinds as [(typeof actionKinds)[number], ...Array<(typeof actionKinds)[number]>]),
					outcome: z.enum(['done', 'failed', 'skipped']),
					error: reason.optional(),
				}),
			),
			error: reason.nullable(),
			createdAt: z.string().datetime(),
		})
		.openapi('AutomationRun'),
)

/** `/v1/workspaces/{id}/automation-rules` (router.ts): owners and admins only. */
export function documentAutomation(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The automation rules',
		description: 'Owners and admins.',
		params: workspaceParams,
		responses: { 200: { description: 'The rules, in the order they run.', schema: rules } },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create a rule',
		description: 'Owners and admins. Added last. Labels, teams, channels, agents and canned responses must be the workspace’s (else 422 beside the field).',
		params: workspaceParams,
		body: createRuleBody,
		responses: { 201: { description: 'The rule.', schema: rule } },
		errors: [403, 422],
	})
	docs.add({
		method: 'get',
		path: '/:ruleId',
		summary: 'A rule',
		params: ruleParams,
		responses: { 200: { description: 'The rule.', schema: rule } },
		errors: [403],
	})
	docs.add({
		method: 'patch',
		path: '/:ruleId',
		summary: 'Change a rule',
		description: 'Owners and admins; the fields given change.',
		params: ruleParams,
		body: updateRuleBody,
		responses: { 200: { description: 'The rule.', schema: rule } },
		errors: [403, 422],
	})
	docs.add({
		method: 'delete',
		path: '/:ruleId',
		summary: 'Delete a rule',
		description: 'Owners and admins; its run log goes with it.',
		params: ruleParams,
		responses: { 204: 'Deleted.' },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/:ruleId/move',
		summary: 'Move a rule in the run order',
		description: 'One place up or down, or to a position (0 first).',
		params: ruleParams,
		body: moveRuleBody,
		responses: { 200: { description: 'The rules, in their new order.', schema: rules } },
		errors: [403],
	})
	docs.add({
		method: 'get',
		path: '/:ruleId/runs',
		summary: "A rule's run log",
		description: 'Newest first, 50 a page; the last 1 000 runs are kept.',
		params: ruleParams,
		query: runsQuery,
		responses: { 200: { description: 'A page of runs.', schema: z.object({ runs: z.array(run), nextCursor: z.string().nullable() }) } },
		errors: [403],
	})
}
