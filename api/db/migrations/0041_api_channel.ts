import { sql, type Kysely } from 'kysely'

/**
 * The API channel (issue 33): a channel kind `api`, fed through `/v1` by an integration, whose
 * replies go to its callback URL (kept in `settings.callbackUrl`) through its own webhook subscription.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table channels drop constraint channels_kind_check`.execute(db)
	await sql`
		alter table channels add constraint channels_kind_check
			check (kind in ('whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'link', 'api'))
	`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`delete from channels where kind = 'api'`.execute(db)
	await sql`alter table channels drop constraint channels_kind_check`.execute(db)
	await sql`
		alter table channels add constraint channels_kind_check
			check (kind in ('whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'link'))
	`.execute(db)
}
