import { type ApiClient, type AuditEventJson, type Query } from './api.ts'

// A workspace's audit log (api/audit/router.ts): the filters are auditFilters' (app/routes/audit-log.server.ts).
const auditOf = (workspaceId: string) => `/workspaces/${workspaceId}/audit-log`

export type AuditPage = { events: AuditEventJson[]; page: number; limit: number; total: number; keptDays: number }

export const listAuditEvents = (api: ApiClient, workspaceId: string, query: Query) => api.get<AuditPage>(auditOf(workspaceId), query)

/** The lines the filters keep, as CSV, to stream on. */
export const exportAuditLog = (api: ApiClient, workspaceId: string, filters: Query) => api.stream(`${auditOf(workspaceId)}/export`, filters, 'text/csv')
