import { describe, expect, test } from 'vitest'
import { retryAfterMs, retryDelayMs } from './push.ts'

describe('retries of a push the service could not take now', () => {
	test('Retry-After in seconds or as an HTTP date', () => {
		const now = Date.parse('2026-11-28T10:00:00Z')
		expect(retryAfterMs('30', now)).toBe(30_000)
		expect(retryAfterMs(['5'], now)).toBe(5000)
		expect(retryAfterMs('Sat, 28 Nov 2026 10:02:00 GMT', now)).toBe(120_000)
		expect(retryAfterMs('Sat, 28 Nov 2026 09:00:00 GMT', now)).toBe(0)
		expect(retryAfterMs('soon', now)).toBeUndefined()
		expect(retryAfterMs(undefined, now)).toBeUndefined()
	})

	test('what the service asked for (at most 6 hours), else a growing backoff up to an hour', () => {
		expect(retryDelayMs(1, 1000)).toBe(1000)
		expect(retryDelayMs(3, 0)).toBe(0)
		expect(retryDelayMs(1, 24 * 60 * 60 * 1000)).toBe(6 * 60 * 60 * 1000)
		expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelayMs(attempt, undefined))).toEqual([
			10_000, 40_000, 160_000, 640_000, 2_560_000, 3_600_000, 3_600_000,
		])
	})
})
