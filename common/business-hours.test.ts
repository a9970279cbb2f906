import { describe, expect, test } from 'vitest'
import { businessHoursSchema, businessSeconds, closedPeriodStart, defaultBusinessHours, isOpen, nextOpening, type BusinessHours } from './business-hours.ts'

// Paris moves to summer time on Sunday 29 March 2026 (02:00 → 03:00) and back on Sunday 25 October.
const zone = 'Europe/Paris'
const weekdays: BusinessHours = defaultBusinessHours
const at = (iso: string) => new Date(iso)

describe('business hours in a time zone', () => {
	test('open from 09:00 to 17:00 on weekdays, closed at the weekend', () => {
		// Friday 27 March, winter time (UTC+1).
		expect(isOpen(weekdays, zone, at('2026-03-27T07:59:59Z'))).toBe(false)
		expect(isOpen(weekdays, zone, at('2026-03-27T08:00:00Z'))).toBe(true)
		expect(isOpen(weekdays, zone, at('2026-03-27T15:59:59Z'))).toBe(true)
		expect(isOpen(weekdays, zone, at('2026-03-27T16:00:00Z'))).toBe(false)
		expect(isOpen(weekdays, zone, at('2026-03-28T10:00:00Z'))).toBe(false)
		// Monday 30 March, summer time (UTC+2): 09:00 is an hour earlier in UTC.
		expect(isOpen(weekdays, zone, at('2026-03-30T06:59:59Z'))).toBe(false)
		expect(isOpen(weekdays, zone, at('2026-03-30T07:00:00Z'))).toBe(true)
		expect(isOpen(null, zone, at('2026-03-28T10:00:00Z'))).toBe(true)
	})

	test('the next opening and the closed period across the spring change', () => {
		const fridayEvening = at('2026-03-27T18:00:00Z')
		expect(nextOpening(weekdays, zone, fridayEvening)?.toISOString()).toBe('2026-03-30T07:00:00.000Z')
		expect(closedPeriodStart(weekdays, zone, fridayEvening)?.toISOString()).toBe('2026-03-27T16:00:00.000Z')
		// The same period all weekend, a new one on Monday evening.
		expect(closedPeriodStart(weekdays, zone, at('2026-03-30T06:00:00Z'))?.toISOString()).toBe('2026-03-27T16:00:00.000Z')
		expect(closedPeriodStart(weekdays, zone, at('2026-03-30T16:00:00Z'))?.toISOString()).toBe('2026-03-30T15:00:00.000Z')
		expect(closedPeriodStart(weekdays, zone, at('2026-03-30T08:00:00Z'))).toBeNull()
		// While open, the next opening is the next day's.
		expect(nextOpening(weekdays, zone, at('2026-03-30T08:00:00Z'))?.toISOString()).toBe('2026-03-31T07:00:00.000Z')
		expect(nextOpening(null, zone, fridayEvening)).toBeNull()
	})

	test('the autumn change: the Sunday has 25 hours, Monday opens at 09:00 winter time', () => {
		const always: BusinessHours = { days: Array.from({ length: 7 }, () => [{ from: '00:00', to: '24:00' }]), holidays: [] }
		expect(businessSeconds(always, zone, at('2026-10-24T22:00:00Z'), at('2026-10-25T23:00:00Z'))).toBe(25 * 3600)
		expect(nextOpening(weekdays, zone, at('2026-10-24T12:00:00Z'))?.toISOString()).toBe('2026-10-26T08:00:00.000Z')
	})

	test('open seconds between two moments', () => {
		// Friday 16:00 to Monday 10:00, Paris: an hour on Friday, an hour on Monday.
		expect(businessSeconds(weekdays, zone, at('2026-03-27T15:00:00Z'), at('2026-03-30T08:00:00Z'))).toBe(7200)
		expect(businessSeconds(null, zone, at('2026-03-27T15:00:00Z'), at('2026-03-27T16:00:00Z'))).toBe(3600)
		expect(businessSeconds(weekdays, zone, at('2026-03-28T10:00:00Z'), at('2026-03-28T12:00:00Z'))).toBe(0)
	})

	test('two ranges a day and holidays', () => {
		const split: BusinessHours = {
			days: Array.from({ length: 7 }, () => [
				{ from: '08:00', to: '12:00' },
				{ from: '14:00', to: '18:00' },
			]),
			holidays: ['2026-05-01'],
		}
		// Cairo, UTC+3 in May 2026.
		expect(isOpen(split, 'Africa/Cairo', at('2026-05-04T10:00:00Z'))).toBe(false)
		expect(isOpen(split, 'Africa/Cairo', at('2026-05-04T11:00:00Z'))).toBe(true)
		expect(isOpen(split, 'Africa/Cairo', at('2026-05-01T11:00:00Z'))).toBe(false)
		expect(closedPeriodStart(split, 'Africa/Cairo', at('2026-05-04T10:00:00Z'))?.toISOString()).toBe('2026-05-04T09:00:00.000Z')
		expect(nextOpening(split, 'Africa/Cairo', at('2026-04-30T16:00:00Z'))?.toISOString()).toBe('2026-05-02T05:00:00.000Z')
	})

	test('hours never open: the closed period is one, from the epoch', () => {
		const closed: BusinessHours = { days: Array.from({ length: 7 }, () => []), holidays: [] }
		expect(isOpen(closed, zone, at('2026-03-30T08:00:00Z'))).toBe(false)
		expect(nextOpening(closed, zone, at('2026-03-30T08:00:00Z'))).toBeNull()
		expect(closedPeriodStart(closed, zone, at('2026-03-30T08:00:00Z'))?.getTime()).toBe(0)
	})

	test('the schema refuses ranges out of order, overlapping, or three a day, and bad dates', () => {
		const monday = (ranges: Array<{ from: string; to: string }>, holidays: string[] = []) =>
			businessHoursSchema.safeParse({ days: [ranges, [], [], [], [], [], []], holidays })
		expect(monday([{ from: '09:00', to: '17:00' }]).success).toBe(true)
		expect(monday([{ from: '17:00', to: '09:00' }]).success).toBe(false)
		expect(monday([{ from: '9:00', to: '17:00' }]).success).toBe(false)
		expect(
			monday([
				{ from: '09:00', to: '13:00' },
				{ from: '12:00', to: '17:00' },
			]).success,
		).toBe(false)
		expect(
			monday([
				{ from: '08:00', to: '09:00' },
				{ from: '10:00', to: '11:00' },
				{ from: '12:00', to: '13:00' },
			]).success,
		).toBe(false)
		expect(monday([], ['2026-02-30']).success).toBe(false)
		expect(businessHoursSchema.parse({ days: weekdays.days, holidays: ['2026-12-25', '2026-01-01', '2026-12-25'] }).holidays).toEqual([
			'2026-01-01',
			'2026-12-25',
		])
	})
})
