import { DateTime } from 'luxon'
import { z } from 'zod'

/**
 * Business hours (issue 31): per weekday (Monday first) up to two ranges of wall-clock time, or
 * none (closed), and holidays (closed all day), read in the workspace's time zone. A range's
 * times are the clock's on that day, so "09:00" is 09:00 on both sides of a DST change; a time the
 * clock skips (02:30 on a spring-forward night) moves forward by the gap (03:30), as luxon does.
 * No hours at all (null) means always open. Read by the API (auto-replies, rules, reports) and the
 * settings pages, so both agree.
 */

const time = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'businessHours:errors.time')
const range = z.object({ from: time, to: time }).refine((value) => value.from < value.to, { message: 'businessHours:errors.order', path: ['to'] })
const day = z
	.array(range)
	.max(2, 'businessHours:errors.tooManyRanges')
	.refine((ranges) => ranges.length < 2 || ranges[0]!.to <= ranges[1]!.from, { message: 'businessHours:errors.overlap' })
const isoDate = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid, 'businessHours:errors.date')

export const businessHoursLimits = { holidays: 100 } as const

export const businessHoursSchema = z.object({
	days: z.array(day).length(7),
	holidays: z
		.array(isoDate)
		.max(businessHoursLimits.holidays, 'businessHours:errors.tooManyHolidays')
		.transform((dates) => [...new Set(dates)].sort()),
})
export type BusinessHours = z.infer<typeof businessHoursSchema>
export type TimeRange = BusinessHours['days'][number][number]

/** A channel's own hours when it has some, else its workspace's. */
export const hoursOf = (channelHours: BusinessHours | null | undefined, workspaceHours: BusinessHours | null | undefined): BusinessHours | null =>
	channelHours ?? workspaceHours ?? null

/** The open intervals of one local day (holidays have none), as instants. */
function openOn(hours: BusinessHours, localDay: DateTime): Array<{ start: number; end: number }> {
	if (hours.holidays.includes(localDay.toISODate() ?? '')) return []
	const at = (clock: string) => {
		const [hour, minute] = clock.split(':').map(Number) as [number, number]
		return hour === 24 ? localDay.plus({ days: 1 }).startOf('day').toMillis() : localDay.set({ hour, minute, second: 0, millisecond: 0 }).toMillis()
	}
	return (hours.days[localDay.weekday - 1] ?? []).map((open) => ({ start: at(open.from), end: at(open.to) }))
}

const localDayOf = (timeZone: string, at: Date) => DateTime.fromJSDate(at, { zone: timeZone }).startOf('day')

const neverOpen = (hours: BusinessHours) => hours.days.every((ranges) => ranges.length === 0)

// How far the searches look, in days: a week of closed days and a year of holidays.
const searchDays = 400

export function isOpen(hours: BusinessHours | null, timeZone: string, at: Date): boolean {
	if (!hours) return true
	const instant = at.getTime()
	return openOn(hours, localDayOf(timeZone, at)).some((open) => open.start <= instant && instant < open.end)
}

/** The next moment after `at` that the hours open; null when always open (no hours) or never open. */
export function nextOpening(hours: BusinessHours | null, timeZone: string, at: Date): Date | null {
	if (!hours || neverOpen(hours)) return null
	const instant = at.getTime()
	let localDay = localDayOf(timeZone, at)
	for (let day = 0; day < searchDays; day++, localDay = localDay.plus({ days: 1 })) {
		const next = openOn(hours, localDay).find((open) => open.start > instant)
		if (next) return new Date(next.start)
	}
	return null
}

/**
 * When closed at `at`, the instant this closed period began (the end of the last open range), the
 * key of "once per closed period"; the epoch when the hours were never open. Null when open.
 */
export function closedPeriodStart(hours: BusinessHours | null, timeZone: string, at: Date): Date | null {
	if (isOpen(hours, timeZone, at) || !hours) return null
	if (neverOpen(hours)) return new Date(0)
	const instant = at.getTime()
	let localDay = localDayOf(timeZone, at)
	for (let day = 0; day < searchDays; day++, localDay = localDay.minus({ days: 1 })) {
		const ended = openOn(hours, localDay)
			.filter((open) => open.end <= instant)
			.at(-1)
		if (ended) return new Date(ended.end)
	}
	return new Date(0)
}

/** The open seconds between `from` and `to` (calendar seconds when there are no hours). */
export function businessSeconds(hours: BusinessHours | null, timeZone: string, from: Date, to: Date): number {
	const [start, end] = [from.getTime(), to.getTime()]
	if (end <= start) return 0
	if (!hours) return Math.round((end - start) / 1000)
	let total = 0
	const last = localDayOf(timeZone, to)
	for (let localDay = localDayOf(timeZone, from); localDay <= last; localDay = localDay.plus({ days: 1 })) {
		for (const open of openOn(hours, localDay)) total += Math.max(0, Math.min(end, open.end) - Math.max(start, open.start))
	}
	return Math.round(total / 1000)
}

/** Hours every weekday 09:00–17:00, Saturday and Sunday closed: what a new schedule starts from. */
export const defaultBusinessHours: BusinessHours = {
	days: [0, 1, 2, 3, 4, 5, 6].map((index) => (index < 5 ? [{ from: '09:00', to: '17:00' }] : [])),
	holidays: [],
}
