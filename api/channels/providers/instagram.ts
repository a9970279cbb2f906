import { pageMessagingProvider } from './page-messaging.ts'

/**
 * Instagram: direct messages to the Instagram professional account linked to a Facebook Page
 * (`object: instagram` webhooks, entries by that account's id; customers by their IGSID).
 */
export const instagramProvider = pageMessagingProvider({ kind: 'instagram', object: 'instagram' })
