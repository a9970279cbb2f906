import { sql, type Kysely } from 'kysely'

/**
 * A reply sent as an approved template (WhatsApp, outside its 24-hour window): which template,
 * in which language, with which body parameters. The message's `body` is the text as the customer
 * reads it; the send job sends the template itself.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table messages add column template jsonb`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`alter table messages drop column template`.execute(db)
}
