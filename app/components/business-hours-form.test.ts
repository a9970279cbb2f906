import { describe, expect, test } from 'vitest'
import { businessHoursSchema, defaultBusinessHours } from '#common/business-hours.ts'
import { formFieldOf, hoursOfValues, valuesOfForm, valuesOfHours } from './business-hours-form.ts'

const form = (entries: Record<string, string>) => {
	const data = new FormData()
	for (const [name, value] of Object.entries(entries)) data.append(name, value)
	return data
}

describe('the business-hours form', () => {
	test('reads what was posted: off is always open, a closed day has no ranges, an empty range is left out, holidays one a line', () => {
		expect(hoursOfValues(valuesOfForm(form({ 'days.0.open': 'on', 'days.0.0.from': '09:00', 'days.0.0.to': '17:00' })))).toBeNull()
		const posted = form({
			open: 'on',
			'days.0.open': 'on',
			'days.0.0.from': '09:00',
			'days.0.0.to': '12:00',
			'days.0.1.from': '14:00',
			'days.0.1.to': '18:00',
			'days.1.open': 'on',
			'days.1.0.from': '10:00',
			'days.1.0.to': '16:00',
			'days.2.0.from': '10:00',
			'days.2.0.to': '16:00',
			holidays: '2026-12-25\r\n 2026-01-01 \n',
		})
		const hours = businessHoursSchema.parse(hoursOfValues(valuesOfForm(posted)))
		expect(hours).toEqual({
			days: [
				[
					{ from: '09:00', to: '12:00' },
					{ from: '14:00', to: '18:00' },
				],
				[{ from: '10:00', to: '16:00' }],
				[],
				[],
				[],
				[],
				[],
			],
			holidays: ['2026-01-01', '2026-12-25'],
		})
	})

	test('shows stored hours, or the default ones when off, and names the field of an API path', () => {
		const values = valuesOfHours(null, defaultBusinessHours)
		expect(values.open).toBe(false)
		expect(values.days[0]).toEqual({
			open: true,
			ranges: [
				{ from: '09:00', to: '17:00' },
				{ from: '', to: '' },
			],
		})
		expect(values.days[6]!.open).toBe(false)
		expect(formFieldOf('businessHours.days.0.1.from')).toBe('days.0.1.from')
		expect(formFieldOf('businessHours.holidays.3')).toBe('holidays')
		expect(formFieldOf('businessHours')).toBe('open')
	})
})
