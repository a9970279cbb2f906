import { sql, type Kysely } from 'kysely'

/**
 * Two-step sign-in (issue 18, docs/decisions/017-two-step-sign-in.md). A user's TOTP secret is
 * kept sealed under ENCRYPTION_KEY, as channel credentials are; `two_factor_enabled_at` says it
 * was confirmed (a secret without it is a set-up not yet finished). `two_factor_last_step` is the
 * last 30-second step a code was accepted for: a code is never taken twice. Recovery codes and the
 * login's challenges are kept as keyed hashes, like sessions.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		alter table users
			add column two_factor_secret text,
			add column two_factor_enabled_at timestamptz,
			add column two_factor_last_step integer
	`.execute(db)
	await sql`alter table workspaces add column require_two_factor boolean not null default false`.execute(db)
	await sql`
		create table two_factor_recovery_codes (
			id uuid primary key default gen_random_uuid(),
			user_id uuid not null references users (id) on delete cascade,
			code_hash text not null,
			used_at timestamptz,
			created_at timestamptz not null default now(),
			unique (user_id, code_hash)
		)
	`.execute(db)
	// Between a correct password and a correct code: a few minutes, single use.
	await sql`
		create table two_factor_challenges (
			id uuid primary key default gen_random_uuid(),
			user_id uuid not null references users (id) on delete cascade,
			token_hash text not null unique,
			expires_at timestamptz not null,
			created_at timestamptz not null default now()
		)
	`.execute(db)
	await sql`create index two_factor_challenges_user_idx on two_factor_challenges (user_id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table two_factor_challenges`.execute(db)
	await sql`drop table two_factor_recovery_codes`.execute(db)
	await sql`alter table workspaces drop column require_two_factor`.execute(db)
	await sql`alter table users drop column two_factor_secret, drop column two_factor_enabled_at, drop column two_factor_last_step`.execute(db)
}
