import { sql, type Kysely } from 'kysely'

/**
 * Campaigns (issue 16): one message to many contacts through one channel. A recipient is a row,
 * unique per campaign and contact, written when the campaign starts (its frozen audience); its
 * campaign message is an ordinary outgoing message of the contact's conversation, so delivery
 * statuses arrive through the channels' webhooks onto the message and a trigger copies them onto
 * the recipient, as does a customer's answer (`replied`). Contacts can opt out of campaigns.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table contacts add column opted_out_at timestamptz`.execute(db)
	await sql`
		create table campaigns (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces (id) on delete cascade,
			channel_id uuid not null references channels (id) on delete cascade,
			name text not null,
			labels_in uuid[] not null default '{}',
			labels_out uuid[] not null default '{}',
			body text not null default '',
			template jsonb,
			scheduled_at timestamptz,
			status text not null default 'draft' check (status in ('draft', 'scheduled', 'running', 'paused', 'completed', 'cancelled', 'failed')),
			status_detail text,
			rate_per_second integer check (rate_per_second between 1 and 1000),
			recipient_count integer not null default 0,
			created_by uuid references users (id) on delete set null,
			started_at timestamptz,
			finished_at timestamptz,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now()
		)
	`.execute(db)
	await sql`create index campaigns_workspace_idx on campaigns (workspace_id, created_at desc)`.execute(db)
	await sql`
		create table campaign_recipients (
			id bigint generated always as identity primary key,
			campaign_id uuid not null references campaigns (id) on delete cascade,
			workspace_id uuid not null references workspaces (id) on delete cascade,
			contact_id uuid not null references contacts (id) on delete cascade,
			identity_id uuid references contact_identities (id) on delete set null,
			status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'delivered', 'read', 'replied', 'failed', 'skipped')),
			reason text,
			attempts integer not null default 0,
			conversation_id uuid references conversations (id) on delete set null,
			message_id bigint references messages (id) on delete set null,
			claimed_at timestamptz,
			sent_at timestamptz,
			updated_at timestamptz not null default now(),
			unique (campaign_id, contact_id)
		)
	`.execute(db)
	await sql`create index campaign_recipients_status_idx on campaign_recipients (campaign_id, status, id)`.execute(db)
	await sql`create index campaign_recipients_message_idx on campaign_recipients (message_id) where message_id is not null`.execute(db)
	await sql`create index campaign_recipients_conversation_idx on campaign_recipients (conversation_id) where conversation_id is not null`.execute(db)

	// A campaign message's delivery status (from the provider's webhooks) moves its recipient forward.
	await sql`
		create function campaign_recipient_delivery() returns trigger language plpgsql as $$
		begin
			update campaign_recipients
			set status = new.status, reason = case when new.status = 'failed' then new.error else reason end, updated_at = now()
			where message_id = new.id
				and status in ('sent', 'delivered', 'read')
				and (case status when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 end)
					< (case new.status when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 when 'failed' then 4 else 0 end);
			return null;
		end
		$$
	`.execute(db)
	await sql`
		create trigger campaign_recipient_delivery after update of status on messages
		for each row when (new.status is distinct from old.status and new.status in ('delivered', 'read', 'failed'))
		execute function campaign_recipient_delivery()
	`.execute(db)

	// A customer's answer in the conversation a campaign message went to: the recipient replied.
	await sql`
		create function campaign_recipient_reply() returns trigger language plpgsql as $$
		begin
			update campaign_recipients set status = 'replied', updated_at = now()
			where conversation_id = new.conversation_id and status in ('sent', 'delivered', 'read');
			return null;
		end
		$$
	`.execute(db)
	await sql`
		create trigger campaign_recipient_reply after insert on messages
		for each row when (new.direction = 'incoming' and new.kind = 'text')
		execute function campaign_recipient_reply()
	`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger campaign_recipient_reply on messages`.execute(db)
	await sql`drop trigger campaign_recipient_delivery on messages`.execute(db)
	await sql`drop function campaign_recipient_reply()`.execute(db)
	await sql`drop function campaign_recipient_delivery()`.execute(db)
	await sql`drop table campaign_recipients`.execute(db)
	await sql`drop table campaigns`.execute(db)
	await sql`alter table contacts drop column opted_out_at`.execute(db)
}
