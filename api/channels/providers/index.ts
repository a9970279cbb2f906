import { type ChannelKind } from '#api/db/schema.ts'
import { facebookProvider } from './facebook.ts'
import { instagramProvider } from './instagram.ts'
import { linkProvider } from './link.ts'
import { messengerProvider } from './messenger.ts'
import { type ChannelProvider } from './provider.ts'
import { telegramProvider } from './telegram.ts'
import { whatsappProvider } from './whatsapp.ts'

export { DeliveryError, type ChannelProvider } from './provider.ts'

/** One provider per channel kind. */
const providers: Partial<Record<ChannelKind, ChannelProvider>> = {
	link: linkProvider,
	telegram: telegramProvider,
	whatsapp: whatsappProvider,
	messenger: messengerProvider,
	facebook: facebookProvider,
	instagram: instagramProvider,
}

/** The provider of a channel kind, or undefined for a kind without one (its messages fail with a detail). */
export function providerFor(kind: ChannelKind): ChannelProvider | undefined {
	return providers[kind]
}

/** An API channel (issue 33) has no provider: its channel-owned webhook subscription posts its replies to its callback, and sets their status. */
export const repliesByCallback = (kind: ChannelKind) => kind === 'api'
