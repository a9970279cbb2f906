import { Link } from '@remix-run/react'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { PreferenceControls } from './preferences.tsx'
import * as styles from './card-page.css.ts'

/** A page that is one centred card under the brand and the preferences: the auth and default layouts. */
export function CardPage({ locale, children }: { locale: string; children: ReactNode }) {
	const { t } = useTranslation()
	return (
		<div className={styles.page}>
			<header className={styles.header}>
				<Link to={`/${locale}`} className={styles.brand}>
					{t('app.name')}
				</Link>
				<PreferenceControls />
			</header>
			<main className={styles.main}>
				<div className={styles.card}>{children}</div>
			</main>
		</div>
	)
}
