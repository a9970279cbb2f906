import { type ChannelProvider } from './provider.ts'

/**
 * The public chat link (`/{lang}/c/{slug}`): no third party to deliver to. The visitor reads the
 * thread on our own page, and hears of a new reply on their visitor channel, so a reply is sent
 * as soon as it is saved.
 */
export const linkProvider: ChannelProvider = {
	kind: 'link',
	send: async () => ({ externalId: null, status: 'sent' }),
}
