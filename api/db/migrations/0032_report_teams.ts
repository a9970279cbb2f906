import { sql, type Kysely } from 'kysely'

/**
 * The reports by team (issue 30): `report_days` keyed by team too, as by channel, agent and label
 * (migration 0020). A conversation's facts count under its current team (the nil uuid: none), and
 * each day also has its sums over every team (`ffffffff-…`), so that a report without a team filter
 * still reads one row a day. The rows there were are exactly those sums: they become the "every
 * team" rows, and the first refresh recomputes every day with the teams' own rows.
 * A conversation moved to another team moves its facts: the conversations' trigger notes that too.
 */
export async function up(db: Kysely<unknown>) {
	await sql`alter table report_days add column team_id uuid not null default 'ffffffff-ffff-ffff-ffff-ffffffffffff'`.execute(db)
	await sql`alter table report_days alter column team_id drop default`.execute(db)
	await sql`alter table report_days drop constraint report_days_pkey`.execute(db)
	// A report reads one label's rows of one team (or every), one channel (or every) and one agent (or every), over a range of days.
	await sql`alter table report_days add primary key (workspace_id, label_id, team_id, channel_id, agent_id, day)`.execute(db)
	await conversationsChanged(db, true)
	// Twice the rows to sum (every team, and each): the histograms are filled by a loop over the buckets met, not by
	// a join with every bucket grouped and sorted per row, which took most of a rebuild's time (migration 0020's).
	await sql`
		create or replace function crm_histogram(buckets integer[], counts integer[], size integer) returns integer[] language plpgsql immutable as $$
		declare
			result integer[] := array_fill(0, array[size]);
			bucket integer;
		begin
			for i in 1 .. coalesce(array_length(buckets, 1), 0) loop
				bucket := buckets[i];
				if bucket between 0 and size - 1 then
					result[bucket + 1] := result[bucket + 1] + coalesce(counts[i], 0);
				end if;
			end loop;
			return result;
		end $$
	`.execute(db)
	await sql`insert into report_dirty (workspace_id, from_at, to_at) select id, '-infinity', 'infinity' from workspaces`.execute(db)
}

export async function down(db: Kysely<unknown>) {
	await conversationsChanged(db, false)
	await sql`drop function crm_histogram(integer[], integer[], integer)`.execute(db)
	await sql`
		create function crm_histogram(buckets integer[], counts integer[], size integer) returns integer[] language sql immutable as $$
			select array(
				select coalesce(sum(u.n), 0)::int
				from generate_series(0, size - 1) i left join unnest(buckets, counts) u (b, n) on u.b = i
				group by i order by i
			)
		$$
	`.execute(db)
	await sql`delete from report_days where team_id <> 'ffffffff-ffff-ffff-ffff-ffffffffffff'`.execute(db)
	await sql`alter table report_days drop constraint report_days_pkey`.execute(db)
	await sql`alter table report_days drop column team_id`.execute(db)
	await sql`alter table report_days add primary key (workspace_id, label_id, channel_id, agent_id, day)`.execute(db)
}

/** Migration 0023's note of a conversation changed in what the reports read, with its team (`withTeam`) or without. */
async function conversationsChanged(db: Kysely<unknown>, withTeam: boolean) {
	const team = withTeam ? ' or n.team_id is distinct from o.team_id' : ''
	await sql`
		create or replace function crm_report_conversations_changed() returns trigger language plpgsql as $$
		begin
			insert into report_dirty (workspace_id, from_at, to_at)
			select n.workspace_id, min(least(n.created_at, o.created_at, (select min(created_at) from messages where conversation_id = n.id))),
				max(greatest(n.last_activity_at, o.last_activity_at, n.first_response_at, o.first_response_at, n.created_at))
			from new_rows n join old_rows o on o.id = n.id
			where n.assignee_id is distinct from o.assignee_id or n.first_response_at is distinct from o.first_response_at or n.channel_id is distinct from o.channel_id
				or n.created_at <> o.created_at${sql.raw(team)}
			group by n.workspace_id;
			return null;
		end $$
	`.execute(db)
}
