import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { addJob } from '#api/jobs/queue.ts'
import { bucketCount, durationBounds } from './buckets.ts'

/** "None" in the roll-ups' keys (migration 0020): no channel, nobody, no team, every label. */
export const none = '00000000-0000-0000-0000-000000000000'
/** "Every" channel, agent or team: a day's facts summed over them, so that a report without that filter reads one row a day, not one per channel, agent and team. */
export const every = 'ffffffff-ffff-ffff-ffff-ffffffffffff'

const bounds = sql.raw(`array[${durationBounds.join(',')}]::double precision[]`)

/**
 * Recomputes the roll-ups of `days` (`YYYY-MM-DD`, in the workspace's time zone) of one workspace
 * from its facts, replacing what they held. Each fact is one row here:
 * - a conversation begun on the day (`opened`), under its assignee;
 * - a customer's message (`in`, with its hour), under the conversation's assignee;
 * - a member's reply (`out`), under its sender;
 * - a resolution (the `activity.resolved` line; its duration from the conversation's start), under whoever resolved it;
 * - a first response (its duration from the conversation's start, on the day of the reply), under the assignee;
 * (both durations also in business hours: the open time between, of the channel's hours or else the workspace's);
 * - a new contact (no channel, nobody, no label);
 * - a campaign message sent, and whether it was delivered, on its channel, under nobody.
 * A conversation's facts count under "every label" and under each of its labels, and under its
 * current team (not the team it had then: a conversation moved to another team takes its past with
 * it, as it does to another label; migration 0032). Each day also has its sums over every channel,
 * every agent, every team, and each combination of them (`every`).
 * Runs in the caller's transaction, under the workspace's advisory lock (two refreshes of one
 * workspace never interleave their deletes and inserts).
 */
