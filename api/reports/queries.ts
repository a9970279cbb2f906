import { sql, type RawBuilder } from 'kysely'
import { LRUCache } from 'lru-cache'
import { tabCounts } from '#api/conversations/queries.ts'
import { type DB } from '#api/db/database.ts'
import { type Availability, type ChannelKind } from '#api/db/schema.ts'
import { bucketCount, quantile, shareUnder } from './buckets.ts'
import { type ReportFilters, type ReportHours, type ReportJson, type ReportPreset, type ReportRange } from './json.ts'
import { every, none } from './rollup.ts'

/** Plain dates (`YYYY-MM-DD`) as UTC midnights, for their arithmetic. */
const toTime = (day: string) => Date.parse(`${day}T00:00:00Z`)
const toDay = (time: number) => new Date(time).toISOString().slice(0, 10)
const dayMs = 86_400_000
export const addDays = (day: string, days: number) => toDay(toTime(day) + days * dayMs)
export const daysBetween = (from: string, to: string) => Math.round((toTime(to) - toTime(from)) / dayMs) + 1

/** Today in a time zone. */
export function todayIn(timezone: string, now = new Date()): string {
	let format = dayFormats.get(timezone)
	if (!format) {
		format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' })
		dayFormats.set(timezone, format)
	}
	return format.format(now)
}
// A formatter per time zone, made once (making one costs more than the report's arithmetic); the zones are IANA names, a few hundred at most.
const dayFormats = new Map<string, Intl.DateTimeFormat>()

/** The range a preset names today in `timezone` (`custom` keeps `from` and `to`), and the period of the same length before it. */
export function resolveRange(preset: ReportPreset, timezone: string, custom?: ReportRange, now = new Date()): { range: ReportRange; previous: ReportRange } {
	const today = todayIn(timezone, now)
	const range: ReportRange =
		preset === 'today'
			? { from: today, to: today }
			: preset === '7d'
				? { from: addDays(today, -6), to: today }
				: preset === '30d'
					? { from: addDays(today, -29), to: today }
					: preset === 'month'
						? { from: `${today.slice(0, 8)}01`, to: today }
						: (custom ?? { from: today, to: today })
	const length = daysBetween(range.from, range.to)
	return { range, previous: { from: addDays(range.from, -length), to: addDays(range.from, -1) } }
}

/** The element-by-element sum of an array column over the group, as one array (`size` elements). */
function arraySum(column: string, size: number): RawBuilder<number[]> {
	return sql.raw(`array[${Array.from({ length: size }, (_, index) => `coalesce(sum(${column}[${index + 1}]), 0)`).join(', ')}]::int[]`)
}

type Totals = {
	opened: number
	resolved: number
	messagesIn: number
	messagesOut: number
	newContacts: number
	campaignSent: number
	campaignDelivered: number
	firstResponses: number[]
	resolutions: number[]
	hours: number[]
}

/** Which grouping a row of the grouped statement is of: the period's total, or by day, week, channel, agent, team or weekday. */
type GroupedBy = 'total' | 'day' | 'week' | 'channel' | 'agent' | 'team' | 'weekday'
type Grouped = Totals & {
	by: GroupedBy
	previous: boolean
	day: string | null
	channelId: string | null
	agentId: string | null
	teamId: string | null
	weekday: number | null
}

// `grouping(day, isodow, week)`: a bit set (4, 2, 1) for each of them the row of this period is not grouped by.
const groupings: Record<number, GroupedBy> = { 7: 'total', 3: 'day', 5: 'weekday', 6: 'week' }
/** The Monday that begins a day's ISO week. */
const weekOf = sql.raw(`date_trunc('week', day::timestamp)::date`)

/**
 * The report of one workspace from the roll-ups of `version` (rollupGroups), with what is live read
 * now: "open now", the queue waits, the channels' and teams' names, the members and their
 * availability. An agent (`onlyAgent`) sees their own work only.
 */
