import { sql, type Kysely } from 'kysely'

/**
 * The dashboard's daily roll-ups (issue 17, docs/decisions/013-reports.md).
 *
 * `report_days` holds, per workspace, day (in the workspace's time zone), channel, agent and
 * label, what the reports sum: conversations opened and resolved, messages in and out, first
 * responses and resolutions as histograms of their durations, incoming messages per hour of the
 * day, new contacts and campaign messages. The nil uuid stands for "none" in the keys: no channel
 * (new contacts), nobody (unassigned), and, as `label_id`, every conversation whatever its labels;
 * a conversation with labels is also counted once under each of them.
 *
 * The roll-ups are recomputed from the facts, day by day: triggers note in `report_dirty` which
 * times of which workspace a change touched (a plain insert, so writers never wait on each other),
 * and the `refresh-reports` job recomputes those days (api/reports/rollup.ts).
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create table report_days (
			workspace_id uuid not null references workspaces (id) on delete cascade,
			label_id uuid not null,
			day date not null,
			channel_id uuid not null,
			agent_id uuid not null,
			opened integer not null default 0,
			resolved integer not null default 0,
			messages_in integer not null default 0,
			messages_out integer not null default 0,
			first_responses integer not null default 0,
			first_response_buckets integer[] not null,
			resolution_buckets integer[] not null,
			incoming_hours integer[] not null,
			new_contacts integer not null default 0,
			campaign_sent integer not null default 0,
			campaign_delivered integer not null default 0,
			-- A report reads one label's rows of one channel (or every) and one agent (or every), over a range of days.
			primary key (workspace_id, label_id, channel_id, agent_id, day)
		)
	`.execute(db)
	await sql`
		create table report_dirty (
			id bigint generated always as identity primary key,
			workspace_id uuid not null,
			from_at timestamptz not null,
			to_at timestamptz not null
		)
	`.execute(db)
	await sql`create index report_dirty_workspace_idx on report_dirty (workspace_id, id)`.execute(db)

	// Counts per bucket (0 to size - 1) from the buckets met and their counts.
	await sql`
		create function crm_histogram(buckets integer[], counts integer[], size integer) returns integer[] language sql immutable as $$
			select array(
				select coalesce(sum(u.n), 0)::int
				from generate_series(0, size - 1) i left join unnest(buckets, counts) u (b, n) on u.b = i
				group by i order by i
			)
		$$
	`.execute(db)

	// Where the recount of a day finds its facts without reading the workspace's every row (contacts have theirs, 0005).
	await sql`create index conversations_created_idx on conversations (workspace_id, created_at)`.execute(db)
	await sql`create index conversations_first_response_idx on conversations (workspace_id, first_response_at) where first_response_at is not null`.execute(db)
	await sql`create index campaign_recipients_sent_idx on campaign_recipients (workspace_id, sent_at) where sent_at is not null`.execute(db)

	// Each trigger notes the span of times its statement's rows touched, per workspace.
	const note = (name: string, select: string) => sql`
		create function ${sql.raw(name)}() returns trigger language plpgsql as $$
		begin
			insert into report_dirty (workspace_id, from_at, to_at) ${sql.raw(select)};
			return null;
		end $$
	`
	// Messages: their own time; only texts and resolutions count (a note, a snooze's line, an assignment's change nothing here).
	const counted = `kind = 'text' or (kind = 'activity' and activity->>'key' = 'activity.resolved')`
	await note('crm_report_messages_new', `select workspace_id, min(created_at), max(created_at) from new_rows where ${counted} group by workspace_id`).execute(
		db,
	)
	await note('crm_report_messages_old', `select workspace_id, min(created_at), max(created_at) from old_rows where ${counted} group by workspace_id`).execute(
		db,
	)
	await sql`create trigger messages_report_inserted after insert on messages referencing new table as new_rows for each statement execute function crm_report_messages_new()`.execute(
		db,
	)
	await sql`create trigger messages_report_deleted after delete on messages referencing old table as old_rows for each statement execute function crm_report_messages_old()`.execute(
		db,
	)
	// A message or a contact moved in time (the demo's backdated threads): where it was and where it is. Row
	// triggers, as PostgreSQL allows no transition tables with a column list; only an update naming the column fires them.
	await sql`
		create function crm_report_moved() returns trigger language plpgsql as $$
		begin
			insert into report_dirty (workspace_id, from_at, to_at) values (new.workspace_id, least(old.created_at, new.created_at), greatest(old.created_at, new.created_at));
			return null;
		end $$
	`.execute(db)
	await sql`create trigger messages_report_moved after update of created_at on messages for each row when (old.created_at <> new.created_at) execute function crm_report_moved()`.execute(
		db,
	)

	// Conversations: from their start to their last activity, which holds all their facts; an update only
	// when it moves what the reports read (assignee, first response, channel), not every new message.
	await note(
		'crm_report_conversations_new',
		`select workspace_id, min(created_at), max(greatest(last_activity_at, created_at)) from new_rows group by workspace_id`,
	).execute(db)
	await note(
		'crm_report_conversations_old',
		`select workspace_id, min(created_at), max(greatest(last_activity_at, created_at)) from old_rows group by workspace_id`,
	).execute(db)
	await note(
		'crm_report_conversations_changed',
		`select n.workspace_id, min(least(n.created_at, o.created_at)), max(greatest(n.last_activity_at, o.last_activity_at, n.first_response_at, o.first_response_at, n.created_at))
		from new_rows n join old_rows o on o.id = n.id
		where n.assignee_id is distinct from o.assignee_id or n.first_response_at is distinct from o.first_response_at or n.channel_id is distinct from o.channel_id or n.created_at <> o.created_at
		group by n.workspace_id`,
	).execute(db)
	await sql`create trigger conversations_report_inserted after insert on conversations referencing new table as new_rows for each statement execute function crm_report_conversations_new()`.execute(
		db,
	)
	await sql`create trigger conversations_report_deleted after delete on conversations referencing old table as old_rows for each statement execute function crm_report_conversations_old()`.execute(
		db,
	)
	await sql`create trigger conversations_report_updated after update on conversations referencing old table as old_rows new table as new_rows for each statement execute function crm_report_conversations_changed()`.execute(
		db,
	)

	// A conversation's labels: its whole span.
	const labelled = (rows: string) =>
		`select c.workspace_id, min(c.created_at), max(greatest(c.last_activity_at, c.created_at)) from ${rows} r join conversations c on c.id = r.conversation_id group by c.workspace_id`
	await note('crm_report_labels_new', labelled('new_rows')).execute(db)
	await note('crm_report_labels_old', labelled('old_rows')).execute(db)
	await sql`create trigger conversation_labels_report_inserted after insert on conversation_labels referencing new table as new_rows for each statement execute function crm_report_labels_new()`.execute(
		db,
	)
	await sql`create trigger conversation_labels_report_deleted after delete on conversation_labels referencing old table as old_rows for each statement execute function crm_report_labels_old()`.execute(
		db,
	)

	// Contacts: the day they were added.
	await note('crm_report_contacts_new', `select workspace_id, min(created_at), max(created_at) from new_rows group by workspace_id`).execute(db)
	await note('crm_report_contacts_old', `select workspace_id, min(created_at), max(created_at) from old_rows group by workspace_id`).execute(db)
	await sql`create trigger contacts_report_inserted after insert on contacts referencing new table as new_rows for each statement execute function crm_report_contacts_new()`.execute(
		db,
	)
	await sql`create trigger contacts_report_deleted after delete on contacts referencing old table as old_rows for each statement execute function crm_report_contacts_old()`.execute(
		db,
	)
	await sql`create trigger contacts_report_moved after update of created_at on contacts for each row when (old.created_at <> new.created_at) execute function crm_report_moved()`.execute(
		db,
	)

	// Campaign recipients: the day their message went out, once it has, and again when its delivery moves.
	await note(
		'crm_report_recipients_changed',
		`select n.workspace_id, min(n.sent_at), max(n.sent_at) from new_rows n join old_rows o on o.id = n.id
		where n.sent_at is not null and (n.status is distinct from o.status or n.sent_at is distinct from o.sent_at)
		group by n.workspace_id`,
	).execute(db)
	await sql`create trigger campaign_recipients_report_updated after update on campaign_recipients referencing old table as old_rows new table as new_rows for each statement execute function crm_report_recipients_changed()`.execute(
		db,
	)

	// A new time zone moves every fact to another day: all of the workspace's days.
	await note(
		'crm_report_timezone_changed',
		`select n.id, '-infinity'::timestamptz, 'infinity'::timestamptz from new_rows n join old_rows o on o.id = n.id where n.timezone is distinct from o.timezone`,
	).execute(db)
	await sql`create trigger workspaces_report_timezone after update on workspaces referencing old table as old_rows new table as new_rows for each statement execute function crm_report_timezone_changed()`.execute(
		db,
	)

	// What exists already is counted by the first refresh.
	await sql`insert into report_dirty (workspace_id, from_at, to_at) select id, '-infinity', 'infinity' from workspaces`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	for (const [trigger, table] of [
		['messages_report_inserted', 'messages'],
		['messages_report_deleted', 'messages'],
		['messages_report_moved', 'messages'],
		['conversations_report_inserted', 'conversations'],
		['conversations_report_deleted', 'conversations'],
		['conversations_report_updated', 'conversations'],
		['conversation_labels_report_inserted', 'conversation_labels'],
		['conversation_labels_report_deleted', 'conversation_labels'],
		['contacts_report_inserted', 'contacts'],
		['contacts_report_deleted', 'contacts'],
		['contacts_report_moved', 'contacts'],
		['campaign_recipients_report_updated', 'campaign_recipients'],
		['workspaces_report_timezone', 'workspaces'],
	] as const) {
		await sql`drop trigger ${sql.raw(trigger)} on ${sql.raw(table)}`.execute(db)
	}
	for (const name of [
		'crm_report_messages_new',
		'crm_report_messages_old',
		'crm_report_moved',
		'crm_report_conversations_new',
		'crm_report_conversations_old',
		'crm_report_conversations_changed',
		'crm_report_labels_new',
		'crm_report_labels_old',
		'crm_report_contacts_new',
		'crm_report_contacts_old',
		'crm_report_recipients_changed',
		'crm_report_timezone_changed',
	]) {
		await sql`drop function ${sql.raw(name)}()`.execute(db)
	}
	for (const index of ['conversations_created_idx', 'conversations_first_response_idx', 'campaign_recipients_sent_idx']) {
		await sql`drop index ${sql.raw(index)}`.execute(db)
	}
	await sql`drop function crm_histogram(integer[], integer[], integer)`.execute(db)
	await sql`drop table report_dirty`.execute(db)
	await sql`drop table report_days`.execute(db)
}
