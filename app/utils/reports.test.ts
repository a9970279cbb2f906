import { describe, expect, test } from 'vitest'
import { reportApiQuery, reportQuery, reportSearch, shownValue } from './reports.ts'

describe('the reports’ query', () => {
	test('defaults to the last seven days; an unknown preset is the default', () => {
		expect(reportQuery(new URLSearchParams()).preset).toBe('7d')
		expect(reportQuery(new URLSearchParams('preset=year')).preset).toBe('7d')
	})

	test('the custom dates’ button (sent after the select) makes the range custom', () => {
		const query = reportQuery(new URLSearchParams('preset=30d&from=2025-01-01&to=2025-01-31&preset=custom'))
		expect(query).toMatchObject({ preset: 'custom', from: '2025-01-01', to: '2025-01-31' })
		expect(reportApiQuery(query)).toMatchObject({ preset: 'custom', from: '2025-01-01', to: '2025-01-31' })
	})

	test('dates only go to the API with a custom range; empty filters not at all', () => {
		const query = reportQuery(new URLSearchParams('preset=30d&from=2025-01-01&to=&channelId=&labelId=l1'))
		expect(reportSearch(query, { table: 'daily' })).toBe('?table=daily&preset=30d&labelId=l1')
	})

	test('the team filter is kept in the URL and goes to the API, and to the exports', () => {
		const query = reportQuery(new URLSearchParams('preset=7d&teamId=t1&channelId='))
		expect(query.teamId).toBe('t1')
		expect(reportApiQuery(query)).toMatchObject({ teamId: 't1', channelId: undefined })
		expect(reportSearch(query, { table: 'teams' })).toBe('?table=teams&preset=7d&teamId=t1')
	})

	test('business hours go to the API and the exports; calendar time, the default, is left out', () => {
		expect(reportSearch(reportQuery(new URLSearchParams('preset=7d&hours=business')), { table: 'agents' })).toBe('?table=agents&preset=7d&hours=business')
		expect(reportApiQuery(reportQuery(new URLSearchParams('preset=7d&hours=calendar'))).hours).toBeUndefined()
		expect(reportApiQuery(reportQuery(new URLSearchParams('preset=7d&hours=weekly'))).hours).toBeUndefined()
	})

	describe('sent from the page, which says what it showed', () => {
		const shown = shownValue('7d', '2025-01-01', '2025-01-07')
		const sent = (fields: string) => reportQuery(new URLSearchParams(`${fields}&shown=${encodeURIComponent(shown)}`))

		test('dates typed under a named period make a custom range', () => {
			expect(sent('preset=7d&from=2024-12-01&to=2024-12-31')).toMatchObject({ preset: 'custom', from: '2024-12-01', to: '2024-12-31' })
			// One end cleared: custom still, for the API to say which date is missing.
			expect(sent('preset=7d&from=2025-01-01&to=')).toMatchObject({ preset: 'custom', from: '2025-01-01', to: '' })
		})

		test('another period chosen is that period, whatever the dates say', () => {
			expect(sent('preset=30d&from=2025-01-01&to=2025-01-07')).toMatchObject({ preset: '30d', from: '', to: '' })
			expect(sent('preset=today&from=2024-12-01&to=2024-12-31')).toMatchObject({ preset: 'today', from: '', to: '' })
		})

		test('nothing changed (another filter applied) keeps the period, not its old dates', () => {
			expect(sent('preset=7d&from=2025-01-01&to=2025-01-07&channelId=c1')).toMatchObject({ preset: '7d', from: '', to: '', channelId: 'c1' })
		})

		test('custom chosen in the select keeps the dates shown', () => {
			expect(sent('preset=custom&from=2025-01-01&to=2025-01-07')).toMatchObject({ preset: 'custom', from: '2025-01-01', to: '2025-01-07' })
		})
	})

	test('a link without `shown` reads dates only with a custom range', () => {
		expect(reportQuery(new URLSearchParams('preset=30d&from=2025-01-01&to=2025-01-31'))).toMatchObject({ preset: '30d', from: '', to: '' })
	})
})
