import { describe, expect, test } from 'vitest'
import { formatChange, formatCount, formatDay, formatDuration, formatHour, formatShare, trendOf, weekdayNames } from './format.ts'

describe('report formats', () => {
	test('durations read as people say them, in their two largest units', () => {
		expect(formatDuration('en-US', 0)).toBe('0 sec')
		expect(formatDuration('en-US', 45)).toBe('45 sec')
		expect(formatDuration('en-US', 12 * 60 + 20)).toBe('12 min')
		expect(formatDuration('en-US', 3_600 + 5 * 60)).toBe('1 hr, 5 min')
		expect(formatDuration('en-US', 2 * 3_600)).toBe('2 hr')
		expect(formatDuration('en-US', 2 * 86_400 + 3 * 3_600)).toBe('2 days, 3 hr')
		// 59 min 50 s rounds to the hour it nearly is, not "0 hr, 60 min".
		expect(formatDuration('en-US', 3_590)).toBe('60 min')
		expect(formatDuration('en-US', 3 * 3_600 + 59 * 60 + 50)).toBe('4 hr')
	})

	test('durations and numbers are localised', () => {
		expect(formatDuration('ar-EG', 2 * 3_600)).toMatch(/[\u0660-\u0669]/)
		expect(formatDuration('fr', 3_600 + 5 * 60)).toMatch(/1\sh.*5\smin/)
		expect(formatCount('ar-EG', 12)).toBe('١٢')
		expect(formatShare('en-US', 0.874)).toBe('87%')
	})

	test('a change against the previous period, or none to show', () => {
		expect(formatChange('en-US', 12, 10)).toBe('+20%')
		expect(formatChange('en-US', 5, 10)).toBe('-50%')
		expect(formatChange('en-US', 10, 10)).toBe('0%')
		expect(formatChange('en-US', 3, 0)).toBeNull()
		expect(formatChange('en-US', null, 4)).toBeNull()
		expect(trendOf(3, 4)).toBe('down')
		expect(trendOf(4, 4)).toBe('same')
		expect(trendOf(4, null)).toBeNull()
	})

	test('days are the workspace’s own, whatever the server’s zone', () => {
		expect(formatDay('en-US', '2025-03-04')).toBe('Mar 4')
		expect(formatDay('en-US', '2025-12-31', { year: true })).toBe('Dec 31, 2025')
		expect(weekdayNames('en-US')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'])
		expect(formatHour('en-US', 15)).toBe('3 PM')
		expect(weekdayNames('ar-EG')[0]).toMatch(/[\u0600-\u06FF]/)
	})
})
