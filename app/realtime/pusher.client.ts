import type Pusher from 'pusher-js'
import { type Options, type PresenceChannel } from 'pusher-js'
import { type RealtimeBrowserConfig } from '#common/realtime.ts'
import { type RealtimeSession } from './config.ts'
import { setConnectionState, type ConnectionState } from './connection-state.ts'

/**
 * The browser's realtime connection (pusher-js). pusher-js itself does what section 4 of
 * docs/specification.txt describes: on connecting or disconnected every channel is marked disconnected, on
 * connected every channel is subscribed again, a subscription can be pending, cancelled and
 * reinstated, and a sign-in succeeds only when the user data has a non-empty string id, after which
 * `#server-to-user-{id}` is subscribed. This module adds one connection per page and user, shared
 * subscriptions, a retry after the server refused us, and logging: realtime failures are only logged.
 */

export type ChannelListener = {
	/**
	 * An event published on the channel (pusher's own events are left out). For a client event (`client-…`),
	 * `sender` is the user id the realtime server stamped on it (`user_id`): the only word on who sent it, since
	 * its data says whatever the sender wrote. Undefined for the server's events and for senders nobody vouched for.
	 */
	onEvent?: (event: string, data: unknown, sender?: string) => void
	/** The channel was subscribed again after the connection dropped: events may have been missed. */
	onResubscribed?: () => void
	/** The channel is subscribed (at once when it already was): client events may be sent on it from now. */
	onSubscribed?: () => void
	/**
	 * A presence channel's members, all of them, whenever they change: on subscribing (at once when already
	 * subscribed), when someone joins or leaves, and none while the connection is down (they are unknown then).
	 * This page's user is among them; `info` is the `user_info` the app signed for each.
	 */
	onMembers?: (members: PresenceMember[]) => void
}

export type PresenceMember = { id: string; info: unknown }

export type RealtimeClient = {
	pusher: Pusher
	/** Subscribes (shared with other listeners of the same channel); the returned function leaves. */
	subscribe: (channelName: string, listener: ChannelListener) => () => void
	/** Disconnects for good. */
	close: () => void
}

// pusher-js stops for good after a refusal (close codes 4000–4099, e.g. 4009 when the server ended our connections).
const retryDelaysMs = [2_000, 5_000, 15_000, 30_000, 60_000]
// A page that leaves the dashboard keeps the connection this long, so navigating back reuses it.
const idleCloseMs = 15_000

/** A connection with the given configuration; `options` override pusher-js's (tests authorise differently). */
export async function createRealtimeClient(config: RealtimeBrowserConfig, options: Partial<Options> = {}): Promise<RealtimeClient | null> {
	if (!config.key) {
		console.error('Realtime is off: no Pusher app key is configured (PUSHER_KEY).')
		return null
	}
	const { default: PusherJs } = await import('pusher-js')
	const pusher = new PusherJs(config.key, {
		cluster: config.cluster,
		forceTLS: config.forceTLS,
		...(config.wsHost === null ? {} : { wsHost: config.wsHost, wsPort: config.wsPort ?? undefined, wssPort: config.wsPort ?? undefined }),
		enabledTransports: ['ws', 'wss'],
		enableStats: false,
		channelAuthorization: { endpoint: '/realtime/auth', transport: 'ajax' },
		userAuthentication: { endpoint: '/realtime/user-auth', transport: 'ajax' },
		...options,
	})
	let closed = false
	let retries = 0
	let retry: ReturnType<typeof setTimeout> | undefined

	pusher.connection.bind('state_change', ({ current }: { previous: string; current: string }) => {
		setConnectionState(current as ConnectionState)
		if (current === 'connected') retries = 0
		if (current === 'unavailable' || current === 'failed') console.warn(`Realtime connection ${current}: retrying in the background.`)
		if (current === 'disconnected' && !closed) {
			clearTimeout(retry)
			retry = setTimeout(() => pusher.connect(), retryDelaysMs[Math.min(retries, retryDelaysMs.length - 1)])
			retries += 1
		}
	})
	pusher.connection.bind('error', (error: unknown) => console.warn('Realtime connection error', error))
	pusher.user.bind('pusher:signin_error', (error: unknown) => console.warn('Realtime sign-in failed', error))
	pusher.signin()

	const listeners = new Map<string, number>()
	const logRefusal = (channelName: string) => (error: unknown) => console.warn(`Realtime subscription to ${channelName} refused`, error)
	const refusalLoggers = new Map<string, (error: unknown) => void>()

	return {
		pusher,
		subscribe(channelName, listener) {
			const channel = pusher.subscribe(channelName)
			const count = listeners.get(channelName) ?? 0
			listeners.set(channelName, count + 1)
			if (count === 0) {
				const logger = logRefusal(channelName)
				refusalLoggers.set(channelName, logger)
				channel.bind('pusher:subscription_error', logger)
			}
			const presence = channelName.startsWith('presence-')
			const members = () => {
				const found: PresenceMember[] = []
				const { members: present } = channel as PresenceChannel
				present.each((member: PresenceMember) => found.push({ id: member.id, info: member.info }))
				return found
			}
			let subscribedBefore = channel.subscribed
			if (subscribedBefore) {
				listener.onSubscribed?.()
				if (presence) listener.onMembers?.(members())
			}
			const handle = (event: string, data: unknown) => {
				if (event === 'pusher:subscription_succeeded') {
					if (subscribedBefore) listener.onResubscribed?.()
					subscribedBefore = true
					listener.onSubscribed?.()
					if (presence) listener.onMembers?.(members())
				} else if (event === 'pusher:member_added' || event === 'pusher:member_removed') {
					if (presence) listener.onMembers?.(members())
				} else if (!event.startsWith('pusher:') && !event.startsWith('pusher_internal:') && !event.startsWith('client-')) {
					listener.onEvent?.(event, data)
				}
			}
			// pusher-js forgets a presence channel's members when the connection drops, without a word: say so, since
			// who was there may leave unseen until the subscription is made again (which lists them afresh).
			const dropped = ({ current }: { current: string }) => {
				if (presence && current !== 'connected') listener.onMembers?.([])
			}
			// pusher-js hands a client event's user_id to presence channels' bind() only: read it from the frame itself.
			const fromPeer = (frame: { event: string; channel?: string; data?: unknown; user_id?: string }) => {
				if (frame.channel === channelName && frame.event.startsWith('client-')) listener.onEvent?.(frame.event, frame.data, frame.user_id)
			}
			channel.bind_global(handle)
			pusher.connection.bind('message', fromPeer)
			pusher.connection.bind('state_change', dropped)
			let subscribed = true
			return () => {
				if (!subscribed) return
				subscribed = false
				channel.unbind_global(handle)
				pusher.connection.unbind('message', fromPeer)
				pusher.connection.unbind('state_change', dropped)
				const left = (listeners.get(channelName) ?? 1) - 1
				if (left > 0) {
					listeners.set(channelName, left)
					return
				}
				listeners.delete(channelName)
				channel.unbind('pusher:subscription_error', refusalLoggers.get(channelName))
				refusalLoggers.delete(channelName)
				pusher.unsubscribe(channelName)
			}
		},
		close() {
			closed = true
			clearTimeout(retry)
			pusher.disconnect()
		},
	}
}

