import { sql, type Kysely } from 'kysely'

/**
 * The inbox: channels, the contacts' identities on them, conversations and their messages.
 * Sized for 100 000 conversations and 1 000 000 messages in a workspace (docs/decisions/010-inbox.md).
 */
export async function up(db: Kysely<unknown>) {
	// The last conversation number given per workspace (`#1024`), apart from the workspace row that contact counts lock.
	await sql`
		create table conversation_numbers (
			workspace_id uuid primary key references workspaces(id) on delete cascade,
			last_number integer not null
		)
	`.execute(db)

	// A channel's public slug is global: the link page `/{lang}/c/{slug}` names no workspace.
	await sql`
		create table channels (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			kind text not null check (kind in ('whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'link')),
			name text not null,
			slug citext unique,
			enabled boolean not null default true,
			status text not null default 'active' check (status in ('active', 'error', 'disabled')),
			status_detail text,
			settings jsonb not null default '{}'::jsonb,
			credentials text,
			webhook_secret text,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now(),
			constraint channels_workspace_id_key unique (workspace_id, id)
		)
	`.execute(db)
	await sql`create index channels_workspace_idx on channels (workspace_id, created_at, id)`.execute(db)

	// Who a contact is on a channel: a WhatsApp wa_id, a Telegram chat id, a link visitor's token hash.
	await sql`
		create table contact_identities (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null,
			channel_id uuid not null,
			contact_id uuid not null,
			external_id text not null,
			created_at timestamptz not null default now(),
			constraint contact_identities_channel_external_key unique (channel_id, external_id),
			constraint contact_identities_channel_fk foreign key (workspace_id, channel_id) references channels (workspace_id, id) on delete cascade,
			constraint contact_identities_contact_fk foreign key (workspace_id, contact_id) references contacts (workspace_id, id) on delete cascade
		)
	`.execute(db)
	await sql`create index contact_identities_contact_idx on contact_identities (contact_id)`.execute(db)

	// priority: 0 none, 1 low, 2 medium, 3 high, 4 urgent (sorted as numbers).
	await sql`
		create table conversations (
			id uuid primary key default gen_random_uuid(),
			workspace_id uuid not null references workspaces(id) on delete cascade,
			number integer not null,
			contact_id uuid not null,
			channel_id uuid not null,
			identity_id uuid references contact_identities(id) on delete set null,
			status text not null default 'open' check (status in ('open', 'pending', 'resolved', 'snoozed')),
			snoozed_until timestamptz,
			assignee_id uuid references users(id) on delete set null,
			priority smallint not null default 0 check (priority between 0 and 4),
			incoming_count integer not null default 0,
			last_message_id bigint,
			last_message_excerpt text,
			last_message_direction text,
			last_activity_at timestamptz not null default now(),
			first_response_at timestamptz,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now(),
			constraint conversations_workspace_number_key unique (workspace_id, number),
			constraint conversations_workspace_id_key unique (workspace_id, id),
			constraint conversations_contact_fk foreign key (workspace_id, contact_id) references contacts (workspace_id, id) on delete cascade,
			constraint conversations_channel_fk foreign key (workspace_id, channel_id) references channels (workspace_id, id) on delete cascade,
			constraint conversations_snooze_check check ((status = 'snoozed') = (snoozed_until is not null))
		)
	`.execute(db)

	await sql`
		create table conversation_labels (
			workspace_id uuid not null,
			conversation_id uuid not null,
			label_id uuid not null,
			created_at timestamptz not null default now(),
			primary key (conversation_id, label_id),
			constraint conversation_labels_conversation_fk foreign key (workspace_id, conversation_id) references conversations (workspace_id, id) on delete cascade,
			constraint conversation_labels_label_fk foreign key (workspace_id, label_id) references labels (workspace_id, id) on delete cascade
		)
	`.execute(db)
	await sql`create index conversation_labels_label_idx on conversation_labels (label_id, conversation_id)`.execute(db)

	// How far each member has read a conversation: unread = incoming_count - seen_count.
	await sql`
		create table conversation_reads (
			conversation_id uuid not null references conversations(id) on delete cascade,
			user_id uuid not null references users(id) on delete cascade,
			seen_count integer not null default 0,
			seen_at timestamptz not null default now(),
			primary key (conversation_id, user_id)
		)
	`.execute(db)

	// Ids in creation order: the thread pages by (conversation_id, id) from the newest.
	// activity: { key, values } of a translated line ("{{actor}} assigned this to {{assignee}}"), rendered in the reader's locale.
	await sql`
		create table messages (
			id bigint generated always as identity primary key,
			workspace_id uuid not null,
			conversation_id uuid not null,
			channel_id uuid not null,
			direction text not null check (direction in ('incoming', 'outgoing')),
			kind text not null check (kind in ('text', 'note', 'activity')),
			body text not null default '',
			activity jsonb,
			sender_id uuid references users(id) on delete set null,
			status text check (status in ('pending', 'sent', 'delivered', 'read', 'failed')),
			error text,
			external_id text,
			created_at timestamptz not null default now(),
			updated_at timestamptz not null default now(),
			constraint messages_conversation_fk foreign key (workspace_id, conversation_id) references conversations (workspace_id, id) on delete cascade,
			constraint messages_body_length check (char_length(body) <= 4096)
		)
	`.execute(db)
	await sql`create index messages_conversation_idx on messages (conversation_id, id)`.execute(db)
	// De-duplication of provider retries (webhooks deliver at least once).
	await sql`create unique index messages_channel_external_key on messages (channel_id, external_id) where external_id is not null`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table messages`.execute(db)
	await sql`drop table conversation_reads`.execute(db)
	await sql`drop table conversation_labels`.execute(db)
	await sql`drop table conversations`.execute(db)
	await sql`drop table contact_identities`.execute(db)
	await sql`drop table channels`.execute(db)
	await sql`drop table conversation_numbers`.execute(db)
}
