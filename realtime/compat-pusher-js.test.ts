import { createServer } from 'node:http'
import { type AddressInfo } from 'node:net'
import PusherServer from 'pusher'
import PusherClient, { type Channel, type PresenceChannel } from 'pusher-js'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createRealtimeServer } from './index.ts'
import { ANY_CHANNEL, APP, next, RawClient, startServer, subscribed, type TestServer, withTimeout } from './test-support.ts'

// Compatibility with the official SDKs beyond realtime/pusher-js.test.ts: every channel type on one
// connection, end-to-end encryption, refused signatures as pusher-js sees them, presence across
// tabs, and a server restart.

const MASTER_KEY_BASE64 = Buffer.alloc(32, 7).toString('base64')

let server: TestServer
let sdk: PusherServer
const clients: PusherClient[] = []
const raws: RawClient[] = []

function sdkFor(port: number, secret = APP.secret): PusherServer {
	return new PusherServer({
		appId: APP.id,
		key: APP.key,
		secret,
		host: '127.0.0.1',
		port: String(port),
		useTLS: false,
		encryptionMasterKeyBase64: MASTER_KEY_BASE64,
	})
}

interface ClientOptions {
	port?: number
	userId?: string
	userInfo?: Record<string, unknown>
	// Replaces the signed answer to a channel authorisation request.
	forgeChannel?: (socketId: string, channel: string) => { auth: string; channel_data?: string }
	forgeUser?: (socketId: string) => { auth: string; user_data: string }
}

function client({ port = server.port, userId = 'user-1', userInfo = {}, forgeChannel, forgeUser }: ClientOptions = {}): PusherClient {
	const pusher = new PusherClient(APP.key, {
		cluster: 'local',
		wsHost: '127.0.0.1',
		wsPort: port,
		forceTLS: false,
		enabledTransports: ['ws'],
		disableStats: true,
		channelAuthorization: {
			customHandler: ({ socketId, channelName }, callback) => {
				if (forgeChannel) return callback(null, forgeChannel(socketId, channelName))
				const presence = channelName.startsWith('presence-')
				callback(null, sdk.authorizeChannel(socketId, channelName, presence ? { user_id: userId, user_info: userInfo } : undefined))
			},
		},
		userAuthentication: {
			customHandler: ({ socketId }, callback) => callback(null, forgeUser?.(socketId) ?? sdk.authenticateUser(socketId, { id: userId })),
		},
	})
	clients.push(pusher)
	return pusher
}

async function signedIn(pusher: PusherClient): Promise<void> {
	const success = next(pusher, 'pusher:signin_success')
	pusher.signin()
	await success
	await vi.waitFor(() => expect(pusher.user.serverToUserChannel?.subscribed).toBe(true))
}

// Records every event of a channel so that an absence can be asserted after a later marker event.
function record(channel: Channel): string[] {
	const seen: string[] = []
	channel.bind_global((event: string) => {
		if (!event.startsWith('pusher')) seen.push(event)
	})
	return seen
}

beforeAll(async () => {
	server = await startServer()
	sdk = sdkFor(server.port)
})

afterEach(async () => {
	for (const pusher of clients.splice(0)) pusher.disconnect()
	await Promise.all(raws.splice(0).map((raw) => raw.close()))
})

afterAll(async () => {
	await server.close()
})

