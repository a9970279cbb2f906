import { type ApiClient, type Query, type ReportJson, type SatisfactionReportJson } from './api.ts'

// A workspace's reports (api/reports/router.ts): the query is reportApiQuery's (app/utils/reports.ts).
const reportsOf = (workspaceId: string) => `/workspaces/${workspaceId}/reports`

export const getReport = (api: ApiClient, workspaceId: string, query: Query) => api.get<ReportJson>(reportsOf(workspaceId), query)

/** One table of the report (`daily`, `weekly`, `channels`, `agents`, `teams`, `heatmap`) as CSV, to stream on. */
export const exportReport = (api: ApiClient, workspaceId: string, table: string, query: Query) =>
	api.stream(`${reportsOf(workspaceId)}/export`, { table, ...query }, 'text/csv')

/** The satisfaction surveys' figures over the report's range and filters. */
export const getSatisfaction = (api: ApiClient, workspaceId: string, query: Query) =>
	api.get<SatisfactionReportJson>(`${reportsOf(workspaceId)}/satisfaction`, query)
