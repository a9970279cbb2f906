import { Router, type Request, type Response } from 'express'
import { type ApiContext } from '#api/context.ts'
import { auditLineText } from '#common/audit.ts'
import { csvLine } from '#api/contacts/csv.ts'
import { type DB } from '#api/db/database.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, requireMember } from '#api/workspaces/membership.ts'
import { allAuditEvents, listAuditEvents } from './queries.ts'
import { auditLogQuery } from './schemas.ts'

/** `/v1/workspaces/:id/audit-log`: owners and admins read who did what and when; agents get 403. */
export function auditLogRouter({ db, config }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const query = parseRequest(req, 'query', auditLogQuery)
			if (query.format === 'csv') return sendCsv(db, req, res, workspace, query)
			const { events, total } = await listAuditEvents(db, workspace, query)
			res.json({ events, page: query.page, limit: query.limit, total, keptDays: config.AUDIT_LOG_DAYS })
		}),
	)

	router.get(
		'/export',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			await sendCsv(db, req, res, workspace, parseRequest(req, 'query', auditLogQuery))
		}),
	)

	return router
}

/** Every line the filters keep as CSV, each also said in the caller's language; streamed, a thousand lines at a time. */
async function sendCsv(db: DB, req: Request, res: Response, workspace: Parameters<typeof allAuditEvents>[1], query: Parameters<typeof allAuditEvents>[2]) {
	res.setHeader('Content-Type', 'text/csv; charset=utf-8')
	res.setHeader('Content-Disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`)
	// A byte order mark, so that Excel reads the file as UTF-8.
	res.write(`\uFEFF${csvLine(['created_at', 'actor_id', 'actor_name', 'kind', 'description'])}`)
	try {
		for await (const events of allAuditEvents(db, workspace, query)) {
			const chunk = events.map((event) => csvLine([event.createdAt, event.actor.id, event.actor.name, event.kind, auditLineText(req.t, event)])).join('')
			if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve))
			if (res.destroyed) return
		}
		res.end()
	} catch (error) {
		// Too late for an error answer: the client sees a cut-off download.
		req.log.error({ err: error }, 'audit log export failed')
		res.destroy()
	}
}
