import { sql, type Kysely } from 'kysely'

/**
 * The words of each conversation's messages in one row (docs/decisions/010-inbox.md, "The
 * search"): a search reads one small row per matching conversation instead of every matching
 * message's heap row, and the planner may walk a tab's index checking each conversation's words
 * when a word is common. Kept by a statement-level trigger on messages (an import or the bench's
 * seed is one statement); activity lines have no body. Messages are never edited nor deleted one
 * by one: they go with their conversation, and so does this row.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table conversation_words (
			conversation_id uuid primary key references conversations(id) on delete cascade,
			workspace_id uuid not null,
			words tsvector not null
		)
	`.execute(db)
	await sql`
		create function crm_conversation_words_add() returns trigger language plpgsql as $$
		begin
			insert into conversation_words (conversation_id, workspace_id, words)
			select conversation_id, workspace_id, strip(crm_message_words(string_agg(body, E'\\n'))) from new_rows
			where body <> '' group by conversation_id, workspace_id
			order by conversation_id
			on conflict (conversation_id) do update set words = conversation_words.words || excluded.words;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger messages_words_inserted after insert on messages referencing new table as new_rows for each statement execute function crm_conversation_words_add()`.execute(
		db,
	)
	await sql`
		insert into conversation_words (conversation_id, workspace_id, words)
		select conversation_id, workspace_id, strip(crm_message_words(string_agg(body, E'\\n'))) from messages where body <> '' group by 1, 2
	`.execute(db)
	await sql`create index conversation_words_idx on conversation_words using gin (workspace_id, words)`.execute(db)
	// Its only reader was the search.
	await sql`drop index messages_workspace_words_idx`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`create index messages_workspace_words_idx on messages using gin (workspace_id, crm_message_words(body))`.execute(db)
	await sql`drop trigger messages_words_inserted on messages`.execute(db)
	await sql`drop function crm_conversation_words_add()`.execute(db)
	await sql`drop table conversation_words`.execute(db)
}