type Shared = { identity: string; client: Promise<RealtimeClient | null>; leases: number; idle?: ReturnType<typeof setTimeout> }
let shared: Shared | undefined

function sharedFor(session: RealtimeSession): Shared {
	const identity = JSON.stringify([session.userId, session.config])
	if (shared?.identity === identity) return shared
	// Another user signed in on this page: the old connection was signed in as someone else.
	if (shared) closeShared(shared)
	const client = createRealtimeClient(session.config).catch((error: unknown) => {
		console.warn('Realtime could not start', error)
		return null
	})
	shared = { identity, client, leases: 0 }
	return shared
}

function closeShared(entry: Shared) {
	clearTimeout(entry.idle)
	if (shared === entry) shared = undefined
	void entry.client.then((client) => client?.close())
}

/**
 * Sends a client event (`client-…`) on a channel this page listens to; false when it is not
 * subscribed (yet), as pusher-js answers. Other members of the channel receive it, never the sender.
 */
export function sendClientEvent(channelName: string, event: `client-${string}`, data: Record<string, unknown>): Promise<boolean> {
	if (!shared) return Promise.resolve(false)
	return shared.client.then((client) => {
		const channel = client?.pusher.channel(channelName)
		return channel?.subscribed ? channel.trigger(event, data) : false
	})
}

/**
 * Holds the page's one connection for this user while `use` is in effect (created on first use and
 * closed a while after the last holder left); `use` returns how to stop. Returns the function that stops.
 */
function lease(session: RealtimeSession, use: (client: RealtimeClient) => () => void): () => void {
	const entry = sharedFor(session)
	entry.leases += 1
	clearTimeout(entry.idle)
	let stop: (() => void) | undefined
	let held = true
	void entry.client.then((client) => {
		if (held && client) stop = use(client)
	})
	return () => {
		if (!held) return
		held = false
		stop?.()
		entry.leases -= 1
		if (entry.leases === 0) entry.idle = setTimeout(() => closeShared(entry), idleCloseMs)
	}
}

/** Listens to `channelName` on the page's one connection for this user. Returns the function that stops listening. */
export function listen(session: RealtimeSession, channelName: string, listener: ChannelListener): () => void {
	return lease(session, (client) => client.subscribe(channelName, listener))
}

/** Listens to `event` on the user's own channel (`#server-to-user-{id}`, after sign-in). Returns the function that stops. */
export function listenAsUser(session: RealtimeSession, event: string, handler: (data: unknown) => void): () => void {
	return lease(session, (client) => {
		client.pusher.user.bind(event, handler)
		return () => client.pusher.user.unbind(event, handler)
	})
}
