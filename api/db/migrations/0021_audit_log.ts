import { sql, type Kysely } from 'kysely'

/**
 * The audit log (issue 18, docs/decisions/016-audit-log.md): who did what in a workspace, and
 * when. A row holds its line as a translation key (`kind`) and the values it is said with, so that
 * it is translated when read, in the reader's language. The actor's name is kept beside their id:
 * the line still says who after they leave the workspace or delete their account.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table audit_events (
			id bigint generated always as identity primary key,
			workspace_id uuid not null references workspaces (id) on delete cascade,
			actor_id uuid references users (id) on delete set null,
			actor_name text not null,
			kind text not null,
			"values" jsonb not null default '{}',
			created_at timestamptz not null default now()
		)
	`.execute(db)
	// The log reads a workspace's newest first (by id, the order lines were written in), a page or a keyset at a time.
	await sql`create index audit_events_workspace_idx on audit_events (workspace_id, id desc)`.execute(db)
	// The nightly prune deletes by age across workspaces.
	await sql`create index audit_events_created_idx on audit_events (created_at)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table audit_events`.execute(db)
}
