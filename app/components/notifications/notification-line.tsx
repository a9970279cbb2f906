import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { isolated, isolatedText } from '#app/utils/bidi.tsx'
import { type NotificationJson } from '#common/notifications.ts'

/** The values people wrote (names, an excerpt): isolated so that a name in another script keeps the sentence in order. */
const written = ['contact', 'actor', 'excerpt', 'team', 'campaign', 'channel'] as const

type Described = Pick<NotificationJson, 'kind' | 'values'>
type T = ReturnType<typeof useTranslation>['t']

/** The numbers as they are (a plural reads `count`), and the words for a name nobody gave (as api/notifications/words.ts says them). */
function valuesOf(t: T, { values }: Described) {
	const { number, count, minutes, sent, failed } = values
	const names: Record<string, string> = { contact: t('notifications:aCustomer'), actor: t('notifications:someone') }
	for (const key of written) {
		const value = values[key]
		if (typeof value === 'string') names[key] = value
	}
	return { numbers: { number, count: count ?? 1, minutes, sent, failed }, names }
}

/** A notification's line for a title or a toast: plain text, the names between Unicode isolates. */
export function notificationText(t: T, notification: Described): string {
	const { numbers, names } = valuesOf(t, notification)
	const isolatedNames = Object.fromEntries(Object.entries(names).map(([key, value]) => [key, isolatedText(value)]))
	return t(`notifications:kinds.${notification.kind}`, { ...numbers, ...isolatedNames })
}

/** A notification's line in markup: each name in its own `<bdi>`. */
export function NotificationLine({ notification }: { notification: Described }): ReactNode {
	const { t } = useTranslation()
	const { numbers, names } = valuesOf(t, notification)
	return <>{isolated((marked) => t(`notifications:kinds.${notification.kind}`, { ...numbers, ...marked }), names)}</>
}

/** The app's page of one notification: it marks it read, switches to its workspace and goes on to what it is about. */
export const notificationHref = (locale: string, notification: Pick<NotificationJson, 'id'>) =>
	`/${locale}/dashboard/notifications/${encodeURIComponent(notification.id)}`
