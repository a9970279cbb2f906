import crypto from 'node:crypto'
import { createQueryId, type Compilable, type Kysely, type RootOperationNode } from 'kysely'
import pg from 'pg'

/**
 * Prepared statements, for the few queries whose planning costs more than their execution (the
 * inbox's conversation rows: five joins and a subquery, about 1 ms to plan for 0.6 ms to run;
 * decision 010). Such a query is marked by `preparedQuery` (below); the pool's clients run a marked
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

type Shape = { sql: string; query: RootOperationNode; slots: Array<{ name: string } | { value: unknown }> }

/**
 * A fixed-shape query that is built and compiled once per database handle, then run as a prepared
 * statement (above) with each call's values: building and compiling a query with Kysely cost Node
 * more than sending it (decision 009). `build` is called once, with placeholders standing for the
 * values, so it must use them as values only, never to choose the query's shape.
 */
export function preparedQuery<Values extends Record<string, unknown>, Row, Database>(
	build: (db: Kysely<Database>, values: Values) => Compilable<Row>,
): (db: Kysely<Database>, values: Values) => Promise<Row[]> {
	// Per handle: its plugins (CamelCasePlugin) are part of the compiled text. A transaction is a new handle each time.
	const shapes = new WeakMap<Kysely<Database>, Shape>()
	return async (db, values) => {
		let shape = shapes.get(db)
		if (!shape) {
			shape = compileShape(db, build, Object.keys(values))
			shapes.set(db, shape)
		}
		const parameters = shape.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value))
		const { rows } = await db.executeQuery<Row>({ query: shape.query, queryId: createQueryId(), sql: shape.sql, parameters })
		return rows
	}
}

function compileShape<Values extends Record<string, unknown>, Database>(
	db: Kysely<Database>,
	build: (db: Kysely<Database>, values: Values) => Compilable<unknown>,
	names: string[],
): Shape {
	const tag = crypto.randomUUID()
	const placeholders = Object.fromEntries(names.map((name) => [name, `\u0000${tag}:${name}`]))
	const compiled = build(db, placeholders as Values).compile()
	if (names.some((name) => compiled.sql.includes(placeholders[name]!)))
		throw new Error('preparedQuery: a value was written into the SQL text instead of passed as a parameter')
	const byPlaceholder = new Map(names.map((name) => [placeholders[name], name]))
	const slots = compiled.parameters.map((value) => {
		const name = typeof value === 'string' ? byPlaceholder.get(value) : undefined
		return name === undefined ? { value } : { name }
	})
	return { sql: `${marker}${compiled.sql}`, query: compiled.query, slots }
}
