import { Router, type Request } from 'express'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError, refusedAsTaken } from '#api/http/errors.ts'
import { parseRequest } from '#api/http/validate.ts'
import { handler } from '#api/http/handler.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { createLabel, deleteLabel, updateLabel } from './actions.ts'
import { findLabel, labelTitleConstraint, listLabels } from './queries.ts'
import { createLabelBody, labelParams, updateLabelBody } from './schemas.ts'

export function labelNotFound() {
	return new HttpError(404, 'contacts:errors.labelNotFound')
}

/** A title another label of the workspace has (in any case: titles are citext) is a 409 beside the title field. */
const refusedTitle = (req: Request, title: string) => refusedAsTaken(req, labelTitleConstraint, 'title', 'contacts:errors.labelTitleTaken', { title })

/** `/v1/workspaces/:id/labels`: everyone reads, owners and admins write. */
export function labelsRouter({ db, realtime }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	async function requireLabel(req: Request, workspaceId: string) {
		const { labelId } = parseParams(req, labelParams, labelNotFound)
		const label = await findLabel(db, workspaceId, labelId)
		if (!label) throw labelNotFound()
		return label
	}

	function announce(workspaceId: string, event: 'label.created' | 'label.updated' | 'label.deleted', labelId: string) {
		void publishWorkspaceEvent(db, realtime, workspaceId, event, { labelId })
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json({ labels: await listLabels(db, workspace.id) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createLabelBody)
			const label = await createLabel(db, workspace.id, body).catch(refusedTitle(req, body.title))
			announce(workspace.id, 'label.created', label.id)
			res.status(201).json(label)
		}),
	)

	router.get(
		'/:labelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json(await requireLabel(req, workspace.id))
		}),
	)

	router.patch(
		'/:labelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const label = await requireLabel(req, workspace.id)
			const changes = parseRequest(req, 'body', updateLabelBody)
			if (Object.keys(changes).length === 0) return res.json(label)
			const updated = await updateLabel(db, workspace.id, label, changes).catch(refusedTitle(req, changes.title ?? label.title))
			// Deleted by someone else in between.
			if (!updated) throw labelNotFound()
			announce(workspace.id, 'label.updated', label.id)
			res.json(updated)
		}),
	)

	router.delete(
		'/:labelId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { labelId } = parseParams(req, labelParams, labelNotFound)
			if (!(await deleteLabel(db, workspace.id, labelId))) throw labelNotFound()
			announce(workspace.id, 'label.deleted', labelId)
			res.status(204).end()
		}),
	)

	return router
}
