import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PreferenceControls } from '#app/components/preferences.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { requireLocale } from '#app/.server/locale.ts'
import * as styles from './home.css.ts'

export const meta: MetaFunction = () => [{ title: 'CRM' }, { name: 'description', content: 'Team inbox and CRM' }]

export async function loader({ request, params, context }: LoaderFunctionArgs) {
	const locale = await requireLocale(request, params)
	const homeRedirect = context.config.HOME_REDIRECT
	if (homeRedirect) throw redirect(`/${locale}${homeRedirect}`)
	return { locale }
}

const channels = ['whatsapp', 'telegram', 'instagram', 'facebook', 'messenger', 'link'] as const

/** The product introduction, with the way in. */
export default function Home() {
	const { locale } = useLoaderData<typeof loader>()
	const { t } = useTranslation()
	return (
		<div className={styles.page}>
			<header className={styles.header}>
				<span className={styles.brand}>{t('app.name')}</span>
				<PreferenceControls />
			</header>
			<main className={styles.hero}>
				<h1 className={styles.title}>{t('home.title')}</h1>
				<p className={styles.lead}>{t('home.lead')}</p>
				<div className={styles.actions}>
					<ButtonLink to={`/${locale}/auth/signup`}>{t('home.signUp')}</ButtonLink>
					<ButtonLink to={`/${locale}/auth/login`} variant="outline">
						{t('home.signIn')}
					</ButtonLink>
				</div>
				<ul className={styles.channels} aria-label={t('home.channelsLabel')}>
					{channels.map((channel) => (
						<li key={channel}>{t(`channels.${channel}`)}</li>
					))}
				</ul>
				<ul className={styles.features}>
					{(['inbox', 'contacts', 'team'] as const).map((feature) => (
						<li key={feature} className={styles.feature}>
							<h2>{t(`home.features.${feature}.title`)}</h2>
							<p>{t(`home.features.${feature}.text`)}</p>
						</li>
					))}
				</ul>
			</main>
		</div>
	)
}
