import { describe, expect, test } from 'vitest'
import { contactQuery, formatAttributes, parseAttributes } from './contacts.ts'

describe('contact attributes as lines', () => {
	test('round trip, with colons in values and Arabic keys', () => {
		const attributes = { plan: 'Pro', المدينة: 'القاهرة', url: 'https://example.com:8443/x' }
		expect(parseAttributes(formatAttributes(attributes))).toEqual(attributes)
	})

	test('blank lines are skipped; a line without a key is refused', () => {
		expect(parseAttributes('\n a : b \n\n')).toEqual({ a: 'b' })
		expect(parseAttributes('no separator')).toBeNull()
		expect(parseAttributes(': no key')).toBeNull()
	})
})

describe('contactQuery', () => {
	test('defaults: by name A→Z, dates newest first', () => {
		expect(contactQuery(new URLSearchParams(''))).toMatchObject({ sort: 'name', direction: 'asc' })
		expect(contactQuery(new URLSearchParams('sort=created'))).toMatchObject({ sort: 'created', direction: 'desc' })
		expect(contactQuery(new URLSearchParams('sort=evil&direction=up'))).toMatchObject({ sort: 'name', direction: 'asc' })
	})
})
