import { describe, expect, test } from 'vitest'
import { reportApiQuery, reportQuery, reportSearch } from './reports.ts'

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
})
