import { isRouteErrorResponse, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { button } from './ui/button.css.ts'
import * as styles from './error-screen.css.ts'

type ErrorData = { message?: string; messageKey?: string; path?: string }

// 404: nothing here; 413: a post over its page's limit (server/page-bodies.ts); 503: a part (the
// database) is away for a moment, nothing was lost; any other status: unexpected.
const wordsOf: Record<number, [string, string]> = {
	404: ['error.title', 'error.description'],
	413: ['error.titleTooLarge', 'error.descriptionTooLarge'],
	503: ['error.titleUnavailable', 'error.descriptionUnavailable'],
}

/**
 * The one error screen: 404s, route validation failures and anything unhandled. `referrer` (the
 * root loader's) is where 'Go Back' leads without JavaScript; a prop, since root.tsx renders this.
 */
export function ErrorScreen({ referrer }: { referrer: string | null | undefined }) {
	const error = useRouteError()
	const { t } = useTranslation()
	// A navigation or revalidation cut short by the next one: single fetch hands its abort to the
	// boundary (react-router#14203), and the next one's answer replaces this at once. Nothing to show.
	if (error instanceof Error && error.name === 'AbortError') return null
	const status = isRouteErrorResponse(error) ? error.status : 500
	const errorData: ErrorData = isRouteErrorResponse(error) && error.data && typeof error.data === 'object' ? (error.data as ErrorData) : {}
	const message =
		status === 404 && errorData.path !== undefined
			? t('error.pageNotFound', { path: errorData.path })
			: (errorData.message ?? t(errorData.messageKey ?? (status === 404 ? 'error.notFound' : 'error.unexpected')))
	if (!isRouteErrorResponse(error)) console.error(error)
	const words = wordsOf[status] ?? ['error.titleUnexpected', 'error.descriptionUnexpected']

	return (
		<main className={styles.screen}>
			<div>
				<p className={styles.status}>{status}</p>
				<h1 className={styles.title}>{t(words[0]!)}</h1>
				<p className={styles.message}>{t(words[1]!)}</p>
				<p className={styles.detail} data-testid="error-message">
					{message}
				</p>
				<div className={styles.actions}>
					<a
						className={button.outline}
						href={referrer ?? '/'}
						onClick={(event) => {
							if (window.history.length > 1) {
								event.preventDefault()
								window.history.back()
							}
						}}
					>
						{t('error.goBack')}
					</a>
					<a className={button.primary} href="/">
						{t('error.backToHome')}
					</a>
				</div>
			</div>
		</main>
	)
}
