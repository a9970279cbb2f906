import { sql, type Kysely } from 'kysely'
import { type CannedResponse, type Database } from '#api/db/schema.ts'
import { containsPattern } from '#api/http/pagination.ts'

type Executor = Kysely<Database>

export type CannedResponseJson = { id: string; shortCode: string; content: string; createdAt: string; updatedAt: string }

export const cannedCodeConstraint = 'canned_responses_workspace_code_key'

export function cannedJson(row: CannedResponse): CannedResponseJson {
	return { id: row.id, shortCode: row.shortCode, content: row.content, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }
}

/**
 * A workspace's canned responses by short code. A search finds codes that start with it first,
 * then the others whose code or text contains it, ignoring case, accents and Arabic vowel marks.
 */
export async function listCanned(db: Executor, workspaceId: string, search?: string): Promise<CannedResponseJson[]> {
	let query = db.selectFrom('cannedResponses').selectAll().where('workspaceId', '=', workspaceId)
	if (search) {
		const contains = sql<string>`crm_fold(${containsPattern(search)})`
		query = query
			.where((eb) => eb.or([eb(sql`crm_fold(short_code::text)`, 'like', contains), eb(sql`crm_fold(content)`, 'like', contains)]))
			.orderBy(sql`starts_with(crm_fold(short_code::text), crm_fold(${search}))`, 'desc')
	}
	const rows = await query.orderBy('shortCode').orderBy('id').execute()
	return rows.map(cannedJson)
}
