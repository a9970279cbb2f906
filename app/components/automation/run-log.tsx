import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type AutomationRunError, type AutomationRunJson } from '#app/.server/automation.ts'
import * as dashboard from '#app/routes/dashboard.css.ts'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { languageOf, type Locale } from '#locales/languages.ts'
import * as styles from './automation.css.ts'

/** A run's or an action's failure in the reader's words: the API sends a key of the `automation` namespace and its values. */
function useRunErrorText() {
	const { t, i18n } = useTranslation('automation')
	return (error: AutomationRunError) => {
		const { key, values } = typeof error === 'string' ? { key: error, values: {} } : { key: error.key, values: error.values ?? {} }
		const bare = key.replace(/^automation:/, '')
		return i18n.exists(bare, { ns: 'automation' }) ? t(bare, values) : key
	}
}

/**
 * The rule's last runs, newest first: when, on which event and conversation, how it ended, what each
 * action did and why one failed. Older pages follow the API's cursor (`?cursor=`), by links.
 */
export function RunLog({
	locale,
	timeZone,
	runs,
	nextCursor,
	paged,
}: {
	locale: Locale
	timeZone: string
	runs: AutomationRunJson[]
	nextCursor: string | null
	paged: boolean
}) {
	const { t } = useTranslation('automation')
	const errorText = useRunErrorText()
	const when = dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'medium', timeZone })
	return (
		<section className={dashboard.section} aria-labelledby="runs-heading" id="runs">
			<h2 id="runs-heading" className={dashboard.sectionTitle}>
				{t('runs.title')}
			</h2>
			<p className={styles.muted}>{t('runs.lead')}</p>
			{runs.length ? (
				<ol className={styles.runs}>
					{runs.map((run) => (
						<li key={run.id} className={styles.run} data-outcome={run.outcome}>
							<div className={styles.runHead}>
								<time dateTime={run.createdAt}>{when.format(new Date(run.createdAt))}</time>
								<span>{t(`events.${run.event}`)}</span>
								{run.conversation ? (
									<Link to={`/${locale}/dashboard/conversations?conversation=${run.conversation.number}`}>
										{t('runs.conversation', { number: run.conversation.number })}
									</Link>
								) : (
									<span className={styles.muted}>{t('runs.noConversation')}</span>
								)}
								<span className={run.outcome === 'done' ? styles.outcome : `${styles.outcome} ${styles.failed}`}>{t(`runs.outcomes.${run.outcome}`)}</span>
								{run.depth > 1 ? <span className={styles.muted}>{t('runs.depth', { depth: run.depth })}</span> : null}
							</div>
							{run.error ? <p className={styles.failed}>{errorText(run.error)}</p> : null}
							{run.actions.length ? (
								<ul className={styles.runActions}>
									{run.actions.map((action, index) => (
										<li key={index} className={action.outcome === 'failed' ? styles.failed : undefined}>
											{t('runs.action', { action: t(`actions.${action.kind}`), outcome: t(`runs.actionOutcomes.${action.outcome}`) })}
											{action.error ? <> — {errorText(action.error)}</> : null}
										</li>
									))}
								</ul>
							) : null}
						</li>
					))}
				</ol>
			) : (
				<p className={table.empty}>{paged ? t('runs.noMore') : t('runs.none')}</p>
			)}
			{paged || nextCursor ? (
				<nav className={table.pager} aria-label={t('runs.pages')}>
					<span className={table.actions}>
						{paged ? (
							<Link to="?#runs" className={button.outline}>
								{t('runs.newest')}
							</Link>
						) : null}
						{nextCursor ? (
							<Link to={`?cursor=${encodeURIComponent(nextCursor)}#runs`} className={button.outline} rel="next">
								{t('runs.older')}
							</Link>
						) : null}
					</span>
				</nav>
			) : null}
		</section>
	)
}
