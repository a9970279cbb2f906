import { type JoinOutcome, type LeaveOutcome, type PresenceMember } from './channels.ts'

// What an adapter needs from a connection it holds: a way to deliver frames and to end it.
export interface AdapterSocket {
	readonly id: string
	readonly userId: string | undefined
	send(payload: string): void
	terminate(code: number, message: string): void
}

export interface ChannelStats {
	subscriptionCount: number
	// Present for presence channels only.
	userCount?: number
}

export interface JoinOptions {
	member?: PresenceMember
	maxPresenceMembers?: number
}

// Everything that would have to cross process boundaries in a multi-node setup goes through
// an Adapter; LocalAdapter keeps it in memory. Payloads are pre-serialised protocol frames.
export interface Adapter {
	addSocket(appId: string, socket: AdapterSocket): Promise<void>
	removeSocket(appId: string, socketId: string): Promise<void>
	connectionCount(appId: string): Promise<number>
	join(appId: string, socket: AdapterSocket, channel: string, options?: JoinOptions): Promise<JoinOutcome>
	leave(appId: string, socketId: string, channel: string): Promise<LeaveOutcome>
	publish(appId: string, channel: string, payload: string, exceptSocketId?: string): Promise<void>
	channels(appId: string): Promise<Map<string, ChannelStats>>
	channel(appId: string, channel: string): Promise<ChannelStats>
	presenceMembers(appId: string, channel: string): Promise<Map<string, unknown>>
	// Closes (4009) the sockets signed in as the user and those that joined a presence channel as them.
	terminateUserConnections(appId: string, userId: string): Promise<void>
	getCachedEvent(appId: string, channel: string): Promise<string | undefined>
	setCachedEvent(appId: string, channel: string, payload: string, ttlSeconds: number): Promise<void>
	close(): Promise<void>
}
