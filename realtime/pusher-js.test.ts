import type PusherServer from 'pusher'
import PusherClient, { type PresenceChannel } from 'pusher-js'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { APP, next, startServer, subscribed, type TestServer, withTimeout } from './test-support.ts'

let server: TestServer
let keepaliveServer: TestServer
let sdk: PusherServer
const clients: PusherClient[] = []

interface ClientOptions {
	userId?: string
	userInfo?: Record<string, unknown>
	badAuth?: boolean
	port?: number
}

function client({ userId = 'user-1', userInfo = {}, badAuth = false, port = server.port }: ClientOptions = {}): PusherClient {
	const pusher = new PusherClient(APP.key, {
		cluster: 'local',
		wsHost: '127.0.0.1',
		wsPort: port,
		forceTLS: false,
		enabledTransports: ['ws'],
		disableStats: true,
		channelAuthorization: {
			customHandler: ({ socketId, channelName }, callback) => {
				if (badAuth) {
					callback(null, { auth: `${APP.key}:${'0'.repeat(64)}` })
					return
				}
				const presence = channelName.startsWith('presence-')
				callback(null, sdk.authorizeChannel(socketId, channelName, presence ? { user_id: userId, user_info: userInfo } : undefined))
			},
		},
		userAuthentication: {
			customHandler: ({ socketId }, callback) => callback(null, sdk.authenticateUser(socketId, { id: userId })),
		},
	})
	clients.push(pusher)
	return pusher
}

function connected(pusher: PusherClient): Promise<void> {
	if (pusher.connection.state === 'connected') return Promise.resolve()
	return withTimeout(new Promise<void>((resolve) => pusher.connection.bind('connected', () => resolve())), 3000, 'pusher-js to connect')
}

beforeAll(async () => {
	server = await startServer()
	keepaliveServer = await startServer({ activityTimeoutSeconds: 0.1, pongTimeoutSeconds: 0.5 })
	sdk = server.sdk()
})

afterEach(() => {
	for (const pusher of clients.splice(0)) pusher.disconnect()
})

afterAll(async () => {
	await Promise.all([server.close(), keepaliveServer.close()])
})

describe('pusher-js against the embedded server', () => {
	it('connects over ws and receives a socket id', async () => {
		const pusher = client()
		await connected(pusher)
		expect(pusher.connection.socket_id).toMatch(/^\d+\.\d+$/)
	})

	it('receives events triggered with the server SDK on a public channel', async () => {
		const pusher = client()
		const channel = await subscribed(pusher.subscribe('tickets'))
		const received = next(channel, 'ticket.updated')
		await sdk.trigger('tickets', 'ticket.updated', { id: 'T-1', status: 'open' })
		expect(await received).toEqual({ id: 'T-1', status: 'open' })
	})

	it('authorizes private channels and relays client events without echo', async () => {
		const alice = client()
		const bob = client()
		const aliceChannel = await subscribed(alice.subscribe('private-conversation-1'))
		const bobChannel = await subscribed(bob.subscribe('private-conversation-1'))
		const echoed = vi.fn()
		aliceChannel.bind('client-typing', echoed)
		const received = next(bobChannel, 'client-typing')
		expect(aliceChannel.trigger('client-typing', { typing: true })).toBe(true)
		expect(await received).toEqual({ typing: true })
		const marker = next(aliceChannel, 'marker')
		await sdk.trigger('private-conversation-1', 'marker', {})
		await marker
		expect(echoed).not.toHaveBeenCalled()
	})

	it('reports a failed authorization as pusher:subscription_error with status 401', async () => {
		const pusher = client({ badAuth: true })
		const error = next(pusher.subscribe('private-secret'), 'pusher:subscription_error')
		expect(await error).toEqual({ type: 'AuthError', error: expect.any(String), status: 401 })
	})

	it('tracks presence members across clients', async () => {
		const agent = client({ userId: 'agent', userInfo: { name: 'Agent' } })
		const customer = client({ userId: 'customer', userInfo: { name: 'Customer' } })
		const agentChannel = await subscribed(agent.subscribe('presence-ticket-9') as PresenceChannel)
		expect(agentChannel.members.count).toBe(1)
		expect(agentChannel.members.me).toEqual({ id: 'agent', info: { name: 'Agent' } })
		const added = next(agentChannel, 'pusher:member_added')
		const customerChannel = await subscribed(customer.subscribe('presence-ticket-9') as PresenceChannel)
		expect(await added).toEqual({ id: 'customer', info: { name: 'Customer' } })
		expect(customerChannel.members.count).toBe(2)
		const removed = next(agentChannel, 'pusher:member_removed')
		customer.disconnect()
		expect(await removed).toEqual({ id: 'customer', info: { name: 'Customer' } })
		expect(agentChannel.members.count).toBe(1)
	})

	it('signs users in and delivers sendToUser() to them', async () => {
		const pusher = client({ userId: 'agent-7' })
		const signedIn = next(pusher, 'pusher:signin_success')
		pusher.signin()
		await signedIn
		await vi.waitFor(() => expect(pusher.user.serverToUserChannel?.subscribed).toBe(true))
		const notified = next<{ text: string }>(pusher.user, 'notification')
		await sdk.sendToUser('agent-7', 'notification', { text: 'You were assigned a ticket' })
		expect(await notified).toEqual({ text: 'You were assigned a ticket' })
	})

	it('disconnects a signed-in user on terminateUserConnections()', async () => {
		const pusher = client({ userId: 'fired' })
		const signedIn = next(pusher, 'pusher:signin_success')
		pusher.signin()
		await signedIn
		const error = next<{ data: { code: number } }>(pusher.connection, 'error')
		const disconnected = next(pusher.connection, 'disconnected')
		await sdk.terminateUserConnections('fired')
		expect((await error).data.code).toBe(4009)
		await disconnected
	})

	it('replays the cached event of a cache channel and signals cache misses', async () => {
		const pusher = client()
		const missed = next(pusher.subscribe('cache-empty'), 'pusher:cache_miss')
		await missed
		await sdk.trigger('cache-status', 'status', { online: 3 })
		const replayed = next(pusher.subscribe('cache-status'), 'status')
		expect(await replayed).toEqual({ online: 3 })
	})

	it('keeps the connection alive through ping/pong exchanges', async () => {
		const pusher = client({ port: keepaliveServer.port })
		await connected(pusher)
		const socketId = pusher.connection.socket_id
		let keepalives = 0
		const threeKeepalives = withTimeout(
			new Promise<void>((resolve) => {
				pusher.connection.bind('message', (message: { event: string }) => {
					if (message.event === 'pusher:ping' || message.event === 'pusher:pong') keepalives += 1
					if (keepalives === 3) resolve()
				})
			}),
			3000,
			'three keepalive frames',
		)
		await threeKeepalives
		expect(pusher.connection.state).toBe('connected')
		expect(pusher.connection.socket_id).toBe(socketId)
	})
})
