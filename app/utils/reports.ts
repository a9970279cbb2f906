import { type ReportJson, type ReportPreset, type ReportRange, type ReportTable } from '#app/.server/api.ts'

export type { ReportJson, ReportPreset, ReportTable } from '#app/.server/api.ts'

export const reportPresets = ['today', '7d', '30d', 'month', 'custom'] as const satisfies readonly ReportPreset[]
export const reportTableNames = ['daily', 'weekly', 'channels', 'agents', 'teams', 'heatmap'] as const satisfies readonly ReportTable[]

/** What the reports' form asks for, as the URL holds it ('' for "any"). */
export type ReportQuery = {
	preset: ReportPreset
	from: string
	to: string
	channelId: string
	agentId: string
	labelId: string
	teamId: string
	target: string
	/** `business`: durations in business hours; anything else calendar time. */
	hours: string
}

const defaultPreset: ReportPreset = '7d'

/**
 * The form's values from the URL, as the report reads them. A form sent from the page carries
 * `shown`, the period and dates it showed ("7d,2025-01-01,2025-01-07"): another period chosen there
 * is that period, with its own dates; dates typed there are a custom range. Without it (a link,
 * an export), the dates count only with `preset=custom`. An unknown preset is the default one; the
 * API checks the dates and ids.
 */
export function reportQuery(params: URLSearchParams): ReportQuery {
	const value = (name: string) => params.get(name)?.trim() ?? ''
	const asked = params.getAll('preset').at(-1)
	const period = reportPresets.find((candidate) => candidate === asked) ?? defaultPreset
	const [from, to, shown] = [value('from'), value('to'), value('shown')]
	const [shownPeriod, shownFrom = '', shownTo = ''] = shown.split(',')
	const periodChosen = Boolean(shown) && period !== shownPeriod && period !== 'custom'
	const datesTyped = Boolean(shown) && (from !== shownFrom || to !== shownTo)
	const preset = !periodChosen && datesTyped ? 'custom' : period
	const custom = preset === 'custom'
	return {
		preset,
		from: custom ? from : '',
		to: custom ? to : '',
		channelId: value('channelId'),
		agentId: value('agentId'),
		labelId: value('labelId'),
		teamId: value('teamId'),
		target: value('target'),
		hours: value('hours'),
	}
}

/** What the form sends as `shown`: the period and the dates on screen. */
export const shownValue = (preset: ReportPreset, from: string, to: string) => [preset, from, to].join(',')

/** The API's query for the form's values: the dates only for a custom range, nothing empty. */
export function reportApiQuery(query: ReportQuery): Record<string, string | undefined> {
	const custom = query.preset === 'custom'
	return {
		preset: query.preset,
		from: custom ? query.from || undefined : undefined,
		to: custom ? query.to || undefined : undefined,
		channelId: query.channelId || undefined,
		agentId: query.agentId || undefined,
		labelId: query.labelId || undefined,
		teamId: query.teamId || undefined,
		target: query.target || undefined,
		hours: query.hours === 'business' ? 'business' : undefined,
	}
}

/** The URL search of the same report (`?preset=7d&channelId=…`), for the export links. */
export function reportSearch(query: ReportQuery, extra: Record<string, string> = {}): string {
	const params = new URLSearchParams()
	for (const [name, value] of Object.entries({ ...extra, ...reportApiQuery(query) })) if (value) params.set(name, value)
	return `?${params.toString()}`
}

/** The days of a range, both ends included. */
export const rangeDays = ({ from, to }: ReportRange) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1

/** Ranges longer than two months are drawn by week: a year by day is 365 bars no one can read, and a page three times the size. */
export const drawnByWeek = (range: ReportRange) => rangeDays(range) > 62

/** The report with only the series the dashboard draws (by day or by week): the page carries no rows it does not show. */
export function drawnSeries(report: ReportJson): ReportJson {
	return drawnByWeek(report.range) ? { ...report, daily: [] } : { ...report, weekly: [] }
}
