import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { languageOf, type Locale } from '#locales/languages.ts'

/** A signing secret the API shows this once (a new webhook's, a rolled one), with what to say before and after it. */
export function ShownSecret({ secret, lead, children }: { secret: string; lead: ReactNode; children: ReactNode }) {
	const { t } = useTranslation('webhooks')
	return (
		<section className={styles.section} aria-labelledby="webhook-secret-heading" role="status">
			<h2 id="webhook-secret-heading" className={styles.sectionTitle}>
				{t('secret.heading')}
			</h2>
			<p>{lead}</p>
			<p>
				<code className={styles.secret} data-testid="webhook-secret">
					{secret}
				</code>
			</p>
			{children}
		</section>
	)
}

/** What rolling a signing secret answered: the new secret, and until when the one it replaced still signs. */
export type RolledSecretJson = { secret: string; previousSecretExpiresAt: string | null }

/** A rolled signing secret (a webhook's, an API channel's callback's), this once, and until when the old one signs beside it. */
export function RolledSecret({ rolled, locale, timeZone }: { rolled: RolledSecretJson; locale: Locale; timeZone: string }) {
	const { t } = useTranslation('webhooks')
	const until = rolled.previousSecretExpiresAt
		? dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(rolled.previousSecretExpiresAt))
		: null
	return (
		<ShownSecret secret={rolled.secret} lead={until ? t('secret.rolledWithOverlap', { until }) : t('secret.rolled')}>
			<p className={fieldStyles.help}>{t('secret.once')}</p>
		</ShownSecret>
	)
}
