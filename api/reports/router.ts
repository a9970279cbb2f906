import { Router, type Request } from 'express'
import { csvLine } from '#api/contacts/csv.ts'
import { recordAudit } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { requireMember } from '#api/workspaces/membership.ts'
import { type ReportJson, type ReportTable } from './json.ts'
import { readReport, resolveRange } from './queries.ts'
import { readSatisfaction, satisfactionCsv, type SatisfactionReportJson } from './satisfaction.ts'
import { refreshBeforeReading } from './rollup.ts'
import { exportQuery, reportQuery } from './schemas.ts'

/**
 * `/v1/workspaces/:id/reports`: the dashboard's figures from the daily roll-ups, and each of its
 * tables as CSV. Every member reads them; an agent only their own work.
 */
export function reportsRouter({ db }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	/** The report of the query, or with `satisfaction` its satisfaction surveys over the same range and filters. */
	async function report(req: Request): Promise<ReportJson>
	async function report(req: Request, satisfaction: true): Promise<SatisfactionReportJson>
	async function report(req: Request, satisfaction = false): Promise<ReportJson | SatisfactionReportJson> {
		const { workspace, role } = await requireMember(db, req)
		const query = parseRequest(req, 'query', reportQuery)
		const onlyAgent = role === 'agent' ? req.user.id : undefined
		if (onlyAgent && query.agentId && query.agentId !== onlyAgent) throw new HttpError(403, 'reports.ownOnly')
		const filters = { channelId: query.channelId ?? null, agentId: query.agentId ?? null, labelId: query.labelId ?? null, teamId: query.teamId ?? null }
		// An id of another workspace (or none) finds nothing: the same 422 for both, so nothing tells them apart.
		if (
			filters.channelId &&
			!(await db.selectFrom('channels').select('id').where('workspaceId', '=', workspace.id).where('id', '=', filters.channelId).executeTakeFirst())
		) {
			throw fieldError(req, 422, 'channelId', 'errors.notFound')
		}
		if (
			filters.labelId &&
			!(await db.selectFrom('labels').select('id').where('workspaceId', '=', workspace.id).where('id', '=', filters.labelId).executeTakeFirst())
		) {
			throw fieldError(req, 422, 'labelId', 'errors.notFound')
		}
		if (
			filters.teamId &&
			!(await db.selectFrom('teams').select('id').where('workspaceId', '=', workspace.id).where('id', '=', filters.teamId).executeTakeFirst())
		) {
			throw fieldError(req, 422, 'teamId', 'errors.notFound')
		}
		if (
			filters.agentId &&
			!(await db.selectFrom('members').select('userId').where('workspaceId', '=', workspace.id).where('userId', '=', filters.agentId).executeTakeFirst())
		) {
			throw fieldError(req, 422, 'agentId', 'errors.notFound')
		}
		const custom = query.from && query.to ? { from: query.from, to: query.to } : undefined
		const { range, previous } = resolveRange(query.preset, workspace.timezone, custom)
		if (satisfaction) return readSatisfaction(db, workspace, range, filters, onlyAgent)
		const version = await refreshBeforeReading(db, workspace.id)
		return readReport(db, workspace, { preset: query.preset, range, previous, filters, targetSeconds: query.target, hours: query.hours, onlyAgent, version })
	}

	router.get(
		'/',
		handler(async (req, res) => {
			res.json(await report(req))
		}),
	)

	router.get(
		'/satisfaction',
		handler(async (req, res) => {
			res.json(await report(req, true))
		}),
	)

	router.get(
		'/export',
		handler(async (req, res) => {
			const { table } = parseRequest(req, 'query', exportQuery)
			const answer = table === 'satisfaction' ? await report(req, true) : await report(req)
			const { workspace } = await requireMember(db, req)
			await recordAudit(db, workspace.id, req.user, 'export.report', { table, from: answer.range.from, to: answer.range.to })
			res.setHeader('Content-Type', 'text/csv; charset=utf-8')
			res.setHeader('Content-Disposition', `attachment; filename="report-${table}-${answer.range.from}-${answer.range.to}.csv"`)
			res.send(table === 'satisfaction' ? satisfactionCsv(answer as SatisfactionReportJson) : tableCsv(answer as ReportJson, table))
		}),
	)

	return router
}

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']

/** One table of a report as CSV: a header row in English column names (a spreadsheet's), then its rows. */
export function tableCsv(report: ReportJson, table: ReportTable): string {
	const rows: Array<Array<string | number | null>> =
		table === 'daily'
			? [
					['day', 'opened', 'resolved', 'messages_in', 'messages_out', 'first_response_median_seconds'],
					...report.daily.map((row) => [row.day, row.opened, row.resolved, row.messagesIn, row.messagesOut, row.firstResponseMedian]),
				]
			: table === 'weekly'
				? [
						['from', 'to', 'opened', 'resolved', 'messages_in', 'messages_out', 'first_response_median_seconds'],
						...report.weekly.map((row) => [row.from, row.to, row.opened, row.resolved, row.messagesIn, row.messagesOut, row.firstResponseMedian]),
					]
				: table === 'channels'
					? [
							['channel_id', 'name', 'kind', 'opened', 'resolved', 'messages_in', 'messages_out'],
							...report.channels.map((row) => [row.channelId, row.name, row.kind, row.opened, row.resolved, row.messagesIn, row.messagesOut]),
						]
					: table === 'agents'
						? [
								['user_id', 'name', 'availability', 'assigned', 'replied', 'resolved', 'first_response_median_seconds', 'resolution_median_seconds'],
								...report.agents.map((row) => [
									row.userId,
									row.name,
									row.availability,
									row.assigned,
									row.replied,
									row.resolved,
									row.firstResponseMedian,
									row.resolutionMedian,
								]),
							]
						: table === 'teams'
							? [
									[
										'team_id',
										'name',
										'opened',
										'resolved',
										'first_response_median_seconds',
										'resolution_median_seconds',
										'queue_waits',
										'queue_wait_median_seconds',
										'queue_wait_p90_seconds',
									],
									...report.teams.map((row) => [
										row.teamId,
										row.name,
										row.opened,
										row.resolved,
										row.firstResponseMedian,
										row.resolutionMedian,
										row.queueWaits,
										row.queueWaitMedian,
										row.queueWaitP90,
									]),
								]
							: [
									['weekday', ...Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`)],
									...report.heatmap.map((hours, index) => [weekdays[index] ?? '', ...hours]),
								]
	return rows.map((row) => csvLine(row.map((cell) => (cell === null ? '' : String(cell))))).join('')
}
