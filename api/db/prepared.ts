import crypto from 'node:crypto'
import { type Compilable, type Kysely } from 'kysely'
import pg from 'pg'

/**
 * Prepared statements, for the few queries whose planning costs more than their execution (the
 * inbox's conversation rows: five joins and a subquery, about 1 ms to plan for 0.6 ms to run;
 * decision 010). Such a query is marked by `executePrepared`; the pool's clients run a marked
 * statement as a named one, which PostgreSQL parses once per connection and, its plan being the
 * same whatever the values, plans once too (a generic plan after five runs). Only marked queries:
 * every other statement is planned for its own values, and the named ones stay few per connection.
 * Behind a transaction-pooling PgBouncer older than 1.21, named statements are not supported.
 */
const marker = '/* prepared */ '

const names = new Map<string, string>()
function statementName(text: string): string {
	let name = names.get(text)
	if (!name) {
		name = `crm_${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}`
		names.set(text, name)
	}
	return name
}

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown

/** The pool's client: a marked statement goes out named, anything else as pg sends it. */
export class PreparingClient extends pg.Client {}
const plainQuery = pg.Client.prototype.query as Query
;(PreparingClient.prototype as unknown as { query: Query }).query = function (this: pg.Client, config, values, callback) {
	if (typeof config === 'string' && config.startsWith(marker)) return plainQuery.call(this, { name: statementName(config), text: config, values }, callback)
	return plainQuery.call(this, config, values, callback)
}

/** Runs a query as a prepared statement (see above): for fixed-shape queries only, whose text does not vary with the values. */
export async function executePrepared<Row, Database>(db: Kysely<Database>, query: Compilable<Row>): Promise<Row[]> {
	const compiled = query.compile()
	const { rows } = await db.executeQuery<Row>({ ...compiled, sql: `${marker}${compiled.sql}` })
	return rows
}
