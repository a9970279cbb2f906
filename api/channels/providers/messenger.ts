import { pageMessagingProvider } from './page-messaging.ts'

/** Messenger: the conversations people start with a Facebook Page in Messenger (the Page's `page` webhooks). */
export const messengerProvider = pageMessagingProvider({ kind: 'messenger', object: 'page' })
