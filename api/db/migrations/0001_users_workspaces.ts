import { sql, type Kysely } from 'kysely'

// Migrations take Kysely<unknown>: they must not depend on today's schema types.
export async function up(db: Kysely<unknown>) {
	await sql`create extension if not exists citext`.execute(db)
	await sql`create extension if not exists pg_trgm`.execute(db)
	await sql`create extension if not exists unaccent`.execute(db)

	await db.schema
		.createTable('users')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('email', sql`citext`, (col) => col.notNull().unique())
		.addColumn('name', 'text', (col) => col.notNull())
		.addColumn('password_hash', 'text', (col) => col.notNull())
		.addColumn('email_verified_at', 'timestamptz')
		.addColumn('locale', 'text', (col) => col.notNull().defaultTo('en-us'))
		.addColumn('theme', 'text', (col) => col.notNull().defaultTo('zinc'))
		.addColumn('current_workspace_id', 'uuid')
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.execute()

	await db.schema
		.createTable('workspaces')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('name', 'text', (col) => col.notNull())
		.addColumn('slug', 'text', (col) => col.notNull().unique())
		.addColumn('timezone', 'text', (col) => col.notNull().defaultTo('UTC'))
		.addColumn('default_locale', 'text', (col) => col.notNull().defaultTo('en-us'))
		.addColumn('logo_color', 'text', (col) => col.notNull().defaultTo('#6366f1'))
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.execute()

	await db.schema
		.alterTable('users')
		.addForeignKeyConstraint('users_current_workspace_fk', ['current_workspace_id'], 'workspaces', ['id'], (fk) => fk.onDelete('set null'))
		.execute()

	await db.schema
		.createTable('members')
		.addColumn('workspace_id', 'uuid', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
		.addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
		.addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('owner', 'admin', 'agent')`))
		.addColumn('availability', 'text', (col) =>
			col
				.notNull()
				.defaultTo('offline')
				.check(sql`availability in ('online', 'busy', 'offline')`),
		)
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addPrimaryKeyConstraint('members_pk', ['workspace_id', 'user_id'])
		.execute()
	await db.schema.createIndex('members_user_idx').on('members').column('user_id').execute()
	// Exactly one owner per workspace: the database refuses a second one.
	await sql`create unique index members_one_owner on members (workspace_id) where role = 'owner'`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await db.schema.dropTable('members').execute()
	await db.schema.alterTable('users').dropConstraint('users_current_workspace_fk').execute()
	await db.schema.dropTable('workspaces').execute()
	await db.schema.dropTable('users').execute()
}
