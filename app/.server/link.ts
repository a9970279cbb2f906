import { type ApiClient, type LinkPageJson, type VisitorThreadJson } from './api.ts'

// The chat link's visitor (api/link/router.ts), with visitorApi's client (visitor.ts): no account, their cookie's token.
const linkOf = (slug: string) => `/link/${encodeURIComponent(slug)}`

/** The link's page: the channel's name, greeting and what it asks of a visitor. */
export const linkPage = (client: ApiClient, slug: string) => client.get<LinkPageJson>(linkOf(slug))

/** The visitor's conversation: its latest messages, or those before `before`. */
export const visitorThread = (client: ApiClient, slug: string, before?: string) => client.get<VisitorThreadJson>(`${linkOf(slug)}/messages`, { before })

export const postVisitorMessage = (client: ApiClient, slug: string, message: object) => client.post(`${linkOf(slug)}/messages`, message)

/** pusher-js's authorisation of the visitor's own conversation's channel. */
export const authoriseVisitorChannel = (client: ApiClient, slug: string, body: { socket_id: string; channel_name: string }) =>
	client.post<{ auth: string }>(`${linkOf(slug)}/realtime/auth`, body)

/** A file the team sent in the visitor's conversation, to stream on. */
export const visitorAttachment = (client: ApiClient, slug: string, attachmentId: string) =>
	client.stream(`${linkOf(slug)}/attachments/${encodeURIComponent(attachmentId)}`)

/** The visitor's rating of their resolved conversation (once). */
export const rateConversation = (client: ApiClient, slug: string, answer: { rating: number; comment?: string }) =>
	client.post(`${linkOf(slug)}/satisfaction`, answer)