export async function recomputeDays(trx: DB, workspaceId: string, days: string[]) {
	if (days.length === 0) return
	await sql`select pg_advisory_xact_lock(hashtext('reports'), hashtext(${workspaceId}))`.execute(trx)
	// Reports kept from the roll-ups (readReport) are stale from this transaction's commit on.
	await trx
		.insertInto('reportVersions')
		.values({ workspaceId, version: 1 })
		.onConflict((oc) => oc.column('workspaceId').doUpdateSet({ version: sql`report_versions.version + 1` }))
		.execute()
	const { timezone, businessHours } = await trx
		.selectFrom('workspaces')
		.select(['timezone', 'businessHours'])
		.where('id', '=', workspaceId)
		.executeTakeFirstOrThrow()
	const workspaceHours = businessHours === null ? null : JSON.stringify(businessHours)
	// A duration's bucket in business hours: the open seconds between, of the hours in force (the channel's own, else the workspace's).
	const businessBucket = (from: string, to: string) =>
		sql`width_bucket(crm_business_seconds(coalesce(ch.business_hours, ${workspaceHours}::jsonb), ${timezone}, ${sql.raw(from)}, ${sql.raw(to)}), ${bounds})`
	const dayList = sql`${days}::date[]`
	await trx
		.deleteFrom('reportDays')
		.where('workspaceId', '=', workspaceId)
		.where(sql<boolean>`day = any(${dayList})`)
		.execute()
	const dayOf = (time: string) => sql`(${sql.raw(time)} at time zone ${timezone})::date`
	// The facts are looked up between the first day's start and the last day's end, then kept by day.
	await sql`
		with span as (
			select min(d)::timestamp at time zone ${timezone} as starts, (max(d) + 1)::timestamp at time zone ${timezone} as ends
			from unnest(${dayList}) d
		),
		facts as (
			select c.id as conversation_id, ${dayOf('c.created_at')} as day, coalesce(c.team_id, ${none}::uuid) as team_id, c.channel_id,
				coalesce(c.assignee_id, ${none}::uuid) as agent_id, 'opened' as measure, 0 as bucket, 0 as business_bucket
			from conversations c, span
			where c.workspace_id = ${workspaceId} and c.created_at >= span.starts and c.created_at < span.ends
			union all
			select m.conversation_id, ${dayOf('m.created_at')}, coalesce(c.team_id, ${none}::uuid), m.channel_id,
				case when m.direction = 'incoming' then coalesce(c.assignee_id, ${none}::uuid) else coalesce(m.sender_id, ${none}::uuid) end,
				case when m.kind = 'activity' then 'resolved' when m.direction = 'incoming' then 'in' else 'out' end,
				case
					when m.kind = 'activity' then width_bucket(extract(epoch from m.created_at - c.created_at), ${bounds})
					when m.direction = 'incoming' then extract(hour from m.created_at at time zone ${timezone})::int
					else 0
				end,
				case when m.kind = 'activity' then ${businessBucket('c.created_at', 'm.created_at')} else 0 end
			from messages m
			join conversations c on c.id = m.conversation_id
			join channels ch on ch.id = c.channel_id, span
			where m.channel_id in (select id from channels where workspace_id = ${workspaceId})
				and m.created_at >= span.starts and m.created_at < span.ends
				and (m.kind = 'text' or (m.kind = 'activity' and m.activity->>'key' = 'activity.resolved'))
			union all
			select c.id, ${dayOf('c.first_response_at')}, coalesce(c.team_id, ${none}::uuid), c.channel_id, coalesce(c.assignee_id, ${none}::uuid), 'first_response',
				width_bucket(extract(epoch from c.first_response_at - c.created_at), ${bounds}), ${businessBucket('c.created_at', 'c.first_response_at')}
			from conversations c
			join channels ch on ch.id = c.channel_id, span
			where c.workspace_id = ${workspaceId} and c.first_response_at >= span.starts and c.first_response_at < span.ends
			union all
			select null, ${dayOf('k.created_at')}, ${none}::uuid, ${none}::uuid, ${none}::uuid, 'new_contact', 0, 0
			from contacts k, span
			where k.workspace_id = ${workspaceId} and k.created_at >= span.starts and k.created_at < span.ends
			union all
			select null, ${dayOf('r.sent_at')}, ${none}::uuid, p.channel_id, ${none}::uuid, sent.measure, 0, 0
			from campaign_recipients r
			join campaigns p on p.id = r.campaign_id
			cross join lateral (values ('campaign_sent'), (case when r.status in ('delivered', 'read', 'replied') then 'campaign_delivered' end)) sent (measure), span
			where r.workspace_id = ${workspaceId} and r.sent_at >= span.starts and r.sent_at < span.ends and sent.measure is not null
		),
		labelled as (
			select f.*, labels.label_id
			from facts f
			cross join lateral (
				select ${none}::uuid as label_id
				union all
				select cl.label_id from conversation_labels cl where cl.conversation_id = f.conversation_id
			) labels
			where f.day = any(${dayList})
		),
		counted as (
			select label_id, day, team_id, channel_id, agent_id, measure, bucket, business_bucket, count(*)::int as n
			from labelled
			group by label_id, day, team_id, channel_id, agent_id, measure, bucket, business_bucket
		)
		insert into report_days (
			workspace_id, label_id, day, team_id, channel_id, agent_id, opened, resolved, messages_in, messages_out, first_responses,
			first_response_buckets, resolution_buckets, first_response_business_buckets, resolution_business_buckets, incoming_hours,
			new_contacts, campaign_sent, campaign_delivered
		)
		select ${workspaceId}, label_id, day,
			case when grouping(team_id) = 1 then ${every}::uuid else team_id end,
			case when grouping(channel_id) = 1 then ${every}::uuid else channel_id end,
			case when grouping(agent_id) = 1 then ${every}::uuid else agent_id end,
			coalesce(sum(n) filter (where measure = 'opened'), 0),
			coalesce(sum(n) filter (where measure = 'resolved'), 0),
			coalesce(sum(n) filter (where measure = 'in'), 0),
			coalesce(sum(n) filter (where measure = 'out'), 0),
			coalesce(sum(n) filter (where measure = 'first_response'), 0),
			crm_histogram(array_agg(bucket) filter (where measure = 'first_response'), array_agg(n) filter (where measure = 'first_response'), ${bucketCount}),
			crm_histogram(array_agg(bucket) filter (where measure = 'resolved'), array_agg(n) filter (where measure = 'resolved'), ${bucketCount}),
			crm_histogram(array_agg(business_bucket) filter (where measure = 'first_response'), array_agg(n) filter (where measure = 'first_response'), ${bucketCount}),
			crm_histogram(array_agg(business_bucket) filter (where measure = 'resolved'), array_agg(n) filter (where measure = 'resolved'), ${bucketCount}),
			crm_histogram(array_agg(bucket) filter (where measure = 'in'), array_agg(n) filter (where measure = 'in'), 24),
			coalesce(sum(n) filter (where measure = 'new_contact'), 0),
			coalesce(sum(n) filter (where measure = 'campaign_sent'), 0),
			coalesce(sum(n) filter (where measure = 'campaign_delivered'), 0)
		from counted
		group by label_id, day, cube (team_id, channel_id, agent_id)
	`.execute(trx)
}

/** Times as PostgreSQL writes them (`-infinity` and `infinity` included). */
type Span = { from: string; to: string }
const always: Span = { from: '-infinity', to: 'infinity' }

/**
 * The days (in the workspace's time zone) the spans cover. An open end (a new time zone, a rebuild)
 * stands for the workspace's first fact (seeds write history older than the workspace) or today.
 */
