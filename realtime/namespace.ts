import { type AdapterSocket } from './adapter.ts'
import { ChannelRegistry } from './channels.ts'

interface CachedEvent {
	payload: string
	expiresAt: number
}

// The in-process state of one app: its sockets, its channels and its cache-channel events.
export class Namespace {
	readonly sockets = new Map<string, AdapterSocket>()
	readonly channels = new ChannelRegistry()
	private readonly cache = new Map<string, CachedEvent>()

	constructor(private readonly now: () => number = Date.now) {}

	broadcast(channel: string, payload: string, exceptSocketId?: string): void {
		for (const socketId of this.channels.socketIds(channel)) {
			if (socketId === exceptSocketId) continue
			this.sockets.get(socketId)?.send(payload)
		}
	}

	cached(channel: string): string | undefined {
		const entry = this.cache.get(channel)
		if (entry === undefined) return undefined
		if (entry.expiresAt <= this.now()) {
			this.cache.delete(channel)
			return undefined
		}
		return entry.payload
	}

	cacheEvent(channel: string, payload: string, ttlSeconds: number): void {
		this.cache.set(channel, { payload, expiresAt: this.now() + ttlSeconds * 1000 })
	}

	pruneCache(): void {
		const now = this.now()
		for (const [channel, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(channel)
	}

	get isEmpty(): boolean {
		return this.sockets.size === 0 && this.cache.size === 0
	}
}
