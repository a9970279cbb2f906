import { Router, type Request } from 'express'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError, refusedAsTaken } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { cannedCodeConstraint, cannedJson, listCanned } from './queries.ts'
import { cannedParams, createCannedBody, listCannedQuery, updateCannedBody } from './schemas.ts'

function cannedNotFound() {
	return new HttpError(404, 'inbox:errors.cannedNotFound')
}

/** `/v1/workspaces/:id/canned-responses`: everyone reads (the composer offers them), owners and admins write. */
export function cannedResponsesRouter({ db }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	// A short code the workspace already has (in any case) is a 409 beside the field.
	const taken = (req: Request, shortCode: string) => refusedAsTaken(req, cannedCodeConstraint, 'shortCode', 'inbox:errors.shortCodeTaken', { shortCode })

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { search } = parseRequest(req, 'query', listCannedQuery)
			res.json({ cannedResponses: await listCanned(db, workspace.id, search) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createCannedBody)
			const created = await db
				.insertInto('cannedResponses')
				.values({ workspaceId: workspace.id, createdBy: req.user.id, ...body })
				.returningAll()
				.executeTakeFirstOrThrow()
				.catch(taken(req, body.shortCode))
			res.status(201).json(cannedJson(created))
		}),
	)

	router.get(
		'/:cannedId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { cannedId } = parseParams(req, cannedParams, cannedNotFound)
			const found = await db.selectFrom('cannedResponses').selectAll().where('workspaceId', '=', workspace.id).where('id', '=', cannedId).executeTakeFirst()
			if (!found) throw cannedNotFound()
			res.json(cannedJson(found))
		}),
	)

	router.patch(
		'/:cannedId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { cannedId } = parseParams(req, cannedParams, cannedNotFound)
			const changes = parseRequest(req, 'body', updateCannedBody)
			const updated = await db
				.updateTable('cannedResponses')
				.set({ ...changes, updatedAt: new Date() })
				.where('workspaceId', '=', workspace.id)
				.where('id', '=', cannedId)
				.returningAll()
				.executeTakeFirst()
				.catch(taken(req, changes.shortCode ?? ''))
			if (!updated) throw cannedNotFound()
			res.json(cannedJson(updated))
		}),
	)

	router.delete(
		'/:cannedId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { cannedId } = parseParams(req, cannedParams, cannedNotFound)
			const deleted = await db.deleteFrom('cannedResponses').where('workspaceId', '=', workspace.id).where('id', '=', cannedId).executeTakeFirst()
			if (deleted.numDeletedRows === 0n) throw cannedNotFound()
			res.status(204).end()
		}),
	)

	return router
}
