import { useTranslation } from 'react-i18next'
import * as styles from '#app/routes/dashboard.css.ts'
import { drawnByWeek, rangeDays, reportSearch, type ReportJson, type ReportQuery, type ReportTable } from '#app/utils/reports.ts'
import { languageOf, type Locale } from '#locales/languages.ts'
import { ChartFrame, ExportLink } from './chart-frame.tsx'
import { ChannelsChart, ConversationsChart, FirstResponseChart, HeatmapChart, Table, type ChartText } from './charts.tsx'
import { FigureCards } from './figure-cards.tsx'
import { formatCount, formatDay, formatDuration, formatHour, weekdayNames } from './format.ts'
import * as reports from './reports.css.ts'

/** The period the report covers, in the workspace's time zone. */
export function ReportLead({ report }: { report: ReportJson }) {
	const { t, i18n } = useTranslation('reports')
	const lang = i18n.language
	return (
		<p className={styles.pageLead}>
			{t('lead', {
				from: formatDay(lang, report.range.from, { year: true }),
				to: formatDay(lang, report.range.to, { year: true }),
				timezone: report.timezone,
				days: formatCount(lang, rangeDays(report.range)),
				count: rangeDays(report.range),
			})}
		</p>
	)
}

/**
 * The report: its figures, its charts (each with its numbers as a table and its export), and the
 * agents' and teams' tables; `query` is what was asked, for the exports; an agent (not `manages`) sees their own.
 */