export async function readReport(
	db: DB,
	workspace: { id: string; timezone: string },
	query: {
		preset: ReportPreset
		range: ReportRange
		previous: ReportRange
		filters: ReportFilters
		targetSeconds: number
		hours: ReportHours
		onlyAgent?: string
		version: string
	},
): Promise<ReportJson> {
	const { range, previous, filters } = query
	const agentId = query.onlyAgent ?? filters.agentId
	const groups = await rollupGroups(db, workspace.id, query.version, {
		range,
		previous,
		labelId: filters.labelId,
		channelId: filters.channelId,
		agentId,
		teamId: filters.teamId,
		hours: query.hours,
	})

	const current = groups.filter((group) => !group.previous)
	const before = groups.filter((group) => group.previous)
	const total = (list: Grouped[]) => list.find((group) => group.by === 'total') ?? emptyTotals()
	const now = total(current)
	const then = total(before)
	const change = (key: 'opened' | 'resolved' | 'messagesIn' | 'messagesOut' | 'newContacts' | 'campaignSent' | 'campaignDelivered') => ({
		value: now[key],
		previous: then[key],
	})
	const duration = (key: 'firstResponses' | 'resolutions') => ({
		count: sum(now[key]),
		median: quantile(now[key], 0.5),
		p90: quantile(now[key], 0.9),
		previousCount: sum(then[key]),
		previousMedian: quantile(then[key], 0.5),
		previousP90: quantile(then[key], 0.9),
	})

	const byDay = new Map(current.filter((group) => group.by === 'day').map((group) => [group.day, group]))
	const daily = Array.from({ length: daysBetween(range.from, range.to) }, (_, index) => {
		const day = addDays(range.from, index)
		const group = byDay.get(day) ?? emptyTotals()
		return {
			day,
			opened: group.opened,
			resolved: group.resolved,
			messagesIn: group.messagesIn,
			messagesOut: group.messagesOut,
			firstResponseMedian: quantile(group.firstResponses, 0.5),
		}
	})

	// Every week the range touches, from its Monday (or the range's first day) to its Sunday (or the range's last day).
	const byWeek = new Map(current.filter((group) => group.by === 'week').map((group) => [group.day, group]))
	const firstMonday = addDays(range.from, -((new Date(toTime(range.from)).getUTCDay() + 6) % 7))
	const weekly = Array.from({ length: Math.ceil(daysBetween(firstMonday, range.to) / 7) }, (_, index) => {
		const monday = addDays(firstMonday, index * 7)
		const group = byWeek.get(monday) ?? emptyTotals()
		const sunday = addDays(monday, 6)
		return {
			from: monday < range.from ? range.from : monday,
			to: sunday > range.to ? range.to : sunday,
			opened: group.opened,
			resolved: group.resolved,
			messagesIn: group.messagesIn,
			messagesOut: group.messagesOut,
			firstResponseMedian: quantile(group.firstResponses, 0.5),
		}
	})

	const heatmap = Array.from({ length: 7 }, () => new Array<number>(24).fill(0))
	for (const group of current) if (group.by === 'weekday' && group.weekday !== null) heatmap[group.weekday] = group.hours

	const [channels, members, openNow, teams, waits] = await Promise.all([
		db.selectFrom('channels').select(['id', 'name', 'kind']).where('workspaceId', '=', workspace.id).execute(),
		memberRows(db, workspace.id, query.onlyAgent),
		countOpen(db, workspace.id, { ...filters, agentId }),
		db.selectFrom('teams').select(['id', 'name']).where('workspaceId', '=', workspace.id).orderBy('name').execute(),
		queueWaits(db, workspace, { range, previous, filters: { ...filters, agentId } }),
	])
	const channelStats = new Map(current.filter((group) => group.by === 'channel').map((group) => [group.channelId, group]))
	const channelRows = channels
		.filter((channel) => channelStats.has(channel.id) || channel.id === filters.channelId)
		.map((channel) => {
			const group = channelStats.get(channel.id) ?? emptyTotals()
			return {
				channelId: channel.id,
				name: channel.name,
				kind: channel.kind as ChannelKind,
				opened: group.opened,
				resolved: group.resolved,
				messagesIn: group.messagesIn,
				messagesOut: group.messagesOut,
			}
		})
		.sort((a, b) => b.messagesIn + b.messagesOut - (a.messagesIn + a.messagesOut) || a.name.localeCompare(b.name))
	const agentStats = new Map(current.filter((group) => group.by === 'agent').map((group) => [group.agentId, group]))
	const agents = members
		.filter((member) => !filters.agentId || member.userId === filters.agentId)
		.map((member) => {
			const group = agentStats.get(member.userId) ?? emptyTotals()
			return {
				...member,
				assigned: group.opened,
				replied: group.messagesOut,
				resolved: group.resolved,
				firstResponseMedian: quantile(group.firstResponses, 0.5),
				resolutionMedian: quantile(group.resolutions, 0.5),
			}
		})
	// The teams with any activity or wait in the range (or the filtered one), in name order, then conversations of no team.
	const teamStats = new Map(current.filter((group) => group.by === 'team').map((group) => [group.teamId, group]))
	const teamWaits = new Map(waits.filter((wait) => wait.by === 'team').map((wait) => [wait.teamId ?? none, wait]))
	const teamRow = (teamId: string, name: string | null) => {
		const group = teamStats.get(teamId) ?? emptyTotals()
		const wait = teamWaits.get(teamId)
		return {
			teamId: teamId === none ? null : teamId,
			name,
			opened: group.opened,
			resolved: group.resolved,
			firstResponseMedian: quantile(group.firstResponses, 0.5),
			resolutionMedian: quantile(group.resolutions, 0.5),
			queueWaits: wait?.count ?? 0,
			queueWaitMedian: wait?.median ?? null,
			queueWaitP90: wait?.p90 ?? null,
		}
	}
	const teamRows = [
		...teams.filter((team) => teamStats.has(team.id) || teamWaits.has(team.id) || team.id === filters.teamId).map((team) => teamRow(team.id, team.name)),
		...(teamStats.has(none) || teamWaits.has(none) ? [teamRow(none, null)] : []),
	]
	const wholeWait = (previous: boolean) => waits.find((wait) => wait.by === 'total' && wait.previous === previous)

	return {
		timezone: workspace.timezone,
		preset: query.preset,
		range,
		previous,
		filters: { ...filters, agentId: agentId ?? null },
		targetSeconds: query.targetSeconds,
		hours: query.hours,
		figures: {
			opened: change('opened'),
			resolved: change('resolved'),
			openNow,
			messagesIn: change('messagesIn'),
			messagesOut: change('messagesOut'),
			firstResponse: duration('firstResponses'),
			resolution: duration('resolutions'),
			answeredWithinTarget: { value: shareUnder(now.firstResponses, query.targetSeconds), previous: shareUnder(then.firstResponses, query.targetSeconds) },
			queueWait: {
				count: wholeWait(false)?.count ?? 0,
				median: wholeWait(false)?.median ?? null,
				p90: wholeWait(false)?.p90 ?? null,
				previousCount: wholeWait(true)?.count ?? 0,
				previousMedian: wholeWait(true)?.median ?? null,
				previousP90: wholeWait(true)?.p90 ?? null,
			},
			newContacts: change('newContacts'),
			campaignSent: change('campaignSent'),
			campaignDelivered: change('campaignDelivered'),
		},
		daily,
		weekly,
		channels: channelRows,
		heatmap,
		agents,
		teams: teamRows,
	}
}

