import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { type AuditEventJson } from './queries.ts'
import { auditKinds } from './record.ts'
import { auditLogQuery } from './schemas.ts'

const auditEvent = answerSchema<AuditEventJson>()(
	z
		.object({
			id: z.string(),
			kind: z.string().openapi({
				description: `One of ${auditKinds.join(', ')}: the line's translation key under \`audit:events\`.`,
			}),
			values: z.record(z.union([z.string(), z.number()])).openapi({
				description: 'What the line is said with: names and counts, never a secret.',
			}),
			actor: z.object({ id: z.string().uuid().nullable(), name: z.string() }),
			createdAt: z.string().datetime(),
		})
		.openapi('AuditEvent'),
)

/** `/v1/workspaces/{id}/audit-log` (router.ts): owners and admins only. */
export function documentAuditLog(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'Who did what, and when',
		description:
			'Newest first, kept 365 days unless AUDIT_LOG_DAYS says otherwise. Filter by person (`actorId`), `kind` and days (`from`, `to`, in the workspace’s time zone). `format=csv` answers every matching line as CSV, like `/export`.',
		params: workspaceParams,
		query: auditLogQuery,
		responses: {
			200: {
				description: 'A page of the log.',
				schema: z.object({
					events: z.array(auditEvent),
					page: z.number().int(),
					limit: z.number().int(),
					total: z.number().int(),
					keptDays: z.number().int().openapi({ description: 'How many days lines are kept (AUDIT_LOG_DAYS).' }),
				}),
			},
		},
		errors: [403],
	})
	docs.add({
		method: 'get',
		path: '/export',
		summary: 'The log as CSV',
		description: 'Every line the filters keep (pages are ignored), with each line said in the caller’s language.',
		params: workspaceParams,
		query: auditLogQuery,
		responses: {
			200: {
				description: 'A CSV file, with English column names.',
				type: 'text/csv',
			},
		},
		errors: [403],
	})
}
