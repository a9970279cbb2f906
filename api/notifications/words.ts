import { isolate, type NotificationKind, type NotificationValues } from '#common/notifications.ts'
import { type Locale } from '#locales/languages.ts'

type Described = { id: string; kind: NotificationKind; values: NotificationValues }

/** The names people wrote, isolated: an Arabic name in an English line (or the reverse) keeps the sentence in order. */
const written = ['contact', 'actor', 'team', 'campaign', 'channel'] as const

/**
 * A notification's line in a locale, for a mail or a push (the web app says the same from the same
 * keys). Loaded when first needed: Playwright's loader, which reaches some API modules, cannot import JSON.
 */
export async function notificationLine(locale: Locale, notification: Described): Promise<string> {
	const { translatorFor } = await import('#api/http/i18n.ts')
	const t = translatorFor(locale)
	const values: Record<string, unknown> = { ...notification.values }
	for (const key of written) if (typeof values[key] === 'string') values[key] = isolate(values[key] as string)
	values.contact ??= t('notifications:aCustomer')
	values.actor ??= t('notifications:someone')
	values.count ??= 1
	return t(`notifications:kinds.${notification.kind}`, values)
}

/**
 * Where a notification leads, from a mail or a push: the app's page that marks it read, moves the
 * member to its workspace, and goes on to its conversation, campaign or channel.
 */
export const notificationAddress = (publicUrl: string, locale: Locale, notification: Pick<Described, 'id'>) =>
	new URL(`/${locale}/dashboard/notifications/${notification.id}`, publicUrl).toString()
