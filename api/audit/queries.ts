import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type AuditValues, type Workspace } from '#api/db/schema.ts'
import { offsetOf } from '#api/http/pagination.ts'
import { type AuditLogQuery } from './schemas.ts'

export type AuditEventJson = {
	id: string
	kind: string
	values: AuditValues
	actor: { id: string | null; name: string }
	createdAt: string
}

/** A workspace's lines that the query's filters keep; its days start and end at midnight in the workspace's time zone. */
function filtered(db: DB, workspace: Pick<Workspace, 'id' | 'timezone'>, query: Omit<AuditLogQuery, 'page' | 'limit' | 'format'>) {
	return db
		.selectFrom('auditEvents')
		.where('workspaceId', '=', workspace.id)
		.$if(Boolean(query.actorId), (qb) => qb.where('actorId', '=', query.actorId!))
		.$if(Boolean(query.kind), (qb) => qb.where('kind', '=', query.kind!))
		.$if(Boolean(query.from), (qb) => qb.where('createdAt', '>=', sql<Date>`(${query.from}::date)::timestamp at time zone ${workspace.timezone}`))
		.$if(Boolean(query.to), (qb) => qb.where('createdAt', '<', sql<Date>`(${query.to}::date + 1)::timestamp at time zone ${workspace.timezone}`))
}

const columns = ['id', 'kind', 'values', 'actorId', 'actorName', 'createdAt'] as const

function eventJson(row: { id: number; kind: string; values: AuditValues; actorId: string | null; actorName: string; createdAt: Date }): AuditEventJson {
	return {
		id: String(row.id),
		kind: row.kind,
		values: row.values,
		actor: { id: row.actorId, name: row.actorName },
		createdAt: row.createdAt.toISOString(),
	}
}

// Newest first is by id, which follows the order lines were written in (created_at, a transaction's start, nearly does).

/** One page of the log, newest first, and how many lines the filters keep. */
export async function listAuditEvents(db: DB, workspace: Pick<Workspace, 'id' | 'timezone'>, query: AuditLogQuery) {
	const base = filtered(db, workspace, query)
	const [rows, count] = await Promise.all([
		base.select(columns).orderBy('id', 'desc').limit(query.limit).offset(offsetOf(query)).execute(),
		base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
	])
	return { events: rows.map(eventJson), total: Number(count.total) }
}

/** Every line the filters keep, newest first, a thousand at a time (by keyset): memory stays flat for a year of lines. */
export async function* allAuditEvents(db: DB, workspace: Pick<Workspace, 'id' | 'timezone'>, query: AuditLogQuery): AsyncGenerator<AuditEventJson[]> {
	let after: number | undefined
	for (;;) {
		const rows = await filtered(db, workspace, query)
			.select(columns)
			.$if(after !== undefined, (qb) => qb.where('id', '<', after!))
			.orderBy('id', 'desc')
			.limit(1000)
			.execute()
		if (rows.length === 0) return
		yield rows.map(eventJson)
		const last = rows[rows.length - 1]!
		after = last.id
		if (rows.length < 1000) return
	}
}

/** Deletes the lines older than `days` days, in every workspace; returns how many. */
export async function pruneAuditLog(db: DB, days: number): Promise<number> {
	const deleted = await db
		.deleteFrom('auditEvents')
		.where('createdAt', '<', sql<Date>`now() - make_interval(days => ${days}::int)`)
		.executeTakeFirst()
	return Number(deleted.numDeletedRows)
}
