import { sql, type Kysely } from 'kysely'

/**
 * Two indexes the bench's plans asked for (docs/decisions/010-inbox.md, "Plans"), at 2 × 100 000
 * conversations and 2 × 1 000 000 messages:
 * - every status sorted by priority walked all of a workspace's conversations and sorted them
 *   (a parallel scan and top-N sort, 110 to 540 ms); this index reads the page's 26 rows (0.1 ms);
 * - the message words' GIN index led by workspace_id (btree_gin, as contact_search's, 0006): a
 *   search reads its own workspace's matches only, half the heap pages with two equal workspaces
 *   and the index part of a prefix search from 300 ms to 20 ms.
 */
export async function up(db: Kysely<unknown>) {
	await sql`create index conversations_priority_activity_idx on conversations (workspace_id, priority, last_activity_at, id)`.execute(db)
	await sql`create index messages_workspace_words_idx on messages using gin (workspace_id, crm_message_words(body))`.execute(db)
	await sql`drop index messages_body_search_idx`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`create index messages_body_search_idx on messages using gin (crm_message_words(body))`.execute(db)
	await sql`drop index messages_workspace_words_idx`.execute(db)
	await sql`drop index conversations_priority_activity_idx`.execute(db)
}
