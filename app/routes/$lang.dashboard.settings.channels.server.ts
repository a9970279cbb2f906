import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { ApiError, type ChannelJson } from '#app/.server/api.ts'
import { rethrowApiError } from '#app/.server/session.ts'
import { type ConnectKind } from '#app/components/channels/connect-channel-form.tsx'
import { type Locale } from '#locales/languages.ts'

/** What the channel form posts, as the API takes it: unticked boxes are absent, so each is read as a boolean. */
export function linkChannelBody(form: FormData) {
	const text = (name: string) => String(form.get(name) ?? '').trim()
	return {
		name: text('name'),
		...(text('slug') ? { slug: text('slug') } : {}),
		enabled: form.get('enabled') === 'on',
		settings: { greeting: text('greeting'), awayMessage: text('awayMessage'), askName: form.get('askName') === 'on', askEmail: form.get('askEmail') === 'on' },
	}
}

export type ChannelFormReply = { fieldErrors: Record<string, string[]>; formError: string | null; values: Record<string, string | boolean> }

/**
 * A messaging channel's form, as the API takes it (`body`), and what its form shows again after a
 * refusal (`shown`: never a secret).
 */
export function messagingChannelBody(kind: ConnectKind, form: FormData) {
	const text = (name: string) => String(form.get(name) ?? '').trim()
	const name = text('name')
	if (kind === 'telegram') return { kind, name, credentials: { botToken: text('botToken') }, shown: { name } }
	// Meta's: a WhatsApp number's ids, or a Facebook Page's (Messenger, Facebook, Instagram).
	const settings: Record<string, string> =
		kind === 'whatsapp' ? { phoneNumberId: text('phoneNumberId'), businessAccountId: text('businessAccountId') } : { pageId: text('pageId') }
	const verifyToken = text('verifyToken')
	return {
		kind,
		name,
		settings,
		credentials: { accessToken: text('accessToken'), appSecret: text('appSecret'), ...(verifyToken ? { verifyToken } : {}) },
		shown: { name, ...settings, verifyToken },
	}
}

/** What the link form shows again after a refusal. */
export const linkFormValues = (body: ReturnType<typeof linkChannelBody>) => ({
	name: body.name,
	slug: body.slug ?? '',
	enabled: body.enabled,
	...body.settings,
})

/**
 * The form again with the API's messages beside their fields (`settings.greeting` → `greeting`,
 * `credentials.botToken` → `botToken`), and what was typed (never a secret), whatever the status:
 * a provider out of reach (502) or the database away (503) is said above the form, not a crash.
 */
export async function channelFormReply(error: unknown, values: Record<string, string | boolean>, locale: Locale, request: Request) {
	if (!(error instanceof ApiError) || error.statusCode === 401) return rethrowApiError(error, locale, request)
	const fields = (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields ?? {}
	const fieldErrors = Object.fromEntries(Object.entries(fields).map(([path, messages]) => [path.replace(/^(settings|credentials)\./, ''), messages]))
	const reply: ChannelFormReply = {
		fieldErrors,
		formError: Object.keys(fieldErrors).length ? null : error.message,
		values,
	}
	return data(reply, { status: error.statusCode })
}

/** Where a link channel's page is, in the reader's language. */
export function publicUrlOf(args: Pick<LoaderFunctionArgs, 'context'>, locale: Locale, channel: Pick<ChannelJson, 'slug'>): string | null {
	return channel.slug ? `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/${locale}/c/${channel.slug}` : null
}
