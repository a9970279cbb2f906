import { sql, type Kysely } from 'kysely'

/**
 * Whether each session passed a second factor (issue 26): a workspace that requires two-step
 * sign-in accepts only those, not a password-only session opened before its user turned it on.
 * Sessions opened since their user turned it on went through the code (decision 017): they did.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table sessions add column second_factor_at timestamptz`.execute(db)
	await sql`
		update sessions set second_factor_at = sessions.created_at
		from users where users.id = sessions.user_id and users.two_factor_enabled_at is not null and sessions.created_at >= users.two_factor_enabled_at`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table sessions drop column second_factor_at`.execute(db)
}