type Wait = { by: 'total' | 'team'; previous: boolean; teamId: string | null; count: number; median: number | null; p90: number | null }

/**
 * The waits in a team's queue that ended (the conversation assigned) in the range and in the
 * previous period, whole, and in the range by team: their count, median and 90th percentile, in
 * whole seconds. Read from `queue_waits` itself, not the roll-ups: exact, and a few rows a day.
 * The filters are the conversation's: its channel, its labels, its assignee now, the team whose
 * queue it waited in.
 */
async function queueWaits(
	db: DB,
	workspace: { id: string; timezone: string },
	query: { range: ReportRange; previous: ReportRange; filters: ReportFilters },
): Promise<Wait[]> {
	const { range, previous, filters } = query
	const start = (day: string) => sql`(${day}::date)::timestamp at time zone ${workspace.timezone}`
	const end = (day: string) => sql`(${day}::date + 1)::timestamp at time zone ${workspace.timezone}`
	const { rows } = await sql<{ grouping: number; previous: boolean; teamId: string | null; count: number; median: number | null; p90: number | null }>`
		with waits as (
			select w.team_id, w.assigned_at < ${start(range.from)} as previous, extract(epoch from w.assigned_at - w.queued_at) as seconds
			from queue_waits w
			join conversations c on c.id = w.conversation_id
			where w.workspace_id = ${workspace.id} and w.assigned_at >= ${start(previous.from)} and w.assigned_at < ${end(range.to)}
				${filters.teamId ? sql`and w.team_id = ${filters.teamId}` : sql``}
				${filters.channelId ? sql`and c.channel_id = ${filters.channelId}` : sql``}
				${filters.agentId ? sql`and c.assignee_id = ${filters.agentId}` : sql``}
				${filters.labelId ? sql`and exists (select from conversation_labels l where l.conversation_id = c.id and l.label_id = ${filters.labelId})` : sql``}
		)
		select grouping(team_id) as grouping, previous, team_id as "teamId", count(*)::int as count,
			round(percentile_cont(0.5) within group (order by seconds))::int as median,
			round(percentile_cont(0.9) within group (order by seconds))::int as p90
		from waits
		group by grouping sets ((previous), (previous, team_id))
	`.execute(db)
	return rows
		.filter((row) => Number(row.grouping) === 1 || !row.previous)
		.map((row) => ({
			by: Number(row.grouping) === 1 ? 'total' : 'team',
			previous: row.previous,
			teamId: row.teamId,
			count: row.count,
			median: row.median,
			p90: row.p90,
		}))
}

