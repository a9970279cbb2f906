import { z } from 'zod'
import { paginationQuery } from '#api/http/pagination.ts'
import { isCalendarDay } from '#api/http/validate.ts'
import { auditKinds } from './record.ts'

const isDay = (value: string) => isCalendarDay(value) && value >= '1970-01-01'

// A GET form sends every field, the empty ones too: empty means "any".
const blank = (value: unknown) => (value === '' ? undefined : value)
const day = z.preprocess(blank, z.string().refine(isDay, 'api:audit.invalidDay').optional())

/** `GET …/audit-log`: the newest first, by person, kind and days (in the workspace's time zone), a page at a time or all as CSV. */
export const auditLogQuery = paginationQuery
	.extend({
		actorId: z.preprocess(blank, z.string().trim().uuid('api:audit.invalidActor').optional()),
		kind: z.preprocess(
			blank,
			z
				.enum(auditKinds, {
					errorMap: () => ({ message: 'api:audit.invalidKind' }),
				})
				.optional(),
		),
		from: day,
		to: day,
		format: z.preprocess(blank, z.enum(['json', 'csv']).default('json')),
	})
	.superRefine((query, context) => {
		if (query.from && query.to && query.to < query.from)
			context.addIssue({
				code: 'custom',
				path: ['to'],
				message: 'api:audit.toBeforeFrom',
			})
	})

export type AuditLogQuery = z.output<typeof auditLogQuery>
