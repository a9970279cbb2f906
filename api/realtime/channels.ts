/**
 * The product's realtime channels (PRODUCT.md, Realtime channels). Shared by the API, which
 * publishes and signs, and the browser, which subscribes: no dependencies.
 */
export const workspaceChannel = (workspaceId: string) => `private-workspace-${workspaceId}`
export const workspacePresenceChannel = (workspaceId: string) => `presence-workspace-${workspaceId}`
export const conversationChannel = (conversationId: string) => `private-conversation-${conversationId}`

export type ChannelSubject = { kind: 'workspace' | 'workspace-presence' | 'conversation'; id: string }

// Lower case only, as PostgreSQL writes them: one channel per workspace, not one per spelling.
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const kinds = [
	['private-workspace-', 'workspace'],
	['presence-workspace-', 'workspace-presence'],
	['private-conversation-', 'conversation'],
] as const

/** What a channel name is about, or undefined for any name that is not one of ours. */
export function channelSubject(name: string): ChannelSubject | undefined {
	for (const [prefix, kind] of kinds) {
		if (!name.startsWith(prefix)) continue
		const id = name.slice(prefix.length)
		return uuid.test(id) ? { kind, id } : undefined
	}
	return undefined
}