describe('every channel type with pusher-js and the pusher SDK', () => {
	it('subscribes one connection to public, private, encrypted, presence and cache channels and receives SDK events on each', async () => {
		const pusher = client({ userId: 'all-types' })
		const names = [
			'compat-public',
			'private-compat',
			'private-encrypted-compat',
			'presence-compat',
			'cache-compat',
			'private-cache-compat',
			'presence-cache-compat',
		]
		const channels = await Promise.all(names.map((name) => subscribed(pusher.subscribe(name))))
		for (const channel of channels) {
			const received = next(channel, 'compat.event')
			await sdk.trigger(channel.name, 'compat.event', { on: channel.name })
			expect(await received).toEqual({ on: channel.name })
		}
		const { channels: occupied } = (await (await sdk.get({ path: '/channels' })).json()) as { channels: Record<string, unknown> }
		expect(Object.keys(occupied).sort()).toEqual(expect.arrayContaining([...names].sort()))
	})

	it('decrypts private-encrypted events in pusher-js while the server relays only ciphertext', async () => {
		const pusher = client()
		const channel = await subscribed(pusher.subscribe('private-encrypted-plans'))
		const observer = await RawClient.connect(server.port)
		raws.push(observer)
		await observer.subscribe('private-encrypted-plans', { auth: sdk.authorizeChannel(observer.socketId, 'private-encrypted-plans').auth })
		const decrypted = next(channel, 'plan')
		await sdk.trigger('private-encrypted-plans', 'plan', { text: 'launch on friday' })
		expect(await decrypted).toEqual({ text: 'launch on friday' })
		expect((await observer.next('plan')).data).toEqual({ ciphertext: expect.any(String), nonce: expect.any(String) })
		expect(observer.raw.join('')).not.toContain('friday')
	})

	it('stops delivering after pusher-js unsubscribes and reports the channel vacant', async () => {
		const pusher = client()
		const channel = await subscribed(pusher.subscribe('private-leaving'))
		const seen = record(channel)
		pusher.unsubscribe('private-leaving')
		await vi.waitFor(async () => {
			const info = (await (await sdk.get({ path: '/channels/private-leaving' })).json()) as { occupied: boolean }
			expect(info.occupied).toBe(false)
		})
		await sdk.trigger('private-leaving', 'late', {})
		const marker = await subscribed(pusher.subscribe('marker-after-leaving'))
		const markerSeen = next(marker, 'marker')
		await sdk.trigger('marker-after-leaving', 'marker', {})
		await markerSeen
		expect(seen).toEqual([])
	})

	it('leaves out the socket the SDK names as socket_id', async () => {
		const actor = client()
		const viewer = client()
		const actorChannel = await subscribed(actor.subscribe('private-excluding'))
		const viewerChannel = await subscribed(viewer.subscribe('private-excluding'))
		const actorSeen = record(actorChannel)
		const viewerGot = next(viewerChannel, 'changed')
		await sdk.trigger('private-excluding', 'changed', { by: 'actor' }, { socket_id: actor.connection.socket_id })
		expect(await viewerGot).toEqual({ by: 'actor' })
		const marker = next(actorChannel, 'marker')
		await sdk.trigger('private-excluding', 'marker', {})
		await marker
		expect(actorSeen).toEqual(['marker'])
	})
})

describe('refused signatures as pusher-js sees them', () => {
	it('refuses presence channel_data that the signature does not cover', async () => {
		const pusher = client({
			forgeChannel: (socketId, channel) => ({
				auth: sdk.authorizeChannel(socketId, channel, { user_id: 'guest' }).auth,
				channel_data: JSON.stringify({ user_id: 'admin' }),
			}),
		})
		const error = next(pusher.subscribe('presence-board'), 'pusher:subscription_error')
		expect(await error).toEqual({ type: 'AuthError', error: expect.any(String), status: 401 })
	})

	it('refuses a private signature made for another socket', async () => {
		const pusher = client({ forgeChannel: (_socketId, channel) => sdk.authorizeChannel('1.1', channel) })
		const error = next(pusher.subscribe('private-stolen'), 'pusher:subscription_error')
		expect(await error).toEqual({ type: 'AuthError', error: expect.any(String), status: 401 })
		expect(pusher.connection.state).toBe('connected')
	})

	it('closes a forged sign-in with 4009, which pusher-js treats as final', async () => {
		const pusher = client({ forgeUser: (socketId) => ({ ...sdk.authenticateUser(socketId, { id: 'guest' }), user_data: '{"id":"admin"}' }) })
		await subscribed(pusher.subscribe('before-signin'))
		const error = next<{ data: { code: number } }>(pusher.connection, 'error')
		const disconnected = next(pusher.connection, 'disconnected')
		pusher.signin()
		expect((await error).data.code).toBe(4009)
		await disconnected
		expect(pusher.connection.state).toBe('disconnected')
		await new Promise((resolve) => setTimeout(resolve, 100))
		expect(pusher.connection.state).toBe('disconnected')
	})

	it('answers the SDK with 401 when it signs with the wrong secret', async () => {
		const impostor = sdkFor(server.port, 'not-the-secret')
		await expect(impostor.trigger('compat-public', 'e', {})).rejects.toMatchObject({ status: 401 })
		await expect(impostor.get({ path: '/channels' })).rejects.toMatchObject({ status: 401 })
		await expect(impostor.terminateUserConnections('anyone')).rejects.toMatchObject({ status: 401 })
	})
})

