import { useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as styles from './progress-bar.css.ts'

/** A thin bar along the top while a navigation or a form submission is pending. */
export function ProgressBar() {
	const navigation = useNavigation()
	const { t } = useTranslation()
	const busy = navigation.state !== 'idle'
	return (
		<div className={styles.track} role="progressbar" aria-hidden={!busy} aria-label={t('app.loading')} data-busy={busy}>
			<div className={styles.bar} data-state={navigation.state} />
		</div>
	)
}
