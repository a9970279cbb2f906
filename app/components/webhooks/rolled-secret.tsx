import { useTranslation } from 'react-i18next'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import * as styles from '#app/routes/dashboard.css.ts'
import { dateTimeFormat } from '#app/utils/intl.ts'
import { languageOf, type Locale } from '#locales/languages.ts'

/** What rolling a signing secret answered: the new secret, and until when the one it replaced still signs. */
export type RolledSecretJson = { secret: string; previousSecretExpiresAt: string | null }

/** A rolled signing secret (a webhook's, an API channel's callback's), this once, and until when the old one signs beside it. */
export function RolledSecret({ rolled, locale, timeZone }: { rolled: RolledSecretJson; locale: Locale; timeZone: string }) {
	const { t } = useTranslation('webhooks')
	return (
		<section className={styles.section} aria-labelledby="webhook-secret-heading" role="status">
			<h2 id="webhook-secret-heading" className={styles.sectionTitle}>
				{t('secret.heading')}
			</h2>
			<p>
				{rolled.previousSecretExpiresAt
					? t('secret.rolledWithOverlap', {
							until: dateTimeFormat(languageOf(locale).tag, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
								new Date(rolled.previousSecretExpiresAt),
							),
						})
					: t('secret.rolled')}
			</p>
			<p>
				<code className={styles.secret} data-testid="webhook-secret">
					{rolled.secret}
				</code>
			</p>
			<p className={fieldStyles.help}>{t('secret.once')}</p>
		</section>
	)
}
