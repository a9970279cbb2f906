import { sql, type Kysely } from 'kysely'

/**
 * The country whose local phone numbers a workspace writes without their prefix (issue 27): its
 * owner's or an admin's choice; null reads the country of the workspace's time zone.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table workspaces add column country text check (country ~ '^[A-Z]{2}$')`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table workspaces drop column country`.execute(db)
}
