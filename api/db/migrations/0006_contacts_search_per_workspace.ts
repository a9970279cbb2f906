import { sql, type Kysely } from 'kysely'

// The trigram index led by workspace_id (btree_gin): a search reads candidates of its own workspace only, however many others the installation holds.
export async function up(db: Kysely<unknown>) {
	await sql`create extension if not exists btree_gin`.execute(db)
	await sql`create index contacts_workspace_search_idx on contacts using gin (workspace_id, search_text gin_trgm_ops)`.execute(db)
	await sql`drop index contacts_search_idx`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`create index contacts_search_idx on contacts using gin (search_text gin_trgm_ops)`.execute(db)
	await sql`drop index contacts_workspace_search_idx`.execute(db)
}
