import { type ChannelKind } from '#api/db/schema.ts'
import { linkProvider } from './link.ts'
import { type ChannelProvider } from './provider.ts'

export { DeliveryError, type ChannelProvider } from './provider.ts'

/** One provider per channel kind; the messaging channels' issue adds WhatsApp, Telegram and Meta here. */
const providers: Partial<Record<ChannelKind, ChannelProvider>> = { link: linkProvider }

/** The provider of a channel kind, or undefined for a kind not implemented yet (its messages fail with a detail). */
export function providerFor(kind: ChannelKind): ChannelProvider | undefined {
	return providers[kind]
}
