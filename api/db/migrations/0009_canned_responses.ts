import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>) {
	// Replies a team keeps ready: `/code` in the composer finds them. A workspace has tens to hundreds.
	await db.schema
		.createTable('canned_responses')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('workspace_id', 'uuid', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
		.addColumn('short_code', sql`citext`, (col) => col.notNull())
		.addColumn('content', 'text', (col) => col.notNull())
		.addColumn('created_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addUniqueConstraint('canned_responses_workspace_code_key', ['workspace_id', 'short_code'])
		.execute()
}

export async function down(db: Kysely<unknown>) {
	await db.schema.dropTable('canned_responses').execute()
}
