import { sql, type Kysely } from 'kysely'
import { csvLine } from '#api/contacts/csv.ts'
import { type ChannelKind, type Database } from '#api/db/schema.ts'
import { type ReportFilters, type ReportRange } from './json.ts'

/** Surveys asked, rated, and rated 4 or 5; CSAT is the share of 4 and 5 among ratings, the response rate rated / asked (null: nothing to divide). */
export type SatisfactionFigures = {
	asked: number
	rated: number
	satisfied: number
	csat: number | null
	responseRate: number | null
	averageRating: number | null
}

export type SatisfactionReportJson = {
	range: ReportRange
	overall: SatisfactionFigures
	/** By who had the conversation when it was resolved (null: nobody). */
	agents: Array<SatisfactionFigures & { userId: string | null; name: string | null }>
	teams: Array<SatisfactionFigures & { teamId: string | null; name: string | null }>
	channels: Array<SatisfactionFigures & { channelId: string; name: string; kind: ChannelKind }>
}

type Group = { asked: number; rated: number; satisfied: number; ratingSum: number }

const figuresOf = ({ asked, rated, satisfied, ratingSum }: Group): SatisfactionFigures => ({
	asked,
	rated,
	satisfied,
	csat: rated ? satisfied / rated : null,
	responseRate: asked ? rated / asked : null,
	averageRating: rated ? Math.round((ratingSum / rated) * 100) / 100 : null,
})

/**
 * The surveys asked over the range (days in the workspace's time zone), read from the surveys
 * themselves (decision 013: a workspace asks at most one a resolution, few enough to count at once),
 * by agent, team and channel as they were at the resolution; `onlyAgent` narrows to an agent's own.
 */
export async function readSatisfaction(
	db: Kysely<Database>,
	workspace: { id: string; timezone: string },
	range: ReportRange,
	filters: ReportFilters,
	onlyAgent?: string,
): Promise<SatisfactionReportJson> {
	const agentId = onlyAgent ?? filters.agentId
	const { rows } = await sql<{ assigneeId: string | null; teamId: string | null; channelId: string } & Group>`
		select s.assignee_id, s.team_id, s.channel_id, count(*)::int as asked, count(s.rating)::int as rated,
			count(*) filter (where s.rating >= 4)::int as satisfied, coalesce(sum(s.rating), 0)::int as rating_sum
		from satisfaction_surveys s
		where s.workspace_id = ${workspace.id}
			and s.asked_at >= (${range.from}::date)::timestamp at time zone ${workspace.timezone}
			and s.asked_at < (${range.to}::date + 1)::timestamp at time zone ${workspace.timezone}
			${filters.channelId ? sql`and s.channel_id = ${filters.channelId}` : sql``}
			${filters.teamId ? sql`and s.team_id = ${filters.teamId}` : sql``}
			${agentId ? sql`and s.assignee_id = ${agentId}` : sql``}
			${filters.labelId ? sql`and exists (select 1 from conversation_labels l where l.conversation_id = s.conversation_id and l.label_id = ${filters.labelId})` : sql``}
		group by s.assignee_id, s.team_id, s.channel_id
	`.execute(db)
	const sums = <K extends string | null>(key: (row: (typeof rows)[number]) => K) => {
		const groups = new Map<K, Group>()
		for (const row of rows) {
			const group = groups.get(key(row)) ?? { asked: 0, rated: 0, satisfied: 0, ratingSum: 0 }
			group.asked += row.asked
			group.rated += row.rated
			group.satisfied += row.satisfied
			group.ratingSum += row.ratingSum
			groups.set(key(row), group)
		}
		return groups
	}
	const [users, teams, channels] = await Promise.all([
		db
			.selectFrom('users')
			.select(['id', 'name'])
			.where('id', 'in', [...rows.flatMap((row) => (row.assigneeId ? [row.assigneeId] : [])), '00000000-0000-0000-0000-000000000000'])
			.execute(),
		db.selectFrom('teams').select(['id', 'name']).where('workspaceId', '=', workspace.id).execute(),
		db.selectFrom('channels').select(['id', 'name', 'kind']).where('workspaceId', '=', workspace.id).execute(),
	])
	const nameOf = (list: Array<{ id: string; name: string }>, id: string | null) => list.find((entry) => entry.id === id)?.name ?? null
	const byAsked = (a: { asked: number }, b: { asked: number }) => b.asked - a.asked
	return {
		range,
		overall: figuresOf(sums(() => null).get(null) ?? { asked: 0, rated: 0, satisfied: 0, ratingSum: 0 }),
		agents: [...sums((row) => row.assigneeId)].map(([userId, group]) => ({ userId, name: nameOf(users, userId), ...figuresOf(group) })).sort(byAsked),
		teams: [...sums((row) => row.teamId)].map(([teamId, group]) => ({ teamId, name: nameOf(teams, teamId), ...figuresOf(group) })).sort(byAsked),
		channels: [...sums((row) => row.channelId)]
			.flatMap(([channelId, group]) => {
				const channel = channels.find((entry) => entry.id === channelId)
				return channel ? [{ channelId, name: channel.name, kind: channel.kind, ...figuresOf(group) }] : []
			})
			.sort(byAsked),
	}
}

const percent = (ratio: number | null) => (ratio === null ? '' : (Math.round(ratio * 1000) / 10).toFixed(1))

/** The satisfaction report as CSV: one row a group (`by`: agent, team, channel, or all), English column names. */
export function satisfactionCsv(report: SatisfactionReportJson): string {
	const line = (by: string, id: string | null, name: string | null, figures: SatisfactionFigures) => [
		by,
		id ?? '',
		name ?? '',
		String(figures.asked),
		String(figures.rated),
		String(figures.satisfied),
		percent(figures.csat),
		percent(figures.responseRate),
		figures.averageRating === null ? '' : String(figures.averageRating),
	]
	const rows = [
		['by', 'id', 'name', 'asked', 'rated', 'rated_4_or_5', 'csat_percent', 'response_rate_percent', 'average_rating'],
		line('all', null, null, report.overall),
		...report.agents.map((row) => line('agent', row.userId, row.name, row)),
		...report.teams.map((row) => line('team', row.teamId, row.name, row)),
		...report.channels.map((row) => line('channel', row.channelId, row.name, row)),
	]
	return rows.map((row) => csvLine(row)).join('')
}
