import { sql, type Kysely } from 'kysely'

/**
 * Satisfaction surveys (issue 31): a channel asks (`csat_enabled`) when one of its conversations is
 * resolved; the survey keeps who had it then (assignee, team), the question sent (none on a chat link,
 * whose page shows a form), the rating and comment. At most one survey of a conversation is open
 * (`asked`, or `rated` and waiting for a comment): a new resolution closes the one before.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table channels add column csat_enabled boolean not null default false`.execute(db)
	await sql`
		create table satisfaction_surveys (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			conversation_id uuid not null,
			channel_id uuid not null,
			contact_id uuid not null,
			assignee_id uuid references users(id) on delete set null,
			team_id uuid references teams(id) on delete set null,
			question_message_id bigint references messages(id) on delete set null,
			status text not null default 'asked' check (status in ('asked', 'rated', 'commented', 'closed')),
			rating smallint check (rating between 1 and 5),
			comment text check (char_length(comment) <= 4096),
			asked_at timestamptz not null default now(),
			answered_at timestamptz,
			closed_at timestamptz,
			constraint satisfaction_surveys_conversation_fk foreign key (workspace_id, conversation_id) references conversations (workspace_id, id) on delete cascade,
			constraint satisfaction_surveys_channel_fk foreign key (workspace_id, channel_id) references channels (workspace_id, id) on delete cascade,
			constraint satisfaction_surveys_contact_fk foreign key (workspace_id, contact_id) references contacts (workspace_id, id) on delete cascade,
			constraint satisfaction_surveys_rated check ((rating is null) = (answered_at is null))
		)
	`.execute(db)
	await sql`create unique index satisfaction_surveys_open_key on satisfaction_surveys (conversation_id) where status in ('asked', 'rated')`.execute(db)
	// The reports read a workspace's surveys asked over a range; a contact's page its latest ratings.
	await sql`create index satisfaction_surveys_asked_idx on satisfaction_surveys (workspace_id, asked_at)`.execute(db)
	await sql`create index satisfaction_surveys_contact_idx on satisfaction_surveys (contact_id, answered_at) where rating is not null`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table satisfaction_surveys`.execute(db)
	await sql`alter table channels drop column csat_enabled`.execute(db)
}
