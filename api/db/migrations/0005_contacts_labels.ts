import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>) {
	// unaccent() is only STABLE (its dictionary is looked up by name); pinned to the extension's schema, it may be IMMUTABLE.
	const { rows } = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'unaccent'`.execute(db)
	const schema = rows[0]?.schema ?? 'public'
	await sql`
		create or replace function f_unaccent(text) returns text language sql immutable parallel safe strict
		as ${sql.lit(`select ${schema}.unaccent('${schema}.unaccent'::regdictionary, $1)`)}
	`.execute(db)

	// PostgreSQL 17+ has a built-in Unicode collation whose lower() does not depend on the server's locale.
	const builtin = await sql`select 1 from pg_collation where collname = 'pg_c_utf8'`.execute(db)
	const lower = builtin.rows.length ? 'lower(f_unaccent($1) collate pg_c_utf8)' : 'lower(f_unaccent($1))'
	// Text as people search and sort it: no case, no Latin accents, no Arabic vowel marks or tatweel, one alef, yeh and heh.
	await sql`
		create or replace function crm_fold(text) returns text language sql immutable parallel safe strict
		as ${sql.lit(`select translate(regexp_replace(${lower}, '[\\u0610-\\u061A\\u064B-\\u065F\\u0670\\u06D6-\\u06ED\\u0640]', '', 'g'), 'أإآٱىةیک', 'اااايهيك')`)}
	`.execute(db)
	// The phone without its `+`, so that typed digits find it.
	await sql`
		create or replace function crm_contact_search_text(name text, email text, phone text, company text) returns text
		language sql immutable parallel safe
		as ${sql.lit(`select crm_fold(coalesce(name, '') || E'\\n' || coalesce(email, '') || E'\\n' || coalesce(replace(phone, '+', ''), '') || E'\\n' || coalesce(company, ''))`)}
	`.execute(db)

	await db.schema
		.createTable('labels')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('workspace_id', 'uuid', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
		.addColumn('title', sql`citext`, (col) => col.notNull())
		.addColumn('description', 'text')
		.addColumn('color', 'text', (col) => col.notNull())
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addUniqueConstraint('labels_workspace_title_key', ['workspace_id', 'title'])
		.addUniqueConstraint('labels_workspace_id_key', ['workspace_id', 'id'])
		.execute()

	await db.schema
		.createTable('contacts')
		.addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
		.addColumn('workspace_id', 'uuid', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
		.addColumn('name', 'text', (col) => col.notNull())
		.addColumn('email', 'text')
		.addColumn('phone', 'text')
		.addColumn('company', 'text')
		.addColumn('notes', 'text')
		.addColumn('attributes', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
		.addColumn('avatar_color', 'text', (col) => col.notNull())
		// Conversations will move it; until then it is when the contact was created.
		.addColumn('last_activity_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		// Byte order of folded text is alphabetical for Latin and Arabic alike, and needs no locale.
		.addColumn('name_key', sql`text collate "C"`, (col) =>
			col
				.notNull()
				.generatedAlwaysAs(sql`crm_fold(name)`)
				.stored(),
		)
		.addColumn('search_text', 'text', (col) =>
			col
				.notNull()
				.generatedAlwaysAs(sql`crm_contact_search_text(name, email, phone, company)`)
				.stored(),
		)
		.addUniqueConstraint('contacts_workspace_email_key', ['workspace_id', 'email'])
		.addUniqueConstraint('contacts_workspace_id_key', ['workspace_id', 'id'])
		.execute()
	// One index per sort, each ending in id: keyset pages walk them in either direction.
	await db.schema.createIndex('contacts_name_idx').on('contacts').columns(['workspace_id', 'name_key', 'id']).execute()
	await db.schema.createIndex('contacts_created_idx').on('contacts').columns(['workspace_id', 'created_at', 'id']).execute()
	await db.schema.createIndex('contacts_activity_idx').on('contacts').columns(['workspace_id', 'last_activity_at', 'id']).execute()
	await db.schema.createIndex('contacts_phone_idx').on('contacts').columns(['workspace_id', 'phone']).execute()
	await sql`create index contacts_search_idx on contacts using gin (search_text gin_trgm_ops)`.execute(db)

	// workspace_id in both foreign keys: a label can only ever be on a contact of its own workspace.
	await db.schema
		.createTable('contact_labels')
		.addColumn('workspace_id', 'uuid', (col) => col.notNull())
		.addColumn('contact_id', 'uuid', (col) => col.notNull())
		.addColumn('label_id', 'uuid', (col) => col.notNull())
		.addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
		.addPrimaryKeyConstraint('contact_labels_pk', ['contact_id', 'label_id'])
		.addForeignKeyConstraint('contact_labels_contact_fk', ['workspace_id', 'contact_id'], 'contacts', ['workspace_id', 'id'], (fk) => fk.onDelete('cascade'))
		.addForeignKeyConstraint('contact_labels_label_fk', ['workspace_id', 'label_id'], 'labels', ['workspace_id', 'id'], (fk) => fk.onDelete('cascade'))
		.execute()
	await db.schema.createIndex('contact_labels_label_idx').on('contact_labels').columns(['label_id', 'contact_id']).execute()
}

export async function down(db: Kysely<unknown>) {
	await db.schema.dropTable('contact_labels').execute()
	await db.schema.dropTable('contacts').execute()
	await db.schema.dropTable('labels').execute()
	await sql`drop function if exists crm_contact_search_text(text, text, text, text)`.execute(db)
	await sql`drop function if exists crm_fold(text)`.execute(db)
	await sql`drop function if exists f_unaccent(text)`.execute(db)
}