/**
 * Reports read from the roll-ups, kept per workspace, roll-up version and query, the least recently
 * read going first. Counted in rows (a row holds its histograms, under a kilobyte): about 20 MB, a
 * few dozen years or a few hundred months.
 */
const kept = new LRUCache<string, readonly Grouped[]>({ maxSize: 20_000, sizeCalculation: (groups) => Math.max(1, groups.length) })

/**
 * The roll-up rows a report is made of, in statements that each read only the rows and sum only
 * the columns they need: the filter's day rows (its channel or `every`, its agent or `every`) of
 * this period summed whole, by day, by week and by weekday (GROUPING SETS) and of the previous one
 * whole, the histograms element by element in PostgreSQL into one array each; the channels' rows;
 * the agents' rows; the workspace-wide counts. Kept under `version` (refreshBeforeReading), which
 * every change of the roll-ups raises in its own transaction: no process answers from rows older
 * than the version PostgreSQL holds. The rows are shared: read them, never change them.
 */
async function rollupGroups(
	db: DB,
	workspaceId: string,
	version: string,
	query: {
		range: ReportRange
		previous: ReportRange
		labelId: string | null
		channelId: string | null
		agentId: string | null
		teamId: string | null
		hours: ReportHours
	},
): Promise<readonly Grouped[]> {
	const { range, previous, channelId, agentId, teamId, hours } = query
	const label = query.labelId ?? none
	const channelKey = channelId ?? every
	const agentKey = agentId ?? every
	const teamKey = teamId ?? every
	const key = [workspaceId, version, range.from, range.to, previous.from, label, teamKey, channelKey, agentKey, hours].join(' ')
	const hit = kept.get(key)
	if (hit) return hit
	const period = ({ from, to }: ReportRange) => sql`workspace_id = ${workspaceId} and label_id = ${label} and day between ${from}::date and ${to}::date`
	const thisPeriod = period(range)
	const counts = sql`coalesce(sum(opened), 0)::int as opened, coalesce(sum(resolved), 0)::int as resolved,
		coalesce(sum(messages_in), 0)::int as "messagesIn", coalesce(sum(messages_out), 0)::int as "messagesOut"`
	const [firstResponses, resolutions] =
		hours === 'business' ? ['first_response_business_buckets', 'resolution_business_buckets'] : ['first_response_buckets', 'resolution_buckets']
	const histograms = sql`${arraySum(firstResponses, bucketCount)} as f, ${arraySum(resolutions, bucketCount)} as r`
	const filtered = sql`team_id = ${teamKey} and channel_id = ${channelKey} and agent_id = ${agentKey}`
	const [totals, previousTotal, byChannel, byAgent, byTeam, workspaceWide] = await Promise.all([
		// This period: its total, its days, its weeks and its weekdays (the heat map). A week's row is under `day`, its Monday.
		sql<Record<string, unknown>>`
			select grouping(day, extract(isodow from day), ${weekOf}) as grouping, to_char(coalesce(day, ${weekOf}), 'YYYY-MM-DD') as day,
				extract(isodow from day)::int - 1 as weekday, ${counts}, ${histograms}, ${arraySum('incoming_hours', 24)} as h
			from report_days
			where ${thisPeriod} and ${filtered}
			group by grouping sets ((), (day), (extract(isodow from day)), (${weekOf}))
		`.execute(db),
		sql<Record<string, unknown>>`
			select ${counts}, ${histograms} from report_days
			where ${period(previous)} and ${filtered}
		`.execute(db),
		sql<Record<string, unknown>>`
			select channel_id as "channelId", ${counts}
			from report_days
			where ${thisPeriod} and team_id = ${teamKey} and channel_id <> ${every} and agent_id = ${agentKey} ${channelId ? sql`and channel_id = ${channelId}` : sql``}
			group by channel_id
		`.execute(db),
		sql<Record<string, unknown>>`
			select agent_id as "agentId", ${counts}, ${histograms}
			from report_days
			where ${thisPeriod} and team_id = ${teamKey} and agent_id <> ${every} and channel_id = ${channelKey} ${agentId ? sql`and agent_id = ${agentId}` : sql``}
			group by agent_id
		`.execute(db),
		sql<Record<string, unknown>>`
			select team_id as "teamId", ${counts}, ${histograms}
			from report_days
			where ${thisPeriod} and team_id <> ${every} and channel_id = ${channelKey} and agent_id = ${agentKey} ${teamId ? sql`and team_id = ${teamId}` : sql``}
			group by team_id
		`.execute(db),
		// New contacts belong to no channel, agent, team or label; campaign messages to a channel only.
		sql<{ previous: boolean; newContacts: number; campaignSent: number; campaignDelivered: number }>`
			select day < ${range.from}::date as previous, coalesce(sum(new_contacts) filter (where channel_id = ${every}), 0)::int as "newContacts",
				coalesce(sum(campaign_sent) filter (where channel_id = ${channelKey}), 0)::int as "campaignSent",
				coalesce(sum(campaign_delivered) filter (where channel_id = ${channelKey}), 0)::int as "campaignDelivered"
			from report_days
			where workspace_id = ${workspaceId} and label_id = ${none} and team_id = ${every} and agent_id = ${every} and channel_id in (${every}, ${channelKey})
				and day between ${previous.from}::date and ${range.to}::date
			group by 1
		`.execute(db),
	])
	const groups = [
		...totals.rows.map((row) => toGrouped(row, groupings[Number(row.grouping)] ?? 'total')),
		...previousTotal.rows.map((row) => ({ ...toGrouped(row, 'total'), previous: true })),
		...byChannel.rows.map((row) => toGrouped(row, 'channel')),
		...byAgent.rows.map((row) => toGrouped(row, 'agent')),
		...byTeam.rows.map((row) => toGrouped(row, 'team')),
	]
	for (const row of workspaceWide.rows) {
		const group = groups.find((each) => each.previous === row.previous && each.by === 'total')
		if (group) Object.assign(group, { newContacts: row.newContacts, campaignSent: row.campaignSent, campaignDelivered: row.campaignDelivered })
		else groups.push({ ...emptyTotals(), ...row })
	}
	kept.set(key, groups)
	return groups
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

function emptyTotals(): Grouped {
	return {
		by: 'total',
		previous: false,
		day: null,
		channelId: null,
		agentId: null,
		teamId: null,
		weekday: null,
		opened: 0,
		resolved: 0,
		messagesIn: 0,
		messagesOut: 0,
		newContacts: 0,
		campaignSent: 0,
		campaignDelivered: 0,
		firstResponses: new Array<number>(bucketCount).fill(0),
		resolutions: new Array<number>(bucketCount).fill(0),
		hours: new Array<number>(24).fill(0),
	}
}

/** A row of a grouped statement, with the histograms it has (the others empty). */
function toGrouped(row: Record<string, unknown>, by: GroupedBy): Grouped {
	const histogram = (value: unknown, size: number) => (Array.isArray(value) ? (value as number[]) : new Array<number>(size).fill(0))
	return {
		by,
		previous: false,
		day: (row.day as string | null) ?? null,
		channelId: (row.channelId as string | null) ?? null,
		agentId: (row.agentId as string | null) ?? null,
		teamId: (row.teamId as string | null) ?? null,
		weekday: row.weekday === null || row.weekday === undefined ? null : Number(row.weekday),
		opened: Number(row.opened),
		resolved: Number(row.resolved),
		messagesIn: Number(row.messagesIn),
		messagesOut: Number(row.messagesOut),
		newContacts: 0,
		campaignSent: 0,
		campaignDelivered: 0,
		firstResponses: histogram(row.f, bucketCount),
		resolutions: histogram(row.r, bucketCount),
		hours: histogram(row.h, 24),
	}
}

/** The workspace's members (or one), as the per-agent table lists them. */
async function memberRows(db: DB, workspaceId: string, onlyUser?: string): Promise<Array<{ userId: string; name: string; availability: Availability }>> {
	let query = db
		.selectFrom('members')
		.innerJoin('users', 'users.id', 'members.userId')
		.select(['users.id as userId', 'users.name', 'members.availability'])
		.where('members.workspaceId', '=', workspaceId)
		.orderBy('users.name')
	if (onlyUser) query = query.where('members.userId', '=', onlyUser)
	return query.execute()
}

/** Conversations open now: the kept counts when only an agent narrows them, else counted. */
async function countOpen(db: DB, workspaceId: string, filters: ReportFilters): Promise<number> {
	if (!filters.channelId && !filters.labelId && !filters.teamId) return (await tabCounts(db, workspaceId, filters.agentId ?? undefined)).open
	let open = db
		.selectFrom('conversations')
		.select(sql<number>`count(*)::int`.as('n'))
		.where('workspaceId', '=', workspaceId)
		.where('status', '=', 'open')
	if (filters.channelId) open = open.where('channelId', '=', filters.channelId)
	if (filters.agentId) open = open.where('assigneeId', '=', filters.agentId)
	if (filters.teamId) open = open.where('teamId', '=', filters.teamId)
	if (filters.labelId) {
		const labelId = filters.labelId
		open = open.where((eb) =>
			eb.exists(
				eb
					.selectFrom('conversationLabels')
					.select('labelId')
					.whereRef('conversationLabels.conversationId', '=', 'conversations.id')
					.where('conversationLabels.labelId', '=', labelId),
			),
		)
	}
	return (await open.executeTakeFirstOrThrow()).n
}
