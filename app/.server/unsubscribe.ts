import { type ApiClient, type UnsubscribeJson } from './api.ts'

// A notification mail's unsubscribe link (api/notifications/unsubscribe.ts): no session, its signed token is the key.
const unsubscribePath = (token: string) => `/notifications/unsubscribe?token=${encodeURIComponent(token)}`

/** What the link turns off; changes nothing. */
export const previewUnsubscribe = (client: ApiClient, token: string) => client.get<UnsubscribeJson>(unsubscribePath(token))

/** Turns those e-mails off. */
export const unsubscribe = (client: ApiClient, token: string) => client.post<UnsubscribeJson>(unsubscribePath(token))
