import { type LoaderFunctionArgs } from '@remix-run/node'
import { type ChannelJson } from '#app/.server/api.ts'
import { type ConnectChannelValue } from '#app/components/channels/connect-channel-form.schema.ts'
import { type LinkChannelValue } from '#app/components/channels/link-channel-form.schema.ts'
import { type Locale } from '#locales/languages.ts'

/** A link channel's form as the API takes it: its page's words and questions are its settings; an empty address is left to the API. */
export function linkChannelBody({ slug, greeting, askName, askEmail, ...channel }: LinkChannelValue) {
	return { ...channel, ...(slug ? { slug } : {}), settings: { greeting, askName, askEmail } }
}

/** A messaging channel's form as the API takes it: Meta's ids are its settings, the rest its credentials (a verify token left empty is generated). */
export function messagingChannelBody(value: ConnectChannelValue) {
	if (value.kind === 'telegram') return { kind: value.kind, name: value.name, credentials: { botToken: value.botToken } }
	const { kind, name, accessToken, appSecret, verifyToken, ...settings } = value
	return { kind, name, settings, credentials: { accessToken, appSecret, ...(verifyToken ? { verifyToken } : {}) } }
}

/** The form's field of a path in the API's answer: the API nests what the forms have flat (`settings.greeting`, `credentials.botToken`). */
export const channelFieldOf = (path: string) => path.replace(/^(settings|credentials)\./, '')

/** Where a link channel's page is, in the reader's language. */
export function publicUrlOf(args: Pick<LoaderFunctionArgs, 'context'>, locale: Locale, channel: Pick<ChannelJson, 'slug'>): string | null {
	return channel.slug ? `${args.context.config.PUBLIC_URL.replace(/\/+$/, '')}/${locale}/c/${channel.slug}` : null
}
