import { describe, expect, test } from 'vitest'
import { figuresOf } from './figures.ts'
import { sampleReport } from './sample.ts'

describe('figure cards', () => {
	const figures = Object.fromEntries(figuresOf(sampleReport(), 'en-US').map((figure) => [figure.key, figure]))

	test('counts with their change against the previous period', () => {
		expect(figures.opened).toEqual({ key: 'opened', value: '42', previous: '35', change: '+20%', good: null })
		expect(figures.resolved).toMatchObject({ value: '30', change: '0%', good: null })
		// Nothing before: no percentage to show, the previous value still is.
		expect(figures.messagesOut).toMatchObject({ value: '95', previous: '0', change: null })
	})

	test('open now is live: no previous period', () => {
		expect(figures.openNow).toEqual({ key: 'openNow', value: '7', previous: null, change: null, good: null })
	})

	test('waiting times: shorter is better, formatted as durations; none is no value', () => {
		expect(figures.firstResponseMedian).toMatchObject({ value: '4 min', previous: '5 min', change: '-20%', good: true })
		expect(figures.firstResponseP90).toMatchObject({ value: '1 hr, 5 min', good: true })
		expect(figures.resolutionMedian).toMatchObject({ value: '2 hr', previous: null, change: null, good: null })
		expect(figures.answeredWithinTarget).toMatchObject({ value: '60%', previous: '50%', good: true })
	})

	test('in Arabic the numbers are Arabic', () => {
		const [opened] = figuresOf(sampleReport(), 'ar-EG')
		expect(opened?.value).toBe('٤٢')
	})
})