async function daysOf(trx: DB, workspaceId: string, spans: Span[]): Promise<string[]> {
	if (spans.length === 0) return []
	const { rows } = await sql<{ day: string }>`
		select distinct to_char(d, 'YYYY-MM-DD') as day
		from workspaces w,
			lateral (
				select least(
					w.created_at,
					(select min(created_at) from conversations where workspace_id = w.id),
					(select min(created_at) from contacts where workspace_id = w.id),
					(select min(m.created_at) from channels c cross join lateral (select min(created_at) as created_at from messages where channel_id = c.id) m where c.workspace_id = w.id)
				) as at
			) first,
			jsonb_to_recordset(${JSON.stringify(spans)}::jsonb) s ("from" timestamptz, "to" timestamptz),
			generate_series(
				((case when s."from" = '-infinity' then first.at else s."from" end) at time zone w.timezone)::date,
				((case when s."to" = 'infinity' then now() + interval '1 day' else s."to" end) at time zone w.timezone)::date,
				interval '1 day'
			) d
		where w.id = ${workspaceId}
		order by 1
	`.execute(trx)
	return rows.map((row) => row.day)
}

/**
 * Recomputes the days that changes made stale (`report_dirty`), a batch of notes at a time, each
 * batch in one transaction (a failure leaves its notes for the next run). Returns how many notes
 * it took. Safe beside another refresh: notes are taken with SKIP LOCKED, days under a lock.
 */
export async function refreshReports(db: DB, options: { batch?: number; workspaceId?: string } = {}): Promise<number> {
	let taken = 0
	for (;;) {
		const count = await db.transaction().execute(async (trx) => {
			// Picked once (a materialised CTE): as `id in (… limit … skip locked)` a nested loop may pick again per row.
			const notes = await trx
				.with(
					(cte) => cte('picked').materialized(),
					(query) => {
						let stale = query.selectFrom('reportDirty').select('id')
						if (options.workspaceId) stale = stale.where('workspaceId', '=', options.workspaceId)
						return stale
							.orderBy('id')
							.limit(options.batch ?? 1000)
							.forUpdate()
							.skipLocked()
					},
				)
				.deleteFrom('reportDirty')
				.where('id', 'in', (eb) => eb.selectFrom('picked').select('picked.id'))
				.returning(['workspaceId', sql<string>`from_at::text`.as('from'), sql<string>`to_at::text`.as('to')])
				.execute()
			const byWorkspace = new Map<string, Span[]>()
			for (const { workspaceId, ...span } of notes) byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), span])
			// In id order, as every writer locks workspaces, so that two refreshes never deadlock.
			for (const [workspaceId, spans] of [...byWorkspace].sort(([a], [b]) => a.localeCompare(b))) {
				const exists = await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst()
				if (!exists) continue
				// A new time zone moved every fact to another day: the old days go, whichever they were.
				if (spans.some((span) => span.from === '-infinity')) await trx.deleteFrom('reportDays').where('workspaceId', '=', workspaceId).execute()
				await recomputeDays(trx, workspaceId, await daysOf(trx, workspaceId, spans))
			}
			return notes.length
		})
		taken += count
		if (count === 0) return taken
	}
}

/** The `refresh-reports` job: a refresh, and another in 5 s while changes keep coming (the crontab adds one a minute otherwise). */
export async function refreshReportsJob(db: DB) {
	if ((await refreshReports(db)) > 0) await addJob(db, 'refresh-reports', {}, { key: 'refresh-reports', runAt: new Date(Date.now() + 5000) })
}

/**
 * Before a workspace's report is read: its stale days recomputed, so that it counts every change
 * made until now (the job does it for every workspace, but only every few seconds). A few days'
 * facts, a few milliseconds; nothing when nothing changed. Returns the version of the roll-ups then.
 */
export async function refreshBeforeReading(db: DB, workspaceId: string): Promise<string> {
	const state = () =>
		sql<{ version: string | null; stale: boolean }>`
			select (select version from report_versions where workspace_id = ${workspaceId})::text as version,
				exists (select from report_dirty where workspace_id = ${workspaceId}) as stale
		`.execute(db)
	let now = (await state()).rows[0]
	if (now?.stale) {
		await refreshReports(db, { workspaceId })
		now = (await state()).rows[0]
	}
	return now?.version ?? '0'
}

/** Recomputes every day of a workspace (or of every workspace): the command `npm run reports:rebuild`. */
export async function rebuildReports(db: DB, workspaceId?: string) {
	let query = db.selectFrom('workspaces').select('id').orderBy('id')
	if (workspaceId) query = query.where('id', '=', workspaceId)
	for (const { id } of await query.execute()) {
		await db.transaction().execute(async (trx) => {
			// Its stale days are among all of them.
			await trx.deleteFrom('reportDirty').where('workspaceId', '=', id).execute()
			await trx.deleteFrom('reportDays').where('workspaceId', '=', id).execute()
			await recomputeDays(trx, id, await daysOf(trx, id, [always]))
		})
	}
}
