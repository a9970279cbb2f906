import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { ChannelsChart, ConversationsChart, DataTable, durationAxis, FirstResponseChart, HeatmapChart, spread, type ChartText } from './charts.tsx'
import { sampleReport } from './sample.ts'

const report = sampleReport()
const text = (rtl = false): ChartText => ({
	id: 'chart',
	title: 'Conversations per day',
	description: '42 opened, 30 resolved',
	lang: rtl ? 'ar-EG' : 'en-US',
	rtl,
})

/** The markup as a document, to ask it questions. */
function render(element: React.ReactElement) {
	const html = renderToStaticMarkup(element)
	const attributes = (selector: RegExp) => [...html.matchAll(selector)].map((match) => match.slice(1))
	return { html, attributes }
}

/** The x of each bar of a series, in the order of the days. */
function barsOf(html: string, series: string) {
	return [...html.matchAll(new RegExp(`<rect[^>]*data-series="${series}"[^>]*data-day="([^"]+)"[^>]*x="([\\d.]+)"`, 'g'))].map((match) => ({
		day: match[1],
		x: Number(match[2]),
	}))
}

describe('report charts', () => {
	test('each chart is an image named by its title and described by its summary', () => {
		for (const chart of [
			<ConversationsChart key="a" text={text()} series={report.daily} />,
			<FirstResponseChart key="b" text={text()} series={report.daily} />,
			<ChannelsChart key="c" text={text()} channels={report.channels} />,
			<HeatmapChart key="d" text={text()} heatmap={report.heatmap} />,
		]) {
			const { html } = render(chart)
			expect(html).toMatch(/^<svg role="img" aria-labelledby="chart-title chart-desc"/)
			expect(html).toContain('<title id="chart-title">Conversations per day</title>')
			expect(html).toContain('<desc id="chart-desc">42 opened, 30 resolved</desc>')
			// The theme's colours, never a fixed one.
			expect(html).toContain('var(--color-')
			expect(html).not.toMatch(/fill="#|fill="rgb|canvas/)
		}
	})

	test('conversations per day: two bars a day, as tall as their counts, days left to right', () => {
		const { html } = render(<ConversationsChart text={text()} series={report.daily} />)
		const opened = barsOf(html, 'opened')
		expect(opened.map((bar) => bar.day)).toEqual(report.daily.map((entry) => entry.day))
		expect(barsOf(html, 'resolved')).toHaveLength(7)
		expect(opened[0]!.x).toBeLessThan(opened[6]!.x)
		expect(html).toContain('>Mar 3<')
	})

	test('in Arabic the days run right to left and the labels are Arabic', () => {
		const { html } = render(<ConversationsChart text={text(true)} series={report.daily} />)
		const opened = barsOf(html, 'opened')
		expect(opened[0]!.x).toBeGreaterThan(opened[6]!.x)
		// "opened" is still first in reading order: to the right of "resolved" of the same day.
		const resolved = barsOf(html, 'resolved')
		expect(opened[0]!.x).toBeGreaterThan(resolved[0]!.x)
		expect(html).toMatch(/مارس/)
		expect(html).not.toContain('Mar 3')
	})

	test('first response: a point for each day that had one, the axis in durations', () => {
		const { html } = render(<FirstResponseChart text={text()} series={report.daily} />)
		expect(html.match(/<circle/g)).toHaveLength(6)
		expect(html).not.toContain('data-day="2025-03-05"')
		expect(html).toMatch(/>\d+ min</)
	})

	test('channels: a bar each, the busiest longest, names and counts written out', () => {
		const { html } = render(<ChannelsChart text={text()} channels={report.channels} />)
		const widths = [...html.matchAll(/<g data-channel="(\w+)">.*?<rect[^>]*width="([\d.]+)"/g)].map((match) => [match[1], Number(match[2])] as const)
		expect(widths.map(([id]) => id)).toEqual(['c1', 'c2'])
		expect(widths[0]![1]).toBeGreaterThan(widths[1]![1])
		expect(html).toContain('Website')
		expect(html).toContain('واتساب')
	})

	test('heat map: 7 × 24 cells, the busiest the darkest; hours run right to left in Arabic', () => {
		const ltr = render(<HeatmapChart text={text()} heatmap={report.heatmap} />).html
		expect(ltr.match(/data-hour=/g)).toHaveLength(168)
		const cell = (html: string, weekday: number, hour: number) => {
			// An empty cell has no opacity of its own.
			const match = new RegExp(`<rect data-weekday="${weekday}" data-hour="${hour}" data-count="(\\d+)" x="([\\d.]+)"(?:[^>]*fill-opacity="([\\d.]+)")?`).exec(
				html,
			)
			return { count: Number(match?.[1]), x: Number(match?.[2]), opacity: Number(match?.[3]) }
		}
		expect(cell(ltr, 0, 9)).toMatchObject({ count: 12, opacity: 1 })
		expect(cell(ltr, 4, 15).opacity).toBeLessThan(1)
		expect(cell(ltr, 0, 0)).toMatchObject({ count: 0, opacity: Number.NaN })
		expect(cell(ltr, 0, 0).x).toBeLessThan(cell(ltr, 0, 23).x)
		expect(ltr).toContain('>Mon<')
		const rtl = render(<HeatmapChart text={text(true)} heatmap={report.heatmap} />).html
		expect(cell(rtl, 0, 0).x).toBeGreaterThan(cell(rtl, 0, 23).x)
	})

	test('the data table says what the chart shows, row by row', () => {
		const { html } = render(
			<DataTable
				summary="Show the data"
				caption="Conversations per day"
				columns={['Day', 'Opened']}
				rows={report.daily.map((entry) => ({ key: entry.day, cells: [entry.day, entry.opened] }))}
			/>,
		)
		expect(html).toMatch(/^<details data-table="true"><summary>Show the data<\/summary>/)
		expect(html.match(/<th scope="row">/g)).toHaveLength(7)
		expect(html).toContain('<th scope="col">Opened</th>')
	})

	test('the waiting-time axis is marked at durations people name', () => {
		expect(durationAxis([0, 240, 420])).toEqual({ top: 600, ticks: [0, 120, 300, 600] })
		expect(durationAxis([3_900])).toEqual({ top: 7_200, ticks: [0, 1_800, 3_600, 7_200] })
		expect(durationAxis([])).toEqual({ top: 30, ticks: [0, 30] })
	})

	test('a long axis labels some of its values, evenly', () => {
		expect(spread([1, 2, 3], 7)).toEqual([1, 2, 3])
		expect(
			spread(
				Array.from({ length: 30 }, (_, index) => index),
				7,
			),
		).toEqual([0, 5, 10, 15, 20, 25])
	})
})
