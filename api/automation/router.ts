import { Router, type Request } from 'express'
import { type AutomationRuleInput } from '#common/automation.ts'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { createRule, deleteRule, findRule, foreignReference, listRules, listRuns, moveRule, updateRule } from './queries.ts'
import { createRuleBody, moveRuleBody, ruleParams, runsQuery, updateRuleBody } from './schemas.ts'

export function ruleNotFound() {
	return new HttpError(404, 'automation:errors.ruleNotFound')
}

/** `/v1/workspaces/:id/automation-rules`: owners and admins only (an agent gets 403 on every route). */
export function automationRouter({ db }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	async function requireRule(req: Request, workspaceId: string) {
		const { ruleId } = parseParams(req, ruleParams, ruleNotFound)
		const rule = await findRule(db, workspaceId, ruleId)
		if (!rule) throw ruleNotFound()
		return rule
	}

	/** A label, team, channel, agent or canned response of another workspace (or gone) is a 422 beside its field. */
	async function requireOwnReferences(req: Request, workspaceId: string, input: Partial<AutomationRuleInput>) {
		const path = await foreignReference(db, workspaceId, input)
		if (path) throw fieldError(req, 422, path, 'automation:errors.notInWorkspace')
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			res.json({ rules: await listRules(db, workspace.id) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createRuleBody)
			await requireOwnReferences(req, workspace.id, body)
			const ruleId = await createRule(db, workspace.id, body)
			res.status(201).json(await findRule(db, workspace.id, ruleId))
		}),
	)

	router.get(
		'/:ruleId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			res.json(await requireRule(req, workspace.id))
		}),
	)

	router.patch(
		'/:ruleId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const rule = await requireRule(req, workspace.id)
			const changes = parseRequest(req, 'body', updateRuleBody)
			await requireOwnReferences(req, workspace.id, changes)
			// Deleted by someone else in between.
			if (!(await updateRule(db, workspace.id, rule.id, changes))) throw ruleNotFound()
			res.json(await findRule(db, workspace.id, rule.id))
		}),
	)

	router.delete(
		'/:ruleId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { ruleId } = parseParams(req, ruleParams, ruleNotFound)
			if (!(await deleteRule(db, workspace.id, ruleId))) throw ruleNotFound()
			res.status(204).end()
		}),
	)

	router.post(
		'/:ruleId/move',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { ruleId } = parseParams(req, ruleParams, ruleNotFound)
			const move = parseRequest(req, 'body', moveRuleBody)
			if (!(await moveRule(db, workspace.id, ruleId, move))) throw ruleNotFound()
			res.json({ rules: await listRules(db, workspace.id) })
		}),
	)

	router.get(
		'/:ruleId/runs',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const rule = await requireRule(req, workspace.id)
			const { cursor } = parseRequest(req, 'query', runsQuery)
			res.json(await listRuns(db, rule.id, cursor))
		}),
	)

	return router
}
