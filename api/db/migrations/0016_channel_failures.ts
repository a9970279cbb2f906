import { sql, type Kysely } from 'kysely'

/** When a channel started failing (its provider refused its token): the channels list says since when. */
export async function up(db: Kysely<unknown>) {
	await sql`alter table channels add column failing_since timestamptz`.execute(db)
	await sql`update channels set failing_since = updated_at where status = 'error'`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table channels drop column failing_since`.execute(db)
}
