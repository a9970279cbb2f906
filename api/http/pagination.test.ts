import { describe, expect, test } from 'vitest'
import { fieldErrors } from './validate.ts'
import { translatorFor } from './i18n.ts'
import { containsPattern, listQuery, offsetOf, paginationQuery } from './pagination.ts'

function errorsOf(query: Record<string, unknown>) {
	const result = listQuery.safeParse(query)
	if (result.success) throw new Error(`expected ${JSON.stringify(query)} to fail`)
	return fieldErrors(translatorFor('en-us'), result.error)
}

describe('paginationQuery', () => {
	test('defaults to page 1 of 10, and empty parameters count as absent', () => {
		expect(paginationQuery.parse({})).toEqual({ page: 1, limit: 10 })
		expect(paginationQuery.parse({ page: '', limit: '' })).toEqual({ page: 1, limit: 10 })
		expect(paginationQuery.parse({ page: '3', limit: '100' })).toEqual({ page: 3, limit: 100 })
	})

	test('refuses page 0, a limit over 100, fractions and words with translated messages', () => {
		expect(errorsOf({ page: '0' })).toEqual({ page: ['Must be at least 1.'] })
		expect(errorsOf({ limit: '1000' })).toEqual({ limit: ['Must be at most 100.'] })
		expect(errorsOf({ limit: '0' })).toEqual({ limit: ['Must be at least 1.'] })
		expect(errorsOf({ page: 'two', limit: '1.5' })).toEqual({ page: ['This value is not valid.'], limit: ['This value is not valid.'] })
		expect(errorsOf({ page: ['1', '2'] })).toEqual({ page: ['This value is not valid.'] })
		// An offset past PostgreSQL's bigint was a 500 (found by the route fuzzing).
		expect(errorsOf({ page: '99999999999999999999999' })).toEqual({ page: ['Must be at most 1000000.'] })
	})

	test('counts the rows to skip', () => {
		expect(offsetOf({ page: 1, limit: 10 })).toBe(0)
		expect(offsetOf({ page: 3, limit: 25 })).toBe(50)
	})
})

describe('listQuery search', () => {
	test('is trimmed, and blank means no search', () => {
		expect(listQuery.parse({ search: '  café ' }).search).toBe('café')
		expect(listQuery.parse({ search: '   ' }).search).toBeUndefined()
	})

	test('containsPattern takes LIKE wildcards literally', () => {
		expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%')
		expect(containsPattern('plain')).toBe('%plain%')
	})
})
