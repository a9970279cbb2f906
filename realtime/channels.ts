export type ChannelKind = 'public' | 'private' | 'encrypted' | 'presence' | 'user'

export const SERVER_TO_USER_PREFIX = '#server-to-user-'
export const MAX_CHANNEL_NAME_LENGTH = 200
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]+$/
const CACHE_CHANNEL = /^(?:private-encrypted-|private-|presence-)?cache-/

export function channelKind(name: string): ChannelKind {
	if (name.startsWith(SERVER_TO_USER_PREFIX)) return 'user'
	if (name.startsWith('presence-')) return 'presence'
	if (name.startsWith('private-encrypted-')) return 'encrypted'
	if (name.startsWith('private-')) return 'private'
	return 'public'
}

export function userChannel(userId: string): string {
	return `${SERVER_TO_USER_PREFIX}${userId}`
}

export function isValidChannelName(name: string): boolean {
	if (name.length === 0 || name.length > MAX_CHANNEL_NAME_LENGTH) return false
	if (name.startsWith(SERVER_TO_USER_PREFIX)) return name.length > SERVER_TO_USER_PREFIX.length
	return CHANNEL_NAME.test(name)
}

// Private (and encrypted) and presence channels, which the app authorises one by one; public ones need no
// authorisation, so any socket could fill the server with them.
export const DEFAULT_CHANNEL_NAMES: readonly RegExp[] = [/^private-/, /^presence-/]

// User channels are not matched against the patterns: signing in decides who joins them.
export function isAllowedChannelName(name: string, patterns: readonly RegExp[]): boolean {
	return channelKind(name) === 'user' || patterns.some((pattern) => pattern.test(name))
}

export function isCacheChannel(name: string): boolean {
	return CACHE_CHANNEL.test(name)
}

export function requiresAuth(kind: ChannelKind): boolean {
	return kind === 'private' || kind === 'encrypted' || kind === 'presence'
}

export function acceptsClientEvents(kind: ChannelKind): boolean {
	return requiresAuth(kind)
}

export interface PresenceMember {
	user_id: string
	user_info?: unknown
}

export type JoinOutcome = { ok: true; subscriptionCount: number; memberAdded: boolean } | { ok: false; reason: 'presence_limit' }

export interface LeaveOutcome {
	left: boolean
	subscriptionCount: number
	memberRemoved: PresenceMember | undefined
}

interface PresenceUser {
	info: unknown
	sockets: number
}

// Subscriptions of one app on this process: channel -> socket ids, plus presence users per channel.
export class ChannelRegistry {
	private readonly subscribers = new Map<string, Map<string, string | undefined>>()
	private readonly presence = new Map<string, Map<string, PresenceUser>>()

	join(channel: string, socketId: string, member?: PresenceMember, maxPresenceMembers = Infinity): JoinOutcome {
		const sockets = this.subscribers.get(channel) ?? new Map<string, string | undefined>()
		if (sockets.has(socketId)) return { ok: true, subscriptionCount: sockets.size, memberAdded: false }
		let memberAdded = false
		if (member !== undefined) {
			const users = this.presence.get(channel) ?? new Map<string, PresenceUser>()
			const user = users.get(member.user_id)
			if (user === undefined) {
				if (users.size >= maxPresenceMembers) return { ok: false, reason: 'presence_limit' }
				users.set(member.user_id, { info: member.user_info, sockets: 1 })
				memberAdded = true
			} else {
				user.sockets += 1
			}
			this.presence.set(channel, users)
		}
		sockets.set(socketId, member?.user_id)
		this.subscribers.set(channel, sockets)
		return { ok: true, subscriptionCount: sockets.size, memberAdded }
	}

	leave(channel: string, socketId: string): LeaveOutcome {
		const sockets = this.subscribers.get(channel)
		if (sockets === undefined || !sockets.has(socketId)) {
			return { left: false, subscriptionCount: sockets?.size ?? 0, memberRemoved: undefined }
		}
		const userId = sockets.get(socketId)
		sockets.delete(socketId)
		if (sockets.size === 0) this.subscribers.delete(channel)
		let memberRemoved: PresenceMember | undefined
		const users = this.presence.get(channel)
		const user = userId === undefined ? undefined : users?.get(userId)
		if (users !== undefined && user !== undefined && userId !== undefined) {
			user.sockets -= 1
			if (user.sockets === 0) {
				users.delete(userId)
				memberRemoved = { user_id: userId }
				if (users.size === 0) this.presence.delete(channel)
			}
		}
		return { left: true, subscriptionCount: sockets.size, memberRemoved }
	}

	// Sockets that joined some presence channel as this user.
	memberSocketIds(userId: string): Set<string> {
		const found = new Set<string>()
		for (const channel of this.presence.keys()) {
			for (const [socketId, member] of this.subscribers.get(channel) ?? []) if (member === userId) found.add(socketId)
		}
		return found
	}

	socketIds(channel: string): Iterable<string> {
		return this.subscribers.get(channel)?.keys() ?? []
	}

	subscriptionCount(channel: string): number {
		return this.subscribers.get(channel)?.size ?? 0
	}

	userCount(channel: string): number {
		return this.presence.get(channel)?.size ?? 0
	}

	members(channel: string): Map<string, unknown> {
		const users = this.presence.get(channel)
		const members = new Map<string, unknown>()
		if (users !== undefined) for (const [id, user] of users) members.set(id, user.info)
		return members
	}

	names(): IterableIterator<string> {
		return this.subscribers.keys()
	}
}

export function parsePresenceMember(channelData: string): PresenceMember | undefined {
	let parsed: unknown
	try {
		parsed = JSON.parse(channelData)
	} catch {
		return undefined
	}
	if (typeof parsed !== 'object' || parsed === null || !('user_id' in parsed)) return undefined
	const { user_id: rawId } = parsed
	const userInfo = 'user_info' in parsed ? parsed.user_info : undefined
	if (typeof rawId === 'number' && Number.isFinite(rawId)) return { user_id: String(rawId), user_info: userInfo }
	if (typeof rawId === 'string' && rawId !== '') return { user_id: rawId, user_info: userInfo }
	return undefined
}
