import { dateTimeFormat as dateFormat, numberFormat } from '#app/utils/intl.ts'

// The reports' numbers in the reader's language (an i18next language tag: en-US, ar-EG, fr).
// Formatters are kept per language and options (app/utils/intl.ts): a page of reports formats a few hundred values.
const listFormats = new Map<string, Intl.ListFormat>()

export function formatCount(lang: string, value: number): string {
	return numberFormat(lang).format(value)
}

/** A share from 0 to 1 as a whole percentage: "87%". */
export function formatShare(lang: string, share: number): string {
	return numberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share)
}

type Unit = 'day' | 'hour' | 'minute' | 'second'
const unitSeconds: Record<Unit, number> = { day: 86_400, hour: 3_600, minute: 60, second: 1 }

/**
 * A duration as people say it, in its two largest units: "45 sec", "12 min", "1 hr, 5 min",
 * "2 days, 3 hr" (Node 20 has no Intl.DurationFormat: units and a list of units instead).
 */
export function formatDuration(lang: string, seconds: number): string {
	const total = Math.max(0, Math.round(seconds))
	const parts: Array<[Unit, number]> =
		total < 60
			? [['second', total]]
			: total < 3_600
				? [['minute', Math.round(total / 60)]]
				: total < 86_400
					? split(total, 'hour', 'minute')
					: split(total, 'day', 'hour')
	const words = parts
		.filter(([, value], index) => index === 0 || value > 0)
		.map(([unit, value]) => numberFormat(lang, { style: 'unit', unit, unitDisplay: unit === 'day' ? 'long' : 'short' }).format(value))
	if (words.length === 1) return words[0]!
	let list = listFormats.get(lang)
	if (!list) listFormats.set(lang, (list = new Intl.ListFormat(lang, { type: 'unit', style: 'short' })))
	return list.format(words)
}

function split(total: number, large: Unit, small: Unit): Array<[Unit, number]> {
	const rounded = Math.round(total / unitSeconds[small]) * unitSeconds[small]
	return [
		[large, Math.floor(rounded / unitSeconds[large])],
		[small, Math.round((rounded % unitSeconds[large]) / unitSeconds[small])],
	]
}

/**
 * How a figure moved against the previous period: "+12%", "−40%", or null when there is nothing
 * to compare with (no previous value, or nothing before).
 */
export function formatChange(lang: string, value: number | null, previous: number | null): string | null {
	if (value === null || previous === null || previous === 0) return null
	return numberFormat(lang, { style: 'percent', signDisplay: 'exceptZero', maximumFractionDigits: 0 }).format((value - previous) / previous)
}

/** The direction of a change, for its arrow and colour: a shorter wait is the better one. */
export function trendOf(value: number | null, previous: number | null): 'up' | 'down' | 'same' | null {
	if (value === null || previous === null) return null
	return value > previous ? 'up' : value < previous ? 'down' : 'same'
}

// A `YYYY-MM-DD` day of the workspace's time zone names itself: read at UTC noon, it is that day anywhere.
const noonOf = (day: string) => new Date(`${day}T12:00:00Z`)

/** A day of the report ("Mar 4"), or with its year ("Mar 4, 2025") for the range's ends. */
export function formatDay(lang: string, day: string, options: { year?: boolean; weekday?: boolean } = {}): string {
	return dateFormat(lang, {
		month: 'short',
		day: 'numeric',
		year: options.year ? 'numeric' : undefined,
		weekday: options.weekday ? 'short' : undefined,
		timeZone: 'UTC',
	}).format(noonOf(day))
}

/** Weekday names, Monday first (the heat map's rows: 0 Monday … 6 Sunday). */
export function weekdayNames(lang: string, width: 'short' | 'long' = 'short'): string[] {
	// 2024-01-01 was a Monday.
	return Array.from({ length: 7 }, (_, index) => dateFormat(lang, { weekday: width, timeZone: 'UTC' }).format(noonOf(`2024-01-0${index + 1}`)))
}

/** An hour of the day as the language writes it on a clock ("3 PM", "15 h", "٣ م"). */
export function formatHour(lang: string, hour: number): string {
	return dateFormat(lang, { hour: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1, hour)))
}
