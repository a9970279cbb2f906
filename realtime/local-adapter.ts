import { type Adapter, type AdapterSocket, type ChannelStats, type JoinOptions } from './adapter.ts'
import { channelKind, type JoinOutcome, type LeaveOutcome, userChannel } from './channels.ts'
import { CloseCode } from './protocol.ts'
import { Namespace } from './namespace.ts'

const CACHE_PRUNE_INTERVAL_MS = 60_000

export class LocalAdapter implements Adapter {
	private readonly namespaces = new Map<string, Namespace>()
	private readonly pruneTimer: NodeJS.Timeout

	constructor() {
		this.pruneTimer = setInterval(() => this.prune(), CACHE_PRUNE_INTERVAL_MS)
		this.pruneTimer.unref()
	}

	private namespace(appId: string): Namespace {
		let namespace = this.namespaces.get(appId)
		if (namespace === undefined) {
			namespace = new Namespace()
			this.namespaces.set(appId, namespace)
		}
		return namespace
	}

	private prune(): void {
		for (const [appId, namespace] of this.namespaces) {
			namespace.pruneCache()
			if (namespace.isEmpty) this.namespaces.delete(appId)
		}
	}

	async addSocket(appId: string, socket: AdapterSocket): Promise<void> {
		this.namespace(appId).sockets.set(socket.id, socket)
	}

	async removeSocket(appId: string, socketId: string): Promise<void> {
		this.namespaces.get(appId)?.sockets.delete(socketId)
	}

	async connectionCount(appId: string): Promise<number> {
		return this.namespaces.get(appId)?.sockets.size ?? 0
	}

	async join(appId: string, socket: AdapterSocket, channel: string, options: JoinOptions = {}): Promise<JoinOutcome> {
		return this.namespace(appId).channels.join(channel, socket.id, options.member, options.maxPresenceMembers)
	}

	async leave(appId: string, socketId: string, channel: string): Promise<LeaveOutcome> {
		const namespace = this.namespaces.get(appId)
		if (namespace === undefined) return { left: false, subscriptionCount: 0, memberRemoved: undefined }
		return namespace.channels.leave(channel, socketId)
	}

	async publish(appId: string, channel: string, payload: string, exceptSocketId?: string): Promise<void> {
		this.namespaces.get(appId)?.broadcast(channel, payload, exceptSocketId)
	}

	async channels(appId: string): Promise<Map<string, ChannelStats>> {
		const result = new Map<string, ChannelStats>()
		const namespace = this.namespaces.get(appId)
		if (namespace === undefined) return result
		for (const name of namespace.channels.names()) result.set(name, this.stats(namespace, name))
		return result
	}

	async channel(appId: string, channel: string): Promise<ChannelStats> {
		const namespace = this.namespaces.get(appId)
		if (namespace === undefined) return channelKind(channel) === 'presence' ? { subscriptionCount: 0, userCount: 0 } : { subscriptionCount: 0 }
		return this.stats(namespace, channel)
	}

	private stats(namespace: Namespace, channel: string): ChannelStats {
		const subscriptionCount = namespace.channels.subscriptionCount(channel)
		if (channelKind(channel) !== 'presence') return { subscriptionCount }
		return { subscriptionCount, userCount: namespace.channels.userCount(channel) }
	}

	async presenceMembers(appId: string, channel: string): Promise<Map<string, unknown>> {
		return this.namespaces.get(appId)?.channels.members(channel) ?? new Map<string, unknown>()
	}

	async terminateUserConnections(appId: string, userId: string): Promise<void> {
		const namespace = this.namespaces.get(appId)
		if (namespace === undefined) return
		// Signed in as the user, or a presence member as them (the app vouched for both): a socket that
		// joined the app's presence channel without signing in must not outlive its user's removal either.
		const socketIds = new Set([...namespace.channels.socketIds(userChannel(userId)), ...namespace.channels.memberSocketIds(userId)])
		for (const socketId of socketIds) {
			namespace.sockets.get(socketId)?.terminate(CloseCode.Unauthorized, 'Connection terminated by the app')
		}
	}

	async getCachedEvent(appId: string, channel: string): Promise<string | undefined> {
		return this.namespaces.get(appId)?.cached(channel)
	}

	async setCachedEvent(appId: string, channel: string, payload: string, ttlSeconds: number): Promise<void> {
		this.namespace(appId).cacheEvent(channel, payload, ttlSeconds)
	}

	async close(): Promise<void> {
		clearInterval(this.pruneTimer)
		this.namespaces.clear()
	}
}
