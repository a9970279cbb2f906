import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>) {
	// A signed-in device. Only the SHA-256 of its token is kept: a database leak reveals no session.
	await db.schema
		.createTable('sessions')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
		.addColumn('token_hash', 'text', (col) => col.notNull().unique())
		.addColumn('user_agent', 'text')
		.addColumn('ip', 'text')
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('last_used_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('expires_at', 'timestamptz', (col) => col.notNull())
		.execute()
	await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute()

	// Single-use tokens sent by mail (verify e-mail, reset password), hashed like sessions.
	await db.schema
		.createTable('account_tokens')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
		.addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('verify_email', 'reset_password')`))
		.addColumn('token_hash', 'text', (col) => col.notNull().unique())
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('expires_at', 'timestamptz', (col) => col.notNull())
		.addColumn('used_at', 'timestamptz')
		.execute()
	await db.schema.createIndex('account_tokens_user_idx').on('account_tokens').columns(['user_id', 'purpose']).execute()
}

export async function down(db: Kysely<unknown>) {
	await db.schema.dropTable('account_tokens').execute()
	await db.schema.dropTable('sessions').execute()
}
