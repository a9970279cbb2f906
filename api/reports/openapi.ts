import { type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { exportQuery, reportQuery } from './schemas.ts'

/** `/v1/workspaces/{id}/reports` (router.ts): every member reads them; an agent only their own work. */
export function documentReports(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The dashboard’s figures',
		description:
			'Against the previous period of the same length: totals, days, weeks, channels, the heat map of the week, agents and teams, and how long conversations waited in a team’s queue (median and 90th percentile, whole and by team). Filtered by channel, agent, label and team (a conversation’s current team). Days are in the workspace’s time zone.',
		params: workspaceParams,
		query: reportQuery,
		responses: { 200: 'The report.' },
		errors: [403, 422],
	})
	docs.add({
		method: 'get',
		path: '/satisfaction',
		summary: 'The satisfaction surveys’ figures',
		description:
			'Surveys asked over the range, rated, and rated 4 or 5: CSAT (the share of 4 and 5 among ratings) and the response rate (rated / asked), overall and by agent, team and channel as they were at the resolution. The same range and filters as the report.',
		params: workspaceParams,
		query: reportQuery,
		responses: { 200: 'The figures.' },
		errors: [403, 422],
	})
	docs.add({
		method: 'get',
		path: '/export',
		summary: 'One table of the report as CSV',
		description: 'The tables: daily, weekly, channels, agents, teams (with their queue waits), heatmap and satisfaction; the same filters as the report.',
		params: workspaceParams,
		query: [reportQuery, exportQuery],
		responses: { 200: { description: 'A CSV file, with English column names.', type: 'text/csv' } },
		errors: [403, 422],
	})
}
