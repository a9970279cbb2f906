import Pusher from 'pusher'
import { type Logger } from 'pino'
import { type RealtimeTarget } from '#config/realtime-config.ts'

export type Realtime = {
	/**
	 * Sends `event` to `channel` without delaying the caller: routes do not await it. The promise
	 * settles once the server answered or the failure was logged; it never rejects.
	 */
	publish: (channel: string, event: string, data: Record<string, unknown>) => Promise<void>
	/** Sends several events in one request (at most 10, Pusher's limit), delivered in their order; like `publish`, never rejects. */
	publishBatch: (events: Array<{ channel: string; event: string; data: Record<string, unknown> }>) => Promise<void>
	/** Sends `event` to every connection signed in as `userId` (`#server-to-user-{id}`); like `publish`, never rejects. */
	notifyUser: (userId: string, event: string, data: Record<string, unknown>) => Promise<void>
	/**
	 * The users of a presence channel as the realtime server lists them now (`GET /channels/{name}/users`), by id;
	 * null, after a warning, when it could not be asked (unreachable, or refused). Never rejects.
	 */
	channelUsers: (channel: string) => Promise<string[] | null>
	/** Closes the signed-in user's connections (they reconnect and are authorised afresh); never rejects. */
	terminateUserConnections: (userId: string) => Promise<void>
	/** Resolves once everything sent so far has settled (tests, shutdown), what `track` holds included. */
	flush: () => Promise<void>
	/** Work that will publish (reading what it sends first): `flush` waits for it too. Never rejects. */
	track: (work: Promise<unknown>) => Promise<void>
	/** Signs a channel subscription for a socket (private and presence channels). */
	authorizeChannel: (socketId: string, channel: string, presence?: Pusher.PresenceChannelData) => Pusher.ChannelAuthResponse
	/** Signs a user sign-in for a socket. */
	authenticateUser: (socketId: string, user: Pusher.UserChannelData) => Pusher.UserAuthResponse
	/** A webhook of the realtime server (Pusher's, Soketi's or ours), checked against the app's key and secret: its events, or null when it is not genuine. */
	verifyWebhook: (headers: Record<string, string | undefined>, rawBody: string) => { time: Date; events: ReturnType<Pusher.WebHook['getEvents']> } | null
}

function sdk(target: RealtimeTarget, timeoutMs: number): Pusher {
	return new Pusher({
		appId: target.appId,
		key: target.key,
		secret: target.secret,
		host: target.host,
		port: String(target.port),
		useTLS: target.useTLS,
		timeout: timeoutMs,
	})
}

/**
 * Publishing and signing with the official `pusher` SDK. `target` is read on every publish because
 * the embedded server's port is known only once this process listens.
 */
export function createRealtime(options: { target: () => RealtimeTarget; logger: Logger; timeoutMs?: number }): Realtime {
	const { target, logger } = options
	const timeoutMs = options.timeoutMs ?? 5000
	const signer = sdk(target(), timeoutMs)
	const pending = new Set<Promise<void>>()

	function hold(work: Promise<unknown>): Promise<void> {
		const settled = work.then(
			() => undefined,
			(error: unknown) => logger.warn({ err: error }, 'realtime publish failed'),
		)
		const held = settled.finally(() => pending.delete(held))
		pending.add(held)
		return held
	}

	function track(what: Record<string, unknown>, send: (pusher: Pusher) => Promise<unknown>): Promise<void> {
		const settled = Promise.resolve()
			.then(() => send(sdk(target(), timeoutMs)))
			.then(
				() => logger.debug(what, 'realtime event sent'),
				(error: unknown) => {
					const status = error instanceof Pusher.RequestError ? error.status : undefined
					logger.warn({ ...what, err: error, status }, 'realtime publish failed')
				},
			)
			.finally(() => pending.delete(settled))
		pending.add(settled)
		return settled
	}

	return {
		publish: (channel, event, data) => track({ channel, event }, (pusher) => pusher.trigger(channel, event, data)),
		publishBatch: (events) =>
			track({ channel: events[0]?.channel, events: events.map((entry) => entry.event) }, (pusher) =>
				pusher.triggerBatch(events.map(({ channel, event, data }) => ({ channel, name: event, data }))),
			),
		notifyUser: (userId, event, data) => track({ user: userId, event }, (pusher) => pusher.sendToUser(userId, event, data)),
		terminateUserConnections: (userId) => track({ terminate: userId }, (pusher) => pusher.terminateUserConnections(userId)),
		async channelUsers(channel) {
			try {
				const response = await sdk(target(), timeoutMs).get({ path: `/channels/${channel}/users` })
				const { users } = (await response.json()) as { users: Array<{ id: string }> }
				return users.map((user) => user.id)
			} catch (error) {
				const status = error instanceof Pusher.RequestError ? error.status : undefined
				logger.warn({ channel, err: error, status }, 'could not ask the realtime server for the users of a channel')
				return null
			}
		},
		track: hold,
		async flush() {
			while (pending.size > 0) await Promise.all(pending)
		},
		authorizeChannel: (socketId, channel, presence) => signer.authorizeChannel(socketId, channel, presence),
		authenticateUser: (socketId, user) => signer.authenticateUser(socketId, user),
		verifyWebhook(headers, rawBody) {
			const webhook = signer.webhook({ headers, rawBody })
			if (!webhook.isContentTypeValid() || !webhook.isValid()) return null
			const events = webhook.getEvents()
			return Array.isArray(events) ? { time: webhook.getTime(), events } : null
		},
	}
}

const nothing = async () => {}
/** Publishing to nobody: for work nobody watches while it runs (a job runner given no realtime, the seed). It signs nothing. */
export const silentRealtime: Realtime = {
	publish: nothing,
	publishBatch: nothing,
	notifyUser: nothing,
	terminateUserConnections: nothing,
	channelUsers: async () => null,
	flush: nothing,
	track: nothing,
	authorizeChannel: () => {
		throw new Error('a silent realtime signs no subscriptions')
	},
	authenticateUser: () => {
		throw new Error('a silent realtime signs no sign-ins')
	},
	verifyWebhook: () => null,
}
