import { sql, type Kysely } from 'kysely'

/**
 * A version of each workspace's roll-ups (decision 013), raised in the transaction that
 * recomputes any of its days: a report read from the roll-ups is kept under the version it was
 * read at, and every process asks PostgreSQL for the version before using what it kept.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table report_versions (
			workspace_id uuid primary key references workspaces (id) on delete cascade,
			version bigint not null default 0
		)
	`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table report_versions`.execute(db)
}
