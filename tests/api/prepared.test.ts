import { sql } from 'kysely'
import { expect, inject, test } from 'vitest'
import { createDb, type DB } from '#api/db/database.ts'
import { preparedQuery } from '#api/db/prepared.ts'

test('a preparedQuery is a named statement of its connection, typed and camel-cased like any other; other queries are not', async () => {
	// One connection, so that every statement below runs on it.
	const db = createDb(inject('databaseUrl'), 1)
	try {
		const query = preparedQuery((db: DB, { email }: { email: string }) => db.selectFrom('users').select(['id', 'createdAt']).where('email', '=', email))
		expect(await query(db, { email: 'nobody@example.test' })).toEqual([])
		expect(await query(db, { email: 'someone-else@example.test' })).toEqual([])
		await db.selectFrom('workspaces').select('id').where('slug', '=', 'none').execute()
		const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)
		// The same text with other values is the same statement.
		expect(rows).toHaveLength(1)
		expect(rows[0]?.name).toMatch(/^crm_[0-9a-f]{16}$/)
		expect(rows[0]?.statement).toContain('from "users"')

		const now = preparedQuery((db: DB, _values: Record<string, never>) => db.selectNoFrom(sql<Date>`now()`.as('createdAt')))
		const [row] = await now(db, {})
		expect(row?.createdAt).toBeInstanceOf(Date)
	} finally {
		await db.destroy()
	}
})

test('a preparedQuery is built once and runs with each call’s values in their places, beside the constants of its text', async () => {
	const db = createDb(inject('databaseUrl'), 1)
	try {
		let builds = 0
		const echo = preparedQuery((db: DB, values: { first: string; second: number; list: string[] }) => {
			builds++
			return db.selectNoFrom([
				sql<string>`${values.first}::text`.as('first'),
				sql<string>`${'constant'}::text`.as('constant'),
				sql<number>`${values.second}::int`.as('second'),
				sql<string[]>`${values.list}::text[]`.as('list'),
				sql<string>`${values.first}::text || '!'`.as('again'),
			])
		})
		expect(await echo(db, { first: 'a', second: 1, list: ['x'] })).toEqual([{ first: 'a', constant: 'constant', second: 1, list: ['x'], again: 'a!' }])
		expect(await echo(db, { first: 'b', second: 2, list: ['y', 'z'] })).toEqual([
			{ first: 'b', constant: 'constant', second: 2, list: ['y', 'z'], again: 'b!' },
		])
		expect(builds).toBe(1)

		// A value written into the text would be frozen into the statement: refused.
		const inlined = preparedQuery((db: DB, values: { name: string }) => db.selectNoFrom(sql.lit(values.name).as('name')))
		await expect(inlined(db, { name: 'x' })).rejects.toThrow(/SQL text/)
	} finally {
		await db.destroy()
	}
})
