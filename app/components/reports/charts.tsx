import { AxisBottom, AxisLeft, AxisRight, type TickFormatter } from '@visx/axis'
import { Group } from '@visx/group'
import { HeatmapRect } from '@visx/heatmap'
import { scaleBand, scaleLinear } from '@visx/scale'
import { Bar, LinePath } from '@visx/shape'
import { type ReactNode } from 'react'
import { type ReportJson } from '#app/utils/reports.ts'
import { formatCount, formatDay, formatDuration, formatHour, weekdayNames } from './format.ts'

/*
 * The reports' charts: SVG drawn on the server with visx, so they show without JavaScript. They
 * import no styles (unit tests render them as they are): colours are the theme's CSS variables
 * (app/styles/theme.css.ts), text and lines `currentColor` of the muted foreground. In a
 * right-to-left language every axis runs from the right, and the value axis stands on the right.
 */

/** A colour of the theme's contract: `--color-primary` and so on. */
export const themeColor = (name: 'primary' | 'success' | 'warning' | 'mutedForeground' | 'border' | 'muted' | 'foreground') => `var(--color-${name})`

export type ChartText = {
	/** The chart's id: its title and description are `{id}-title` and `{id}-desc`. */
	id: string
	title: string
	description: string
	/** The reader's language tag (en-US, ar-EG, fr) and whether it is written right to left. */
	lang: string
	rtl: boolean
}

const width = 640
const height = 240
const margin = { top: 12, bottom: 28, start: 64, end: 12 }
const innerWidth = width - margin.start - margin.end
const innerHeight = height - margin.top - margin.bottom

/** The SVG of every chart: an image named by its title and described by its summary. */
function ChartSvg({ text, viewHeight = height, children }: { text: ChartText; viewHeight?: number; children: ReactNode }) {
	return (
		<svg
			role="img"
			aria-labelledby={`${text.id}-title ${text.id}-desc`}
			viewBox={`0 0 ${width} ${viewHeight}`}
			width="100%"
			// Anchors below are physical (left, right): the text of a right-to-left page is still shaped right to left.
			style={{ direction: 'ltr', color: themeColor('mutedForeground'), maxInlineSize: '100%', blockSize: 'auto', overflow: 'visible' }}
			fontSize={13}
			data-chart={text.id}
		>
			<title id={`${text.id}-title`}>{text.title}</title>
			<desc id={`${text.id}-desc`}>{text.description}</desc>
			{children}
		</svg>
	)
}

/** The time (or category) axis across: left to right, or right to left. */
const across = (rtl: boolean): [number, number] => (rtl ? [innerWidth, 0] : [0, innerWidth])

/** At most `most` of the values, evenly spread, for the labels of a long axis. */
export function spread<T>(values: T[], most: number): T[] {
	if (values.length <= most) return values
	const step = Math.ceil(values.length / most)
	return values.filter((_, index) => index % step === 0)
}

// Durations people name: the waiting-time axis is marked at these (seconds), not at 1 000 s or 2 000 s.
const roundDurations = [30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 14_400, 28_800, 86_400, 172_800, 604_800, 2_592_000]

/** The top of a waiting-time axis (the first round duration above every value), marked at zero and the three round durations up to it. */
export function durationAxis(values: number[]): { top: number; ticks: number[] } {
	const most = Math.max(0, ...values)
	const top = roundDurations.find((duration) => duration >= most) ?? most
	return { top, ticks: [0, ...roundDurations.filter((duration) => duration <= top).slice(-3)] }
}

function ValueAxis({
	rtl,
	scale,
	format,
	ticks,
}: {
	rtl: boolean
	scale: ReturnType<typeof scaleLinear<number>>
	format: (value: number) => string
	ticks?: number[]
}) {
	const tickFormat: TickFormatter<unknown> = (value) => format(Number(value))
	const common = {
		scale,
		numTicks: 4,
		tickValues: ticks,
		stroke: 'currentColor',
		tickStroke: 'currentColor',
		tickFormat,
		hideAxisLine: true,
		tickLabelProps: { fill: 'currentColor', fontSize: 13, textAnchor: rtl ? ('start' as const) : ('end' as const) },
	}
	return rtl ? <AxisRight left={innerWidth} {...common} /> : <AxisLeft {...common} />
}

function DayAxis({ days, scale, lang }: { days: string[]; scale: ReturnType<typeof scaleBand<string>>; lang: string }) {
	return (
		<AxisBottom
			top={innerHeight}
			scale={scale}
			tickValues={spread(days, 7)}
			tickFormat={(day) => formatDay(lang, String(day))}
			stroke="currentColor"
			tickStroke="currentColor"
			tickLabelProps={{ fill: 'currentColor', fontSize: 13, textAnchor: 'middle' }}
		/>
	)
}

