import { type ChannelKind } from '#api/db/schema.ts'
import { linkProvider } from './link.ts'
import { type ChannelProvider } from './provider.ts'
import { telegramProvider } from './telegram.ts'
import { whatsappProvider } from './whatsapp.ts'

export { DeliveryError, type ChannelProvider } from './provider.ts'

/** One provider per channel kind; Meta's (Messenger, Instagram, Facebook) comes next. */
const providers: Partial<Record<ChannelKind, ChannelProvider>> = { link: linkProvider, telegram: telegramProvider, whatsapp: whatsappProvider }

/** The provider of a channel kind, or undefined for a kind not implemented yet (its messages fail with a detail). */
export function providerFor(kind: ChannelKind): ChannelProvider | undefined {
	return providers[kind]
}
