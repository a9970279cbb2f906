import { sql, type Kysely } from 'kysely'

/**
 * Reports in business hours (issue 31): first responses and resolutions counted twice, in calendar
 * time and in the open time of the hours in force (the channel's own, else the workspace's), each in
 * its own histogram of `report_days`. As the roll-ups use the workspace's current time zone, team and
 * labels (decision 013), they use its current hours: a change of a workspace's or a channel's hours
 * makes every day of the workspace stale, as a new time zone does.
 *
 * `crm_business_seconds` is `businessSeconds` of common/business-hours.ts in SQL (the recount of
 * tests/api/reports-recount.ts compares them): the open seconds between two instants, each day's
 * ranges read as wall-clock times of the zone on that day, holidays closed, no hours always open;
 * rounded half up to whole seconds, as there.
 */
export async function up(db: Kysely<unknown>) {
	await sql`
		create function crm_business_seconds(hours jsonb, zone text, from_at timestamptz, to_at timestamptz) returns double precision
		language plpgsql stable parallel safe as $$
		declare
			total double precision := 0;
			local_day date := (from_at at time zone zone)::date;
			last_day date := (to_at at time zone zone)::date;
			open jsonb;
		begin
			if to_at <= from_at then return 0; end if;
			if hours is null then return floor(extract(epoch from to_at - from_at) + 0.5); end if;
			while local_day <= last_day loop
				if not coalesce(hours->'holidays' ? to_char(local_day, 'YYYY-MM-DD'), false) then
					for open in select jsonb_array_elements(hours->'days'->(extract(isodow from local_day)::int - 1)) loop
						total := total + greatest(0, extract(epoch from
							least(to_at, (local_day + (open->>'to')::time) at time zone zone) - greatest(from_at, (local_day + (open->>'from')::time) at time zone zone)));
					end loop;
				end if;
				local_day := local_day + 1;
			end loop;
			return floor(total + 0.5);
		end $$
	`.execute(db)
	await sql`alter table report_days add column first_response_business_buckets integer[] not null default '{}', add column resolution_business_buckets integer[] not null default '{}'`.execute(
		db,
	)

	const note = (name: string, select: string) => sql`
		create or replace function ${sql.raw(name)}() returns trigger language plpgsql as $$
		begin
			insert into report_dirty (workspace_id, from_at, to_at) ${sql.raw(select)};
			return null;
		end $$
	`
	// New hours recount every day of the workspace, as a new time zone does (migration 0020's note, widened).
	await note(
		'crm_report_timezone_changed',
		`select n.id, '-infinity'::timestamptz, 'infinity'::timestamptz from new_rows n join old_rows o on o.id = n.id
		where n.timezone is distinct from o.timezone or n.business_hours is distinct from o.business_hours`,
	).execute(db)
	await note(
		'crm_report_channel_hours_changed',
		`select distinct n.workspace_id, '-infinity'::timestamptz, 'infinity'::timestamptz from new_rows n join old_rows o on o.id = n.id
		where n.business_hours is distinct from o.business_hours`,
	).execute(db)
	await sql`create trigger channels_report_hours after update on channels referencing old table as old_rows new table as new_rows for each statement execute function crm_report_channel_hours_changed()`.execute(
		db,
	)
	// The histograms are filled by the first refresh.
	await sql`insert into report_dirty (workspace_id, from_at, to_at) select id, '-infinity', 'infinity' from workspaces`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await sql`drop trigger channels_report_hours on channels`.execute(db)
	await sql`drop function crm_report_channel_hours_changed()`.execute(db)
	await sql`
		create or replace function crm_report_timezone_changed() returns trigger language plpgsql as $$
		begin
			insert into report_dirty (workspace_id, from_at, to_at)
			select n.id, '-infinity'::timestamptz, 'infinity'::timestamptz from new_rows n join old_rows o on o.id = n.id where n.timezone is distinct from o.timezone;
			return null;
		end $$
	`.execute(db)
	await sql`alter table report_days drop column first_response_business_buckets, drop column resolution_business_buckets`.execute(db)
	await sql`drop function crm_business_seconds(jsonb, text, timestamptz, timestamptz)`.execute(db)
}
