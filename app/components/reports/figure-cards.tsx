import { useTranslation } from 'react-i18next'
import { type ReportJson } from '#app/utils/reports.ts'
import { figuresOf, type FigureKey } from './figures.ts'
import { formatDuration } from './format.ts'
import * as reports from './reports.css.ts'

/** The figures a report in business hours counts in open time (queue waits stay in calendar time). */
const businessFigures = new Set<FigureKey>(['firstResponseMedian', 'firstResponseP90', 'resolutionMedian', 'resolutionP90', 'answeredWithinTarget'])

/** The report's figures, a card each: its value, how it moved since the period before, and whether a filter on leaves it out. */
export function FigureCards({ report }: { report: ReportJson }) {
	const { t, i18n } = useTranslation('reports')
	const lang = i18n.language
	// The workspace-wide cards say so when a filter they cannot follow is on (an agent's own report is one).
	const { channelId, agentId, labelId, teamId } = report.filters
	const unfiltered = (key: FigureKey) =>
		key === 'newContacts' && (channelId || agentId || labelId || teamId)
			? 'newContacts'
			: (key === 'campaignSent' || key === 'campaignDelivered') && (agentId || labelId || teamId)
				? 'campaigns'
				: null
	const inBusinessHours = (key: FigureKey) => report.hours === 'business' && businessFigures.has(key)
	return (
		<section aria-labelledby="figures-heading">
			<h3 id="figures-heading" className="visually-hidden">
				{t('figures.title')}
			</h3>
			<ul className={reports.cards}>
				{figuresOf(report, lang).map((figure) => (
					<li key={figure.key} className={reports.card} data-figure={figure.key}>
						<span className={reports.cardLabel}>{t(`figures.${figure.key}`, { target: formatDuration(lang, report.targetSeconds) })}</span>
						<span className={reports.cardValue} data-value data-empty={figure.value === null}>
							{figure.value ?? t('figures.noValue')}
						</span>
						<span className={reports.cardChange} data-good={figure.good ?? undefined}>
							{figure.key === 'openNow'
								? t('figures.openNowHelp')
								: figure.change
									? t('figures.change', { change: figure.change, previous: figure.previous })
									: figure.previous && figure.previous !== figure.value
										? t('figures.previous', { previous: figure.previous })
										: t('figures.nothingBefore')}
						</span>
						{unfiltered(figure.key) ? (
							<span className={reports.cardNote} data-unfiltered>
								{t(`figures.unfiltered.${unfiltered(figure.key)}`)}
							</span>
						) : null}
						{inBusinessHours(figure.key) ? (
							<span className={reports.cardNote} data-business-hours>
								{t('figures.inBusinessHours')}
							</span>
						) : null}
					</li>
				))}
			</ul>
		</section>
	)
}
