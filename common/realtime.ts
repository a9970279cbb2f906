import { uuidPattern } from './ids.ts'

/**
 * What the API, the server and the browser agree on about realtime: the product's channels
 * (PRODUCT.md, Realtime channels), which the API publishes and signs and the browser subscribes
 * to, and the connection settings the server hands the browser. No dependencies.
 */

/**
 * What the browser needs to open the realtime connection (pusher-js options), decided by the
 * server from its configuration and handed over by the dashboard layout's loader. Public values only.
 */
export type RealtimeBrowserConfig = {
	/** The app key; null when none is configured (the app then works without realtime). */
	key: string | null
	cluster: string
	/** Host and port of a Pusher-protocol server; null for Pusher Channels, which pusher-js finds from the cluster. */
	wsHost: string | null
	wsPort: number | null
	forceTLS: boolean
}

export const workspaceChannel = (workspaceId: string) => `private-workspace-${workspaceId}`
export const workspacePresenceChannel = (workspaceId: string) => `presence-workspace-${workspaceId}`
/**
 * The agents on an open conversation: its members are who is viewing it, and `client-typing` who is typing. A presence
 * channel because Pusher Channels and Soketi stamp a client event's sender (`user_id`) there only.
 */
export const conversationPresenceChannel = (conversationId: string) => `presence-conversation-${conversationId}`
/** What a link-page visitor hears of their conversation (replies, agents typing); never notes. Members of the workspace may listen too. */
export const visitorChannel = (conversationId: string) => `private-visitor-${conversationId}`

/**
 * The personal event (on `#server-to-user-{id}`) that tells an agent who sees only their teams'
 * conversations, and so may not hear the workspace's channel, that something they see changed: `{ workspaceId }`.
 */
export const inboxChangedEvent = 'inbox.changed'

export type ChannelSubject = { kind: 'workspace' | 'workspace-presence' | 'conversation-presence' | 'visitor'; id: string }

// Lower case only, as PostgreSQL writes them: one channel per workspace, not one per spelling.
const uuid = new RegExp(`^${uuidPattern}$`)
const kinds = [
	['private-workspace-', 'workspace'],
	['presence-workspace-', 'workspace-presence'],
	['presence-conversation-', 'conversation-presence'],
	['private-visitor-', 'visitor'],
] as const

/**
 * Every channel name browsers subscribe to (the user's `#server-to-user-{id}` aside, joined by signing in):
 * the embedded realtime server refuses any other, so that nobody fills it with channels nobody authorises.
 */
export const channelNamePatterns: readonly RegExp[] = kinds.map(([prefix]) => new RegExp(`^${prefix}${uuidPattern}$`))

/** What a channel name is about, or undefined for any name that is not one of ours. */
export function channelSubject(name: string): ChannelSubject | undefined {
	for (const [prefix, kind] of kinds) {
		if (!name.startsWith(prefix)) continue
		const id = name.slice(prefix.length)
		return uuid.test(id) ? { kind, id } : undefined
	}
	return undefined
}
