import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>) {
	// Agent invitations. The code is kept in clear (128 random bits) because admins copy the link again later.
	await db.schema
		.createTable('invitations')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('workspace_id', 'uuid', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
		.addColumn('code', 'text', (col) => col.notNull().unique())
		.addColumn('method', 'text', (col) => col.notNull().check(sql`method in ('link', 'email')`))
		.addColumn('email', sql`citext`)
		.addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('admin', 'agent')`))
		.addColumn('expires_at', 'timestamptz', (col) => col.notNull())
		.addColumn('max_uses', 'integer', (col) => col.check(sql`max_uses > 0`))
		.addColumn('uses', 'integer', (col) => col.notNull().defaultTo(0))
		.addColumn('revoked_at', 'timestamptz')
		.addColumn('created_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addCheckConstraint('invitations_email_method', sql`(method = 'email') = (email is not null)`)
		.execute()
	await db.schema.createIndex('invitations_workspace_idx').on('invitations').columns(['workspace_id', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>) {
	await db.schema.dropTable('invitations').execute()
}
