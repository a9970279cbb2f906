import { sql, type Kysely } from 'kysely'

/**
 * Auto-assignment's other half (issue 30): who has a connection open, and how long conversations
 * waited in a team's queue.
 *
 * A member is connected from the realtime server's `member_added` on their workspace's presence
 * channel to its `member_removed` (its webhooks); `presence_at` is the time of the last of those
 * applied, so that a late one never undoes a newer one.
 *
 * `queue_waits` has a row per stay in a queue, written when it ends (an assignment, by
 * auto-assignment or by hand): the reports' queue wait (median and 90 %) reads it.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table members add column connected_at timestamptz, add column presence_at timestamptz`.execute(db)
	await sql`
		create table queue_waits (
			id bigint generated always as identity primary key,
			workspace_id uuid not null references workspaces(id) on delete cascade,
			conversation_id uuid not null references conversations(id) on delete cascade,
			team_id uuid,
			queued_at timestamptz not null,
			assigned_at timestamptz not null,
			automatic boolean not null
		)
	`.execute(db)
	await sql`create index queue_waits_workspace_idx on queue_waits (workspace_id, assigned_at)`.execute(db)
	// Whether a workspace has anything waiting: asked whenever room appears.
	await sql`create index conversations_workspace_queue_idx on conversations (workspace_id, queued_at, id) where queued_at is not null`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table queue_waits`.execute(db)
	await sql`drop index conversations_workspace_queue_idx`.execute(db)
	await sql`alter table members drop column connected_at, drop column presence_at`.execute(db)
}
