import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type OverviewJson } from '#app/.server/api.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import * as checklist from './checklist.css.ts'

/** The getting-started checklist: its three steps, shown until they are all done; only managers are led to invite. */
export function Checklist({ counts, manages, locale }: { counts: OverviewJson; manages: boolean; locale: string }) {
	const { t } = useTranslation()
	const steps = [
		{
			key: 'invite',
			done: counts.members > 1 || counts.pendingInvitations > 0,
			count: counts.members,
			to: manages ? '/dashboard/settings/agents' : null,
		},
		{ key: 'contacts', done: counts.contacts > 0, count: counts.contacts, to: '/dashboard/contacts' },
		{ key: 'channel', done: counts.channels > 0, count: counts.channels, to: null },
	] satisfies Array<{ key: string; done: boolean; count: number; to: string | null }>
	const done = steps.filter((step) => step.done).length
	if (done === steps.length) return null
	return (
		<section className={styles.section} aria-labelledby="checklist-heading">
			<h2 id="checklist-heading" className={styles.sectionTitle}>
				{t('overview.checklist', { done, total: steps.length })}
			</h2>
			<ol className={checklist.steps}>
				{steps.map((step) => (
					<li key={step.key} className={checklist.step} data-done={step.done}>
						<span className={checklist.mark} aria-hidden="true">
							{step.done ? '✓' : ''}
						</span>
						<div>
							<p className={checklist.stepTitle}>
								{step.to ? <Link to={`/${locale}${step.to}`}>{t(`overview.steps.${step.key}.title`)}</Link> : t(`overview.steps.${step.key}.title`)}
								<span className="visually-hidden">{t(step.done ? 'overview.done' : 'overview.todo')}</span>
							</p>
							<p className={checklist.stepText}>{t(`overview.steps.${step.key}.text`, { count: step.count })}</p>
						</div>
					</li>
				))}
			</ol>
		</section>
	)
}
