import { sql, type Kysely } from 'kysely'

/**
 * Access tokens (issue 33, docs/decisions/026-integrations.md): personal tokens of a member and bot
 * tokens of a workspace, kept as hashes; a bot token's own user row (`users.bot`) authors what it does.
 */
export async function up(db: Kysely<unknown>) {
	// A bot never signs in, is never mailed, is never a member: it is only an author and an audit actor.
	await sql`alter table users add column bot boolean not null default false`.execute(db)
	await sql`
		create table access_tokens (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			kind text not null check (kind in ('personal', 'bot')),
			user_id uuid not null references users(id) on delete cascade,
			created_by uuid references users(id) on delete set null,
			name text not null check (char_length(name) between 1 and 80),
			token_hash text not null unique,
			hint text not null,
			scopes text[] not null,
			expires_at timestamptz,
			last_used_at timestamptz,
			revoked_at timestamptz,
			created_at timestamptz not null default now()
		)
	`.execute(db)
	await sql`create index access_tokens_workspace_idx on access_tokens (workspace_id, created_at desc)`.execute(db)
	await sql`create index access_tokens_user_idx on access_tokens (user_id, workspace_id) where revoked_at is null`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table access_tokens`.execute(db)
	await sql`alter table users drop column bot`.execute(db)
}
