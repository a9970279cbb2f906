import { sql, type Kysely } from 'kysely'

/**
 * Notifications (issue 32, docs/decisions/025-notifications.md): a member's notifications of a
 * workspace, kept 90 days; their preferences where they differ from the defaults
 * (common/notifications.ts); the browser push subscriptions of a user's devices; and what the
 * waiting notifications and the push's focus check read.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table notifications (
			id bigint generated always as identity primary key,
			workspace_id uuid not null,
			user_id uuid not null,
			kind text not null check (kind in ('assigned', 'mentioned', 'message', 'queueWaiting', 'replyWaiting', 'campaignDone', 'campaignFailed', 'channelDisconnected')),
			conversation_id uuid references conversations(id) on delete cascade,
			campaign_id uuid references campaigns(id) on delete cascade,
			channel_id uuid references channels(id) on delete cascade,
			"values" jsonb not null default '{}',
			once_key text,
			-- False: the member turned this kind off in the app; the row is there for its mail or push only.
			in_app boolean not null default true,
			created_at timestamptz not null default now(),
			read_at timestamptz,
			mailed_at timestamptz,
			pushed_at timestamptz,
			foreign key (workspace_id, user_id) references members(workspace_id, user_id) on delete cascade
		)
	`.execute(db)
	// The bell's list (newest first) and its unread count.
	await sql`create index notifications_member_idx on notifications (user_id, workspace_id, id desc) where in_app`.execute(db)
	await sql`create index notifications_unread_idx on notifications (user_id, workspace_id, conversation_id) where read_at is null and in_app`.execute(db)
	// Once per stay in a queue, per customer message, per failing stretch: a second insert does nothing.
	await sql`create unique index notifications_once_idx on notifications (user_id, once_key) where once_key is not null`.execute(db)
	await sql`create index notifications_created_idx on notifications (created_at)`.execute(db)
	// A conversation's, a campaign's and a channel's go with them; the waiting notifications look for their own.
	await sql`create index notifications_conversation_idx on notifications (conversation_id, kind) where conversation_id is not null`.execute(db)
	await sql`create index notifications_campaign_idx on notifications (campaign_id) where campaign_id is not null`.execute(db)
	await sql`create index notifications_channel_idx on notifications (channel_id) where channel_id is not null`.execute(db)

	await sql`
		create table notification_preferences (
			workspace_id uuid not null,
			user_id uuid not null,
			kind text not null,
			medium text not null check (medium in ('app', 'email', 'push')),
			enabled boolean not null,
			primary key (workspace_id, user_id, kind, medium),
			foreign key (workspace_id, user_id) references members(workspace_id, user_id) on delete cascade
		)
	`.execute(db)
	await sql`alter table users add column notification_sound boolean not null default false`.execute(db)
	// Minutes a conversation waits unassigned in a team's queue, or for a reply, before someone is told.
	await sql`alter table teams add column notify_after integer not null default 10 check (notify_after between 1 and 1440)`.execute(db)
	await sql`alter table workspaces add column reply_waiting_after integer not null default 15 check (reply_waiting_after between 1 and 1440)`.execute(db)
	// A member looking at a tab of the workspace until then gets no browser push.
	await sql`alter table members add column focused_until timestamptz`.execute(db)

	await sql`
		create table push_subscriptions (
			id uuid primary key default gen_random_uuid(),
			user_id uuid not null references users(id) on delete cascade,
			endpoint text not null unique,
			p256dh text not null,
			auth text not null,
			user_agent text,
			created_at timestamptz not null default now(),
			last_success_at timestamptz
		)
	`.execute(db)
	await sql`create index push_subscriptions_user_idx on push_subscriptions (user_id)`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop table push_subscriptions`.execute(db)
	await sql`alter table members drop column focused_until`.execute(db)
	await sql`alter table workspaces drop column reply_waiting_after`.execute(db)
	await sql`alter table teams drop column notify_after`.execute(db)
	await sql`alter table users drop column notification_sound`.execute(db)
	await sql`drop table notification_preferences`.execute(db)
	await sql`drop table notifications`.execute(db)
}
