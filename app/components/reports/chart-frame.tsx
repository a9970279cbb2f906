import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { button } from '#app/components/ui/button.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { DataTable } from './charts.tsx'
import * as reports from './reports.css.ts'

type TableData = { columns: string[]; rows: Array<{ key: string; cells: ReactNode[] }> }

/** A chart with its heading, legend, export link and the same numbers as a table. */
export function ChartFrame({
	id,
	title,
	exportHref,
	legend,
	chart,
	table,
}: {
	id: string
	title: string
	exportHref: string
	legend?: ReactNode
	chart: ReactNode
	table: TableData
}) {
	const { t } = useTranslation('reports')
	return (
		<section className={reports.chart} aria-labelledby={`${id}-heading`}>
			<div className={reports.chartHeader}>
				<h3 id={`${id}-heading`} className={styles.sectionTitle}>
					{title}
				</h3>
				<ExportLink href={exportHref} title={title} />
			</div>
			{legend}
			{chart}
			<DataTable summary={t('charts.showTable')} caption={title} columns={table.columns} rows={table.rows} />
		</section>
	)
}

export function ExportLink({ href, title }: { href: string; title: string }) {
	const { t } = useTranslation('reports')
	return (
		<a href={href} className={button.ghost}>
			{t('charts.export')}
			<span className="visually-hidden"> — {title}</span>
		</a>
	)
}
