import { pageMessagingProvider } from './page-messaging.ts'

/**
 * Facebook: a Facebook Page's conversations. The same Messenger Platform webhooks (`object: page`) as
 * the Messenger channel, kept as a kind of its own so a business can tell them apart in the inbox.
 */
export const facebookProvider = pageMessagingProvider({ kind: 'facebook', object: 'page' })