describe('presence and client events with pusher-js', () => {
	it('counts a user once across two connections and removes them with the last one', async () => {
		const observer = client({ userId: 'observer' })
		const channel = await subscribed(observer.subscribe('presence-tabs') as PresenceChannel)
		const added: unknown[] = []
		const removed: unknown[] = []
		channel.bind('pusher:member_added', (member: unknown) => added.push(member))
		channel.bind('pusher:member_removed', (member: unknown) => removed.push(member))
		const firstTab = client({ userId: 'agent', userInfo: { name: 'Agent' } })
		const secondTab = client({ userId: 'agent', userInfo: { name: 'Agent' } })
		await subscribed(firstTab.subscribe('presence-tabs'))
		const both = (await subscribed(secondTab.subscribe('presence-tabs') as PresenceChannel)).members
		expect(both.count).toBe(2)
		firstTab.disconnect()
		await vi.waitFor(() => expect(server.realtime.connectionCount()).toBe(2))
		const marker = next(channel, 'marker')
		await sdk.trigger('presence-tabs', 'marker', {})
		await marker
		expect(added).toEqual([{ id: 'agent', info: { name: 'Agent' } }])
		expect(removed).toEqual([])
		const gone = next(channel, 'pusher:member_removed')
		secondTab.disconnect()
		expect(await gone).toEqual({ id: 'agent', info: { name: 'Agent' } })
		expect(channel.members.count).toBe(1)
		const users = (await (await sdk.get({ path: '/channels/presence-tabs/users' })).json()) as { users: Array<{ id: string }> }
		expect(users.users).toEqual([{ id: 'observer' }])
	})

	it('passes the sender user_id with client events on presence channels', async () => {
		const alice = client({ userId: 'alice' })
		const bob = client({ userId: 'bob' })
		const aliceChannel = await subscribed(alice.subscribe('presence-typing') as PresenceChannel)
		const bobChannel = await subscribed(bob.subscribe('presence-typing') as PresenceChannel)
		const received = withTimeout(
			new Promise((resolve) => {
				bobChannel.bind('client-typing', (data: unknown, metadata: unknown) => resolve({ data, metadata }))
			}),
			3000,
			'client-typing',
		)
		expect(aliceChannel.trigger('client-typing', { typing: true })).toBe(true)
		expect(await received).toEqual({ data: { typing: true }, metadata: { user_id: 'alice' } })
	})

	it('refuses client events on public channels without dropping the connection', async () => {
		const pusher = client()
		const channel = await subscribed(pusher.subscribe('public-chatter'))
		const error = next<{ data: { code: number } }>(pusher.connection, 'error')
		channel.trigger('client-hello', {})
		expect((await error).data.code).toBe(4300)
		expect(pusher.connection.state).toBe('connected')
	})
})

describe('a server restart', () => {
	// A second server that can come back on the same port, as the app process does after a restart.
	async function listen(port: number): Promise<{ port: number; close(): Promise<void> }> {
		const realtime = createRealtimeServer({ apps: [APP], channelNames: ANY_CHANNEL })
		const http = createServer((req, res) => realtime.httpHandler(req, res, () => res.writeHead(404).end()))
		http.on('upgrade', (req, socket, head) => {
			if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
		})
		await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve))
		return {
			port: (http.address() as AddressInfo).port,
			async close() {
				await realtime.close()
				http.closeAllConnections()
				await new Promise<void>((resolve) => http.close(() => resolve()))
			},
		}
	}

	it('reconnects pusher-js, resubscribes every channel and signs in again once the port is back', async () => {
		let current = await listen(0)
		try {
			const pusher = client({ port: current.port, userId: 'returning', userInfo: { name: 'Returning' } })
			const names = ['restart-public', 'private-restart', 'presence-restart']
			const channels = await Promise.all(names.map((name) => subscribed(pusher.subscribe(name))))
			await signedIn(pusher)
			const firstSocketId = pusher.connection.socket_id
			const states: string[] = []
			pusher.connection.bind('state_change', ({ current: state }: { current: string }) => states.push(state))
			const resubscribed = Promise.all(channels.map((channel) => next(channel, 'pusher:subscription_succeeded', 5000)))
			const signedInAgain = next(pusher, 'pusher:signin_success', 5000)
			const reconnected = next(pusher.connection, 'connected', 5000)

			// pusher-js retries a refused connection only after its 15 s transport timeout: a fake clock skips the
			// wait, and keeps running with real time since pusher-js defers every send with setTimeout(0).
			vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
			try {
				// Shutdown sends 4200 (reconnect now); the immediate retry finds the port closed.
				await current.close()
				await vi.advanceTimersByTimeAsync(2000)
				current = await listen(current.port)
				await vi.advanceTimersByTimeAsync(15_000)
				await Promise.all([reconnected, resubscribed, signedInAgain])
				// Switching back drops pending fake timers, such as the deferred subscription of the new user channel.
				await vi.waitFor(() => expect(pusher.user.serverToUserChannel?.subscribed).toBe(true))
			} finally {
				vi.useRealTimers()
			}

			expect(states).toEqual(expect.arrayContaining(['connecting', 'unavailable']))
			expect(states.at(-1)).toBe('connected')
			expect(pusher.connection.socket_id).not.toBe(firstSocketId)
			const restarted = sdkFor(current.port)
			for (const channel of channels) {
				const received = next(channel, 'after-restart')
				await restarted.trigger(channel.name, 'after-restart', { on: channel.name })
				expect(await received).toEqual({ on: channel.name })
			}
			expect((channels[2] as PresenceChannel).members.me).toEqual({ id: 'returning', info: { name: 'Returning' } })
			const notified = next(pusher.user, 'welcome-back')
			await restarted.sendToUser('returning', 'welcome-back', {})
			await notified
		} finally {
			for (const pusher of clients.splice(0)) pusher.disconnect()
			await current.close()
		}
	})
})