const niceMax = (values: number[]) => Math.max(1, ...values)

/** A length of the 640-unit drawing to a tenth: finer is invisible, and a year of shapes written to 16 digits doubles the page. */
const px = (value: number) => Math.round(value * 10) / 10

/** The days of a range, or its weeks under their first day. */
export type Series = ReportJson['daily']

/** Conversations opened and resolved per day (or week): two bars each, "opened" first in reading order. */
export function ConversationsChart({ text, series }: { text: ChartText; series: Series }) {
	const days = series.map((entry) => entry.day)
	const x = scaleBand({ domain: days, range: across(text.rtl), padding: 0.2 })
	const measures = ['opened', 'resolved'] as const
	const inner = scaleBand({ domain: [...measures], range: text.rtl ? [x.bandwidth(), 0] : [0, x.bandwidth()], padding: 0.05 })
	const y = scaleLinear({ domain: [0, niceMax(series.flatMap((entry) => [entry.opened, entry.resolved]))], range: [innerHeight, 0], nice: true })
	const fill = { opened: themeColor('primary'), resolved: themeColor('success') }
	return (
		<ChartSvg text={text}>
			<Group left={text.rtl ? margin.end : margin.start} top={margin.top}>
				<ValueAxis rtl={text.rtl} scale={y} format={(value) => formatCount(text.lang, value)} />
				{series.map((entry) =>
					measures.map((name) => {
						const barHeight = innerHeight - y(entry[name])
						return (
							<Bar
								key={`${entry.day}-${name}`}
								data-series={name}
								data-day={entry.day}
								x={px((x(entry.day) ?? 0) + (inner(name) ?? 0))}
								y={px(innerHeight - barHeight)}
								width={px(inner.bandwidth())}
								height={px(barHeight)}
								style={{ fill: fill[name] }}
							/>
						)
					}),
				)}
				<DayAxis days={days} scale={x} lang={text.lang} />
			</Group>
		</ChartSvg>
	)
}

/** The median first response of each day (or week), as a line; those without a first response leave a gap. */
export function FirstResponseChart({ text, series }: { text: ChartText; series: Series }) {
	const days = series.map((entry) => entry.day)
	const x = scaleBand({ domain: days, range: across(text.rtl), padding: 0.2 })
	const axis = durationAxis(series.map((entry) => entry.firstResponseMedian ?? 0))
	const y = scaleLinear({ domain: [0, axis.top], range: [innerHeight, 0] })
	const centre = (day: string) => (x(day) ?? 0) + x.bandwidth() / 2
	const known = series.filter((entry) => entry.firstResponseMedian !== null)
	return (
		<ChartSvg text={text}>
			<Group left={text.rtl ? margin.end : margin.start} top={margin.top}>
				<ValueAxis rtl={text.rtl} scale={y} format={(value) => formatDuration(text.lang, value)} ticks={axis.ticks} />
				<LinePath
					data={series}
					x={(entry) => centre(entry.day)}
					y={(entry) => y(entry.firstResponseMedian ?? 0)}
					defined={(entry) => entry.firstResponseMedian !== null}
					strokeWidth={2}
					style={{ stroke: themeColor('primary'), fill: 'none' }}
				/>
				{known.map((entry) => (
					<circle
						key={entry.day}
						data-day={entry.day}
						cx={px(centre(entry.day))}
						cy={px(y(entry.firstResponseMedian ?? 0))}
						r={3.5}
						style={{ fill: themeColor('primary') }}
					/>
				))}
				<DayAxis days={days} scale={x} lang={text.lang} />
			</Group>
		</ChartSvg>
	)
}

/** Conversations opened on each channel, busiest first, as bars across from the reading side. */
export function ChannelsChart({ text, channels }: { text: ChartText; channels: ReportJson['channels'] }) {
	const rowHeight = 28
	const nameWidth = 140
	const chartHeight = Math.max(1, channels.length) * rowHeight + margin.bottom
	const barsWidth = innerWidth - nameWidth + margin.start - 40
	const x = scaleLinear({ domain: [0, niceMax(channels.map((channel) => channel.opened))], range: [0, barsWidth] })
	const y = scaleBand({ domain: channels.map((channel) => channel.channelId), range: [0, channels.length * rowHeight], padding: 0.25 })
	// Names on the reading side, bars growing away from them, counts at the bars' ends.
	const start = text.rtl ? width - nameWidth : nameWidth
	return (
		<ChartSvg text={text} viewHeight={chartHeight}>
			<Group top={margin.top}>
				{channels.map((channel) => {
					const top = y(channel.channelId) ?? 0
					const length = x(channel.opened)
					const middle = top + y.bandwidth() / 2
					return (
						<g key={channel.channelId} data-channel={channel.channelId}>
							<text x={text.rtl ? width - 4 : 4} y={middle} dominantBaseline="middle" textAnchor={text.rtl ? 'end' : 'start'} fill="currentColor">
								{channel.name.length > 20 ? `${channel.name.slice(0, 19)}…` : channel.name}
							</text>
							<Bar x={text.rtl ? start - length - 8 : start + 8} y={top} width={length} height={y.bandwidth()} style={{ fill: themeColor('primary') }} />
							<text
								x={text.rtl ? start - length - 12 : start + length + 12}
								y={middle}
								dominantBaseline="middle"
								textAnchor={text.rtl ? 'end' : 'start'}
								fill="currentColor"
							>
								{formatCount(text.lang, channel.opened)}
							</text>
						</g>
					)
				})}
			</Group>
		</ChartSvg>
	)
}

