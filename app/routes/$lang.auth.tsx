import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, Outlet, useParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { requireLocale } from '#app/.server/locale.ts'
import { PreferenceControls } from '#app/components/preferences.tsx'
import * as styles from './auth.css.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireLocale(request, params)
	return null
}

/** The auth layout: a centred card for signing in, signing up and account recovery. */
export default function AuthLayout() {
	const { t } = useTranslation()
	const { lang } = useParams()
	return (
		<div className={styles.page}>
			<header className={styles.header}>
				<Link to={`/${lang}`} className={styles.brand}>
					{t('app.name')}
				</Link>
				<PreferenceControls />
			</header>
			<main className={styles.main}>
				<div className={styles.card}>
					<Outlet />
				</div>
			</main>
		</div>
	)
}
