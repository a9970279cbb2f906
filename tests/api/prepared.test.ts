import { sql } from 'kysely'
import { expect, inject, test } from 'vitest'
import { createDb } from '#api/db/database.ts'
import { executePrepared } from '#api/db/prepared.ts'

test('a query run by executePrepared is a named statement of its connection, typed and camel-cased like any other; other queries are not', async () => {
	// One connection, so that every statement below runs on it.
	const db = createDb(inject('databaseUrl'), 1)
	try {
		const query = (email: string) => db.selectFrom('users').select(['id', 'createdAt']).where('email', '=', email)
		expect(await executePrepared(db, query('nobody@example.test'))).toEqual([])
		expect(await executePrepared(db, query('someone-else@example.test'))).toEqual([])
		await db.selectFrom('workspaces').select('id').where('slug', '=', 'none').execute()
		const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)
		// The same text with other values is the same statement.
		expect(rows).toHaveLength(1)
		expect(rows[0]?.name).toMatch(/^crm_[0-9a-f]{16}$/)
		expect(rows[0]?.statement).toContain('from "users"')

		const [row] = await executePrepared(db, db.selectNoFrom(sql<Date>`now()`.as('createdAt')))
		expect(row?.createdAt).toBeInstanceOf(Date)
	} finally {
		await db.destroy()
	}
})
