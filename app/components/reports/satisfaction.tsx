import { useTranslation } from 'react-i18next'
import { type SatisfactionReportJson } from '#app/.server/api.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { ExportLink } from './chart-frame.tsx'
import { Table } from './charts.tsx'
import { formatCount } from './format.ts'
import * as reports from './reports.css.ts'

type Figures = SatisfactionReportJson['overall']

/** CSAT (the share of 4 and 5 among ratings) and the response rate over the report's range: the whole, then by agent, team and channel. */
export function SatisfactionReport({ satisfaction, exportHref }: { satisfaction: SatisfactionReportJson; exportHref: string }) {
	const { t, i18n } = useTranslation('reports')
	const lang = i18n.language
	const percent = (ratio: number | null) => (ratio === null ? '–' : new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(ratio))
	const count = (value: number) => formatCount(lang, value)
	const cells = (figures: Figures) => [percent(figures.csat), percent(figures.responseRate), count(figures.rated), count(figures.asked)]
	const { overall } = satisfaction
	const rows = [
		...satisfaction.agents.map((row) => ({
			key: `agent-${row.userId}`,
			cells: [t('satisfaction.byAgent'), row.name === null ? t('satisfaction.nobody') : <bdi>{row.name}</bdi>, ...cells(row)],
		})),
		...satisfaction.teams.map((row) => ({
			key: `team-${row.teamId}`,
			cells: [t('satisfaction.byTeam'), row.name === null ? t('teams.none') : <bdi>{row.name}</bdi>, ...cells(row)],
		})),
		...satisfaction.channels.map((row) => ({
			key: `channel-${row.channelId}`,
			cells: [t('satisfaction.byChannel'), <bdi key="name">{row.name}</bdi>, ...cells(row)],
		})),
	]
	return (
		<section className={reports.chart} aria-labelledby="satisfaction-heading">
			<div className={reports.chartHeader}>
				<h3 id="satisfaction-heading" className={styles.sectionTitle}>
					{t('satisfaction.title')}
				</h3>
				<ExportLink href={exportHref} title={t('satisfaction.title')} />
			</div>
			<p className={reports.note}>
				{t('satisfaction.lead', {
					csat: percent(overall.csat),
					rate: percent(overall.responseRate),
					rated: count(overall.rated),
					asked: count(overall.asked),
					count: overall.asked,
				})}
			</p>
			{rows.length ? (
				<Table
					caption={t('satisfaction.title')}
					columns={[
						t('satisfaction.by'),
						t('satisfaction.name'),
						t('satisfaction.csat'),
						t('satisfaction.responseRate'),
						t('satisfaction.rated'),
						t('satisfaction.asked'),
					]}
					rows={rows}
				/>
			) : (
				<p className={reports.note}>{t('satisfaction.empty')}</p>
			)}
		</section>
	)
}
