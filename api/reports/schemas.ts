import { z } from 'zod'
import { isCalendarDay as isDay } from '#api/http/validate.ts'
import { defaultTarget, targets } from './buckets.ts'
import { reportHours, reportTables } from './json.ts'

/** The longest custom range: a year and a day (a leap year's). */
export const maximumDays = 366

// PostgreSQL has no year 0, and the period before a range is read too: a report starts in 1970 at the earliest.
const earliestDay = '1970-01-01'
const day = z
	.string()
	.refine(isDay, 'api:reports.invalidDay')
	.refine((value) => !isDay(value) || value >= earliestDay, 'api:reports.dayTooEarly')
const optionalId = z
	.string()
	.trim()
	.transform((value) => value || undefined)
	.pipe(z.string().uuid().optional())
	.optional()

/** `GET …/reports`: a preset range or `custom` with `from` and `to` (days in the workspace's time zone), the filters, the target. */
export const reportQuery = z
	.object({
		preset: z.enum(['today', '7d', '30d', 'month', 'custom']).default('7d'),
		from: day.optional(),
		to: day.optional(),
		channelId: optionalId,
		agentId: optionalId,
		labelId: optionalId,
		teamId: optionalId,
		target: z.coerce
			.number()
			.int()
			.refine((value) => (targets as readonly number[]).includes(value), 'api:reports.invalidTarget')
			.default(defaultTarget),
		/** Durations (first response, resolution) in calendar time, or in the business hours' open time. */
		hours: z.enum(reportHours).default('calendar'),
	})
	.superRefine((query, context) => {
		if (query.preset !== 'custom') return
		if (!query.from) context.addIssue({ code: 'custom', path: ['from'], message: 'api:validation.required' })
		if (!query.to) context.addIssue({ code: 'custom', path: ['to'], message: 'api:validation.required' })
		if (!query.from || !query.to || !isDay(query.from) || !isDay(query.to)) return
		const days = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 + 1
		if (days < 1) context.addIssue({ code: 'custom', path: ['to'], message: 'api:reports.toBeforeFrom' })
		else if (days > maximumDays) context.addIssue({ code: 'custom', path: ['to'], message: 'api:reports.rangeTooLong' })
	})

export type ReportQuery = z.output<typeof reportQuery>

/** A table of the report, or the satisfaction surveys' (api/reports/satisfaction.ts). */
export const exportQuery = z.object({ table: z.enum([...reportTables, 'satisfaction']) }).passthrough()
