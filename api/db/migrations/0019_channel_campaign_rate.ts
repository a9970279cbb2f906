import { sql, type Kysely } from 'kysely'

/** A channel's own campaign rate (messages a second), used by its campaigns that set none; null: the kind's default. */
export async function up(db: Kysely<unknown>) {
	await sql`alter table channels add column campaign_rate_per_second integer check (campaign_rate_per_second between 1 and 1000)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table channels drop column campaign_rate_per_second`.execute(db)
}
