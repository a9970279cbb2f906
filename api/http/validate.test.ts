import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { translatorFor } from './i18n.ts'
import { fieldErrors, isCalendarDay } from './validate.ts'

const schema = z
	.object({
		name: z.string().min(2).max(5),
		email: z.string().email(),
		role: z.enum(['owner', 'admin', 'agent']),
		page: z.number().int().max(100),
	})
	.strict()

describe('validation messages', () => {
	test('each field gets a translated message', () => {
		const result = schema.safeParse({ name: 'a', email: 'nope', role: 'boss', page: 500, extra: 1 })
		expect(result.success).toBe(false)
		if (result.success) return
		expect(fieldErrors(translatorFor('en-us'), result.error)).toEqual({
			name: ['Must be at least 2 characters.'],
			email: ['Enter a valid e-mail address.'],
			role: ['Choose one of: owner, admin, agent.'],
			page: ['Must be at most 100.'],
			_: ['Unknown field: extra.'],
		})
		const french = fieldErrors(translatorFor('fr-x'), result.error)
		expect(french.name).toEqual(['Au moins 2 caractères.'])
		expect(fieldErrors(translatorFor('ar-eg'), result.error).email).toEqual(['أدخل عنوان بريد إلكتروني صالحًا.'])
	})

	test('a missing field is required, a wrong type is invalid', () => {
		const result = schema.safeParse({ name: 12 })
		if (result.success) throw new Error('expected failure')
		const fields = fieldErrors(translatorFor('en-us'), result.error)
		expect(fields.name).toEqual(['This value is not valid.'])
		expect(fields.email).toEqual(['This field is required.'])
	})
})

describe('isCalendarDay', () => {
	test.for(['2026-02-28', '2024-02-29', '1970-01-01', '0000-01-01'])('%s is a day', (value) => expect(isCalendarDay(value)).toBe(true))
	test.for(['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-01-00', '0000-00-00', '2026-1-1', '2026-01-01T00:00', ''])(
		'%s is not, and is said so without throwing',
		(value) => expect(isCalendarDay(value)).toBe(false),
	)
})

describe('fieldErrors of fields named like what every object has', () => {
	test('constructor, toString and __proto__ are fields like any other', () => {
		const record = z.record(z.string().max(1))
		const result = record.safeParse(JSON.parse('{"constructor": "long", "toString": "long", "__proto__": "long"}'))
		expect(result.success).toBe(false)
		const fields = fieldErrors(translatorFor('en-us'), (result as z.SafeParseError<unknown>).error)
		expect(Object.keys(fields).sort()).toEqual(['__proto__', 'constructor', 'toString'])
		expect(JSON.parse(JSON.stringify(fields)).__proto__).toHaveLength(1)
	})
})