const hours = Array.from({ length: 24 }, (_, hour) => hour)

/** Incoming messages by weekday (rows, Monday first) and hour (columns, from the reading side): the darker, the busier. */
export function HeatmapChart({ text, heatmap }: { text: ChartText; heatmap: ReportJson['heatmap'] }) {
	const labelWidth = 48
	const cell = (width - labelWidth - 8) / 24
	const chartHeight = cell * 7 + 24
	const busiest = Math.max(1, ...heatmap.flat())
	const columns = hours.map((hour) => ({ hour, bins: heatmap.map((row, weekday) => ({ weekday, count: row[hour] ?? 0 })) }))
	const gridStart = text.rtl ? 8 : labelWidth
	const columnX = (index: number) => gridStart + (text.rtl ? 23 - index : index) * cell
	const names = weekdayNames(text.lang)
	return (
		<ChartSvg text={text} viewHeight={chartHeight}>
			{names.map((name, weekday) => (
				<text key={name} x={text.rtl ? width - 4 : labelWidth - 6} y={weekday * cell + cell / 2} dominantBaseline="middle" textAnchor="end" fill="currentColor">
					{name}
				</text>
			))}
			<HeatmapRect
				data={columns}
				bins={(column) => column.bins}
				count={(bin) => bin.count}
				xScale={columnX}
				yScale={(row) => row * cell}
				binWidth={cell}
				binHeight={cell}
				gap={2}
			>
				{(grid) => (
					// The cells take the group's colour; an empty one its own.
					<g style={{ fill: themeColor('primary') }}>
						{grid.flatMap((column) =>
							column.map((bin) => (
								<rect
									key={`${bin.row}-${bin.column}`}
									data-weekday={bin.row}
									data-hour={bin.column}
									data-count={bin.count ?? 0}
									x={px(bin.x)}
									y={px(bin.y)}
									width={px(bin.width)}
									height={px(bin.height)}
									rx={2}
									style={(bin.count ?? 0) > 0 ? undefined : { fill: themeColor('muted') }}
									fillOpacity={(bin.count ?? 0) > 0 ? Math.round(15 + (85 * (bin.count ?? 0)) / busiest) / 100 : undefined}
								/>
							)),
						)}
					</g>
				)}
			</HeatmapRect>
			{hours
				.filter((hour) => hour % 3 === 0)
				.map((hour) => (
					<text key={hour} x={columnX(hour) + cell / 2} y={cell * 7 + 14} textAnchor="middle" fill="currentColor">
						{formatHour(text.lang, hour)}
					</text>
				))}
		</ChartSvg>
	)
}

/** A chart's numbers as a table, for those who cannot see it (and to read exact values), behind a disclosure. */
export function DataTable({
	summary,
	caption,
	columns,
	rows,
}: {
	summary: string
	caption: string
	columns: string[]
	rows: Array<{ key: string; cells: ReactNode[] }>
}) {
	return (
		<details data-table>
			<summary>{summary}</summary>
			<Table caption={caption} columns={columns} rows={rows} />
		</details>
	)
}

/** A plain table: the first cell of a row is its header. */
export function Table({
	caption,
	columns,
	rows,
	captionHidden = true,
}: {
	caption: string
	columns: string[]
	rows: Array<{ key: string; cells: ReactNode[] }>
	captionHidden?: boolean
}) {
	return (
		// Focusable: a table wider than the screen scrolls sideways, and a keyboard scrolls it once it has the focus.
		<div data-table-wrapper tabIndex={0}>
			<table>
				<caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
				<thead>
					<tr>
						{columns.map((column) => (
							<th key={column} scope="col">
								{column}
							</th>
						))}
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr key={row.key}>
							{row.cells.map((cell, index) =>
								index === 0 ? (
									<th key={index} scope="row">
										{cell}
									</th>
								) : (
									<td key={index}>{cell}</td>
								),
							)}
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}