export function Report({ report, locale, query, manages }: { report: ReportJson; locale: Locale; query: ReportQuery; manages: boolean }) {
	const { t, i18n } = useTranslation('reports')
	const { t: commonT } = useTranslation()
	const lang = i18n.language
	const rtl = languageOf(locale).dir === 'rtl'
	const text = (id: string, title: string, description: string): ChartText => ({ id, title, description, lang, rtl })
	const day = (value: string) => formatDay(lang, value)
	const duration = (seconds: number | null) => (seconds === null ? '' : formatDuration(lang, seconds))
	const count = (value: number) => formatCount(lang, value)
	const exportHref = (table: ReportTable) => `/${locale}/dashboard/reports/export${reportSearch(query, { table })}`
	// A long range by week, each week under its first day (the charts' shape); its table names both ends.
	const byWeek = drawnByWeek(report.range)
	const series: ReportJson['daily'] = byWeek ? report.weekly.map(({ from, ...week }) => ({ day: from, ...week })) : report.daily
	const seriesTo = new Map(report.weekly.map((week) => [week.from, week.to]))
	const seriesName = (from: string) =>
		byWeek ? t('columns.weekRange', { from: formatDay(lang, from), to: formatDay(lang, seriesTo.get(from) ?? from) }) : formatDay(lang, from, { weekday: true })
	const seriesTable: ReportTable = byWeek ? 'weekly' : 'daily'
	const conversationsTitle = t(byWeek ? 'charts.conversations.titleWeekly' : 'charts.conversations.title')
	const firstResponseTitle = t(byWeek ? 'charts.firstResponse.titleWeekly' : 'charts.firstResponse.title')
	const seriesColumn = t(byWeek ? 'columns.week' : 'columns.day')

	const { figures } = report
	const medianFirst = figures.firstResponse.median
	const busiestChannel = report.channels[0]
	const weekdays = weekdayNames(lang, 'long')
	const busiestHour = report.heatmap
		.flatMap((row, weekday) => row.map((value, hour) => ({ weekday, hour, value })))
		.reduce<{ weekday: number; hour: number; value: number } | null>((best, cell) => (cell.value > (best?.value ?? 0) ? cell : best), null)

	return (
		<>
			<FigureCards report={report} />

			{byWeek ? <p className={reports.note}>{t('charts.byWeek')}</p> : null}
			<div className={reports.charts}>
				<ChartFrame
					id="chart-conversations"
					title={conversationsTitle}
					exportHref={exportHref(seriesTable)}
					legend={
						<ul className={reports.legend}>
							<li>
								<span className={`${reports.swatch} ${reports.opened}`} aria-hidden="true" />
								{t('charts.legend.opened')}
							</li>
							<li>
								<span className={`${reports.swatch} ${reports.resolved}`} aria-hidden="true" />
								{t('charts.legend.resolved')}
							</li>
						</ul>
					}
					chart={
						<ConversationsChart
							text={text(
								'chart-conversations',
								conversationsTitle,
								t('charts.conversations.description', {
									opened: count(figures.opened.value),
									resolved: count(figures.resolved.value),
									from: day(report.range.from),
									to: day(report.range.to),
								}),
							)}
							series={series}
						/>
					}
					table={{
						columns: [seriesColumn, t('columns.opened'), t('columns.resolved'), t('columns.messagesIn'), t('columns.messagesOut')],
						rows: series.map((entry) => ({
							key: entry.day,
							cells: [seriesName(entry.day), count(entry.opened), count(entry.resolved), count(entry.messagesIn), count(entry.messagesOut)],
						})),
					}}
				/>
				<ChartFrame
					id="chart-first-response"
					title={firstResponseTitle}
					exportHref={exportHref(seriesTable)}
					chart={
						<FirstResponseChart
							text={text(
								'chart-first-response',
								firstResponseTitle,
								medianFirst === null ? t('charts.firstResponse.none') : t('charts.firstResponse.description', { median: duration(medianFirst) }),
							)}
							series={series}
						/>
					}
					table={{
						columns: [seriesColumn, t('columns.firstResponse')],
						rows: series.map((entry) => ({ key: entry.day, cells: [seriesName(entry.day), duration(entry.firstResponseMedian)] })),
					}}
				/>
				<ChartFrame
					id="chart-channels"
					title={t('charts.channels.title')}
					exportHref={exportHref('channels')}
					chart={
						<ChannelsChart
							text={text(
								'chart-channels',
								t('charts.channels.title'),
								busiestChannel
									? t('charts.channels.description', { name: busiestChannel.name, total: count(busiestChannel.opened), count: busiestChannel.opened })
									: t('charts.channels.none'),
							)}
							channels={report.channels}
						/>
					}
					table={{
						columns: [t('columns.channel'), t('columns.opened'), t('columns.resolved'), t('columns.messagesIn'), t('columns.messagesOut')],
						rows: report.channels.map((channel) => ({
							key: channel.channelId,
							cells: [channel.name, count(channel.opened), count(channel.resolved), count(channel.messagesIn), count(channel.messagesOut)],
						})),
					}}
				/>
				<ChartFrame
					id="chart-heatmap"
					title={t('charts.heatmap.title')}
					exportHref={exportHref('heatmap')}
					chart={
						<HeatmapChart
							text={text(
								'chart-heatmap',
								t('charts.heatmap.title'),
								busiestHour
									? t('charts.heatmap.description', {
											day: weekdays[busiestHour.weekday],
											hour: formatHour(lang, busiestHour.hour),
											total: count(busiestHour.value),
											count: busiestHour.value,
										})
									: t('charts.heatmap.none'),
							)}
							heatmap={report.heatmap}
						/>
					}
					table={{
						columns: [t('columns.weekday'), ...Array.from({ length: 24 }, (_, hour) => formatHour(lang, hour))],
						rows: report.heatmap.map((row, weekday) => ({ key: String(weekday), cells: [weekdays[weekday], ...row.map(count)] })),
					}}
				/>
			</div>

			<section className={reports.chart} aria-labelledby="agents-heading">
				<div className={reports.chartHeader}>
					<h3 id="agents-heading" className={styles.sectionTitle}>
						{t('agents.title')}
					</h3>
					<ExportLink href={exportHref('agents')} title={t('agents.title')} />
				</div>
				{manages ? null : <p className={reports.note}>{t('agents.own')}</p>}
				{report.agents.length ? (
					<Table
						caption={t('agents.title')}
						columns={[
							t('columns.agent'),
							t('columns.assigned'),
							t('columns.replied'),
							t('columns.resolved'),
							t('columns.firstResponse'),
							t('columns.resolution'),
							t('columns.availability'),
						]}
						rows={report.agents.map((agent) => ({
							key: agent.userId,
							cells: [
								agent.name,
								count(agent.assigned),
								count(agent.replied),
								count(agent.resolved),
								duration(agent.firstResponseMedian),
								duration(agent.resolutionMedian),
								commonT(`availability.${agent.availability}`),
							],
						}))}
					/>
				) : (
					<p className={reports.note}>{t('agents.empty')}</p>
				)}
			</section>

			<section className={reports.chart} aria-labelledby="teams-heading">
				<div className={reports.chartHeader}>
					<h3 id="teams-heading" className={styles.sectionTitle}>
						{t('teams.title')}
					</h3>
					<ExportLink href={exportHref('teams')} title={t('teams.title')} />
				</div>
				<p className={reports.note}>{manages ? t('teams.lead') : t('teams.own')}</p>
				{report.teams.length ? (
					<Table
						caption={t('teams.title')}
						columns={[
							t('columns.team'),
							t('columns.opened'),
							t('columns.resolved'),
							t('columns.firstResponse'),
							t('columns.resolution'),
							t('columns.queueWaits'),
							t('columns.queueWaitMedian'),
							t('columns.queueWaitP90'),
						]}
						rows={report.teams.map((team) => ({
							key: team.teamId ?? 'none',
							cells: [
								team.name === null ? t('teams.none') : <bdi>{team.name}</bdi>,
								count(team.opened),
								count(team.resolved),
								duration(team.firstResponseMedian),
								duration(team.resolutionMedian),
								count(team.queueWaits),
								duration(team.queueWaitMedian),
								duration(team.queueWaitP90),
							],
						}))}
					/>
				) : (
					<p className={reports.note}>{t('teams.empty')}</p>
				)}
			</section>
		</>
	)
}
