import { type Request } from 'express'
import { type TFunction } from 'i18next'
import { type z } from 'zod'
import { HttpError } from './errors.ts'

const namespacedKey = /^[a-z]+:[A-Za-z.]+$/

/** Translates one zod issue into the user's language. Custom messages are translation keys. */
export function issueMessage(t: TFunction<'api'>, issue: z.ZodIssue): string {
	// A schema shared with the pages says its own message as a namespaced key (`automation:errors.noAction`), whatever the issue.
	if (namespacedKey.test(issue.message)) return t(issue.message)
	switch (issue.code) {
		case 'invalid_type':
			return t(issue.received === 'undefined' || issue.received === 'null' ? 'validation.required' : 'validation.invalid')
		case 'too_small':
			if (issue.type === 'string') return t('validation.tooShort', { minimum: Number(issue.minimum), count: Number(issue.minimum) })
			return t('validation.tooSmall', { minimum: Number(issue.minimum) })
		case 'too_big':
			if (issue.type === 'string') return t('validation.tooLong', { maximum: Number(issue.maximum), count: Number(issue.maximum) })
			return t('validation.tooBig', { maximum: Number(issue.maximum) })
		case 'invalid_string':
			if (issue.validation === 'email') return t('validation.email')
			return t(issue.message.includes('.') ? issue.message : 'validation.invalid')
		case 'invalid_enum_value':
			return t('validation.choice', { options: issue.options.join(', ') })
		case 'unrecognized_keys':
			return t('validation.unknownField', { keys: issue.keys.join(', ') })
		case 'custom':
			return t(issue.message)
		default:
			return t('validation.invalid')
	}
}

/** Field path → messages, the shape forms understand (conform's `submission.reply({ fieldErrors })`). */
export function fieldErrors(t: TFunction<'api'>, error: z.ZodError): Record<string, string[]> {
	// A Map, then own properties: a field may be named `constructor` or `__proto__` (a record's key).
	const fields = new Map<string, string[]>()
	for (const issue of error.issues) {
		const key = issue.path.join('.') || '_'
		fields.set(key, [...(fields.get(key) ?? []), issueMessage(t, issue)])
	}
	return Object.fromEntries(fields)
}

type Source = 'body' | 'query' | 'params'

/** Parses part of a request with a zod schema, or throws a translated 400 with each field's messages. */
export function parseRequest<Schema extends z.ZodTypeAny>(req: Request, source: Source, schema: Schema): z.output<Schema> {
	const result = schema.safeParse(req[source])
	if (result.success) return result.data
	throw new HttpError(400, 'errors.validation', {
		details: { source, fields: fieldErrors(req.t, result.error) },
	})
}

/**
 * A real day of the calendar, `YYYY-MM-DD`: not the 30th of February, which Date would roll over,
 * nor a 13th month or a 0th day, which it cannot read at all.
 */
export function isCalendarDay(value: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
	const time = Date.parse(`${value}T00:00:00Z`)
	return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value)
}
