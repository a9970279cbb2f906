import { sql, type Kysely } from 'kysely'

/**
 * Business hours and auto-replies (issue 31). A workspace's hours (null: always open) and a
 * channel's own (null: the workspace's), as common/business-hours.ts reads them; a channel's
 * away message and greeting (null: both off, common/auto-replies.ts). `away_replies` makes the away
 * message once per conversation and closed period: the reply is sent only by the one insert that
 * lands, in the transaction that records the customer's message.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table workspaces add column business_hours jsonb`.execute(db)
	await sql`alter table channels add column business_hours jsonb, add column auto_replies jsonb`.execute(db)
	await sql`
		create table away_replies (
			conversation_id uuid not null references conversations(id) on delete cascade,
			period_start timestamptz not null,
			created_at timestamptz not null default now(),
			primary key (conversation_id, period_start)
		)
	`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table away_replies`.execute(db)
	await sql`alter table channels drop column business_hours, drop column auto_replies`.execute(db)
	await sql`alter table workspaces drop column business_hours`.execute(db)
}
