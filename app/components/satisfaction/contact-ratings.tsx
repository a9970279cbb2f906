import { Link, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type ContactSatisfactionJson } from '#app/.server/api.ts'
import { type DashboardLoader } from '#app/routes/$lang.dashboard.tsx'
import { useDateFormat } from '#app/utils/dates.ts'
import { numberFormat } from '#app/utils/intl.ts'
import * as styles from './contact-ratings.css.ts'

/** A contact's satisfaction: their ratings' average and count, and the latest ratings with their comments and conversations. */
export function ContactRatings({ satisfaction }: { satisfaction: ContactSatisfactionJson }) {
	const { t, i18n } = useTranslation()
	const locale = useRouteLoaderData<DashboardLoader>('routes/$lang.dashboard')?.locale ?? 'en-us'
	const date = useDateFormat({ dateStyle: 'medium' })
	const number = (value: number) => numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value)
	const { rated, averageRating, latest } = satisfaction
	return (
		<section aria-labelledby="contact-ratings-heading" className={styles.ratings}>
			<h3 id="contact-ratings-heading" className={styles.heading}>
				{t('contacts.satisfaction.title')}
			</h3>
			{averageRating === null ? (
				<p className={`${styles.summary} ${styles.muted}`}>{t('contacts.satisfaction.none')}</p>
			) : (
				<>
					<p className={styles.summary}>
						{t('contacts.satisfaction.summary', { average: number(averageRating), max: number(5), rated: number(rated), count: rated })}
					</p>
					<ul className={styles.list} aria-label={t('contacts.satisfaction.latest')}>
						{latest.map((rating) => (
							<li key={`${rating.conversation.number} ${rating.answeredAt}`}>
								<span className={styles.line}>
									<span className={styles.score} data-score={rating.rating >= 4 ? 'satisfied' : rating.rating <= 2 ? 'unsatisfied' : 'neutral'}>
										{t('contacts.satisfaction.score', { rating: number(rating.rating), max: number(5) })}
									</span>
									<Link
										to={`/${locale}/dashboard/conversations?conversation=${rating.conversation.number}`}
										aria-label={t('contacts.satisfaction.conversation', { number: rating.conversation.number })}
									>
										<bdi dir="ltr">#{rating.conversation.number}</bdi>
									</Link>
									<span className={styles.muted}>{date(rating.answeredAt)}</span>
								</span>
								{rating.comment ? (
									<p dir="auto" className={styles.comment}>
										{rating.comment}
									</p>
								) : null}
							</li>
						))}
					</ul>
				</>
			)}
		</section>
	)
}
