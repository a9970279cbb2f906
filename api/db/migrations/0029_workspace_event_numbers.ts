import { sql, type Kysely } from 'kysely'

/**
 * The last number given to an event of each workspace's channel (issue 28): a page that sees a gap
 * in the numbers reloads once. In PostgreSQL, so that several app processes number one sequence.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table workspace_event_numbers (
			workspace_id uuid primary key references workspaces (id) on delete cascade,
			last_number bigint not null
		)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table workspace_event_numbers`.execute(db)
}
