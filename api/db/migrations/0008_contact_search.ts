import { sql, type Kysely } from 'kysely'

/**
 * What a search reads, apart from the wide contact rows: id, workspace, sort keys and folded
 * search text, about a third of a contact's size, with the trigram index. A search reads every
 * match to sort it (decision 005); here its bitmap visits a third of the pages, which keep in
 * memory. Kept by statement-level triggers (one statement per import batch, not per row).
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table contact_search (
			contact_id uuid primary key,
			workspace_id uuid not null,
			name_key text collate "C" not null,
			created_at timestamptz not null,
			last_activity_at timestamptz not null,
			search_text text not null
		)
	`.execute(db)
	await sql`
		insert into contact_search (contact_id, workspace_id, name_key, created_at, last_activity_at, search_text)
		select id, workspace_id, name_key, created_at, last_activity_at, search_text from contacts
	`.execute(db)
	await sql`create index contact_search_text_idx on contact_search using gin (workspace_id, search_text gin_trgm_ops)`.execute(db)
	// The contacts' own trigram index has no reader left.
	await sql`drop index contacts_workspace_search_idx`.execute(db)

	await sql`
		create function crm_contact_search_sync() returns trigger language plpgsql as $$
		begin
			if tg_op = 'INSERT' then
				insert into contact_search (contact_id, workspace_id, name_key, created_at, last_activity_at, search_text)
				select id, workspace_id, name_key, created_at, last_activity_at, search_text from new_rows;
			elsif tg_op = 'UPDATE' then
				update contact_search set workspace_id = changed.workspace_id, name_key = changed.name_key, created_at = changed.created_at,
					last_activity_at = changed.last_activity_at, search_text = changed.search_text
				from new_rows changed where contact_search.contact_id = changed.id;
			else
				delete from contact_search where contact_id in (select id from old_rows);
			end if;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger contacts_search_inserted after insert on contacts referencing new table as new_rows for each statement execute function crm_contact_search_sync()`.execute(
		db,
	)
	await sql`create trigger contacts_search_updated after update on contacts referencing new table as new_rows for each statement execute function crm_contact_search_sync()`.execute(
		db,
	)
	await sql`create trigger contacts_search_deleted after delete on contacts referencing old table as old_rows for each statement execute function crm_contact_search_sync()`.execute(
		db,
	)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger contacts_search_deleted on contacts`.execute(db)
	await sql`drop trigger contacts_search_updated on contacts`.execute(db)
	await sql`drop trigger contacts_search_inserted on contacts`.execute(db)
	await sql`drop function crm_contact_search_sync()`.execute(db)
	await sql`create index contacts_workspace_search_idx on contacts using gin (workspace_id, search_text gin_trgm_ops)`.execute(db)
	await sql`drop table contact_search`.execute(db)
}
