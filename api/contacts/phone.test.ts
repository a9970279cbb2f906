import { describe, expect, test } from 'vitest'
import { normalizePhone } from './phone.ts'

describe('normalizePhone', () => {
	test.each([
		['+20 10 1234 5678', undefined, '+201012345678'],
		['0020 10 1234 5678', undefined, '+201012345678'],
		['010 1234 5678', 'EG', '+201012345678'],
		['06 12 34 56 78', 'FR', '+33612345678'],
		['+33 (0)6 12-34-56-78', 'EG', '+33612345678'],
		['+1 415 555 2671', undefined, '+14155552671'],
	] as const)('%s (%s) → %s', (input, country, expected) => {
		expect(normalizePhone(input, country)).toBe(expected)
	})

	test.each([['010 1234 5678'], ['12345'], ['+20101234567'], ['call me'], ['']])('%s is not a number', (input) => {
		expect(normalizePhone(input)).toBeUndefined()
	})
})
