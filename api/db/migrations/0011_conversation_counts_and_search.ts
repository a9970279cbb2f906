import { sql, type Kysely } from 'kysely'

// A primary key has no nulls: unassigned conversations are counted under the nil uuid.
const unassignedKey = '00000000-0000-0000-0000-000000000000'

/** Adds the changed rows' counts (`sign` 1 for new rows, -1 for old ones) to conversation_counts, in key order so that writers never deadlock. */
function countChanges(parts: Array<{ rows: 'new_rows' | 'old_rows'; sign: 1 | -1 }>) {
	const deltas = parts
		.map(({ rows, sign }) => `select workspace_id, coalesce(assignee_id, '${unassignedKey}'::uuid) as assignee_key, status, ${sign} as delta from ${rows}`)
		.join(' union all ')
	return `
		insert into conversation_counts (workspace_id, assignee_key, status, count)
		select changed.workspace_id, changed.assignee_key, changed.status, sum(changed.delta)::int
		from (${deltas}) changed
		where exists (select 1 from workspaces where workspaces.id = changed.workspace_id)
		group by changed.workspace_id, changed.assignee_key, changed.status
		having sum(changed.delta) <> 0
		order by 1, 2, 3
		on conflict (workspace_id, assignee_key, status) do update set count = conversation_counts.count + excluded.count;`
}

/**
 * The inbox at 100 000 conversations and 1 000 000 messages (docs/decisions/010-inbox.md):
 * - how many conversations each status tab has per assignee, kept by statement-level triggers
 *   (as contacts are counted, 0007), so that the tabs' counts and the sidebar read a few rows;
 * - the indexes the list walks for each tab, assignee and sort, with its keyset;
 * - a full-text index over the folded message bodies (Arabic folded by crm_fold as contacts are).
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table conversation_counts (
			workspace_id uuid not null references workspaces(id) on delete cascade,
			assignee_key uuid not null,
			status text not null,
			count integer not null default 0,
			primary key (workspace_id, assignee_key, status)
		)
	`.execute(db)

	// An update that changes neither status nor assignee (every new message) nets to nothing and writes nothing.
	// The workspace check skips a workspace being deleted (its conversations go by cascade).
	await sql`
		create function crm_count_conversations() returns trigger language plpgsql as $$
		begin
			if tg_op = 'INSERT' then
				${sql.raw(countChanges([{ rows: 'new_rows', sign: 1 }]))}
			elsif tg_op = 'UPDATE' then
				${sql.raw(
					countChanges([
						{ rows: 'new_rows', sign: 1 },
						{ rows: 'old_rows', sign: -1 },
					]),
				)}
			else
				${sql.raw(countChanges([{ rows: 'old_rows', sign: -1 }]))}
			end if;
			return null;
		end $$
	`.execute(db)
	await sql`create trigger conversations_count_inserted after insert on conversations referencing new table as new_rows for each statement execute function crm_count_conversations()`.execute(
		db,
	)
	await sql`create trigger conversations_count_updated after update on conversations referencing old table as old_rows new table as new_rows for each statement execute function crm_count_conversations()`.execute(
		db,
	)
	await sql`create trigger conversations_count_deleted after delete on conversations referencing old table as old_rows for each statement execute function crm_count_conversations()`.execute(
		db,
	)
	await sql`
		insert into conversation_counts (workspace_id, assignee_key, status, count)
		select workspace_id, coalesce(assignee_id, ${sql.lit(unassignedKey)}::uuid), status, count(*) from conversations group by 1, 2, 3
	`.execute(db)

	// The list's keysets, newest first (scanned backwards): a status tab, a tab of one assignee (or unassigned), every status.
	await sql`create index conversations_status_activity_idx on conversations (workspace_id, status, last_activity_at, id)`.execute(db)
	await sql`create index conversations_assignee_activity_idx on conversations (workspace_id, assignee_id, status, last_activity_at, id)`.execute(db)
	await sql`create index conversations_activity_idx on conversations (workspace_id, last_activity_at, id)`.execute(db)
	await sql`create index conversations_status_priority_idx on conversations (workspace_id, status, priority, last_activity_at, id)`.execute(db)
	await sql`create index conversations_priority_idx on conversations (workspace_id, priority, last_activity_at, id)`.execute(db)
	// "created" sorts by number, which follows creation.
	await sql`create index conversations_status_number_idx on conversations (workspace_id, status, number)`.execute(db)
	// A customer's latest conversation on a channel (receiveMessage), the conversations of contacts a search finds, a contact's deletion.
	await sql`create index conversations_contact_idx on conversations (contact_id, channel_id, created_at)`.execute(db)
	// Words of message bodies, folded as contacts are; the list's search matches prefixes of them.
	// The search's words go through the same parser as the bodies', each quoted for to_tsquery and matched as a prefix.
	await sql`
		create function crm_search_query(text) returns tsquery language sql immutable parallel safe strict
		as ${sql.lit(
			"select to_tsquery('simple', string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ')) from unnest(to_tsvector('simple', crm_fold($1)))",
		)}
	`.execute(db)
	// PostgreSQL 17 builds indexes with a search_path of pg_catalog only, where crm_fold's f_unaccent is not found: the function keeps the migration's.
	await sql`
		create function crm_message_words(text) returns tsvector language sql immutable parallel safe strict set search_path from current
		as 'select to_tsvector(''simple'', crm_fold($1))'
	`.execute(db)
	await sql`create index messages_body_search_idx on messages using gin (crm_message_words(body))`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop index messages_body_search_idx`.execute(db)
	await sql`drop function crm_message_words(text)`.execute(db)
	await sql`drop function crm_search_query(text)`.execute(db)
	await sql`drop index conversations_contact_idx`.execute(db)
	await sql`drop index conversations_status_number_idx`.execute(db)
	await sql`drop index conversations_priority_idx`.execute(db)
	await sql`drop index conversations_status_priority_idx`.execute(db)
	await sql`drop index conversations_activity_idx`.execute(db)
	await sql`drop index conversations_assignee_activity_idx`.execute(db)
	await sql`drop index conversations_status_activity_idx`.execute(db)
	await sql`drop trigger conversations_count_deleted on conversations`.execute(db)
	await sql`drop trigger conversations_count_updated on conversations`.execute(db)
	await sql`drop trigger conversations_count_inserted on conversations`.execute(db)
	await sql`drop function crm_count_conversations()`.execute(db)
	await sql`drop table conversation_counts`.execute(db)
}
