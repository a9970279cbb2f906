import { Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { button } from './ui/button.css.ts'
import * as styles from './ui/table.css.ts'

/** Previous / next links that keep the other query parameters (search, filters). */
export function Pagination({ page, limit, total }: { page: number; limit: number; total: number }) {
	const { t } = useTranslation()
	const location = useLocation()
	const pages = Math.max(1, Math.ceil(total / limit))
	const to = (target: number) => {
		const params = new URLSearchParams(location.search)
		params.set('page', String(target))
		return `${location.pathname}?${params.toString()}`
	}
	return (
		<nav className={styles.pager} aria-label={t('pagination.label')}>
			<span>{t('pagination.summary', { page, pages, total })}</span>
			<span className={styles.actions}>
				{page > 1 ? (
					<Link to={to(page - 1)} className={button.outline} rel="prev">
						{t('pagination.previous')}
					</Link>
				) : null}
				{page < pages ? (
					<Link to={to(page + 1)} className={button.outline} rel="next">
						{t('pagination.next')}
					</Link>
				) : null}
			</span>
		</nav>
	)
}
