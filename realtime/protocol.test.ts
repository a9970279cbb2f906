import type PusherServer from 'pusher'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { signUser } from './signature.ts'
import { APP, type Frame, RawClient, startServer, type TestServer } from './test-support.ts'

const LIMITED = { id: '2002', key: 'limited-key', secret: 'limited-secret', maxConnections: 1 }
const DISABLED = { id: '3003', key: 'disabled-key', secret: 'disabled-secret', enabled: false }
const SMALL_ROOMS = { id: '4004', key: 'small-key', secret: 'small-secret', maxPresenceMembers: 2 }

let server: TestServer
let sdk: PusherServer
const clients: RawClient[] = []

async function connect(path?: string): Promise<RawClient> {
	const client = await RawClient.connect(server.port, path)
	clients.push(client)
	return client
}

function open(path: string): RawClient {
	const client = RawClient.open(server.port, path)
	clients.push(client)
	return client
}

async function subscribePresence(client: RawClient, channel: string, userId: string, info: Record<string, unknown> = {}): Promise<Frame> {
	return client.subscribe(channel, sdk.authorizeChannel(client.socketId, channel, { user_id: userId, user_info: info }))
}

beforeAll(async () => {
	server = await startServer({ apps: [APP, LIMITED, DISABLED, SMALL_ROOMS], maxMessageBytes: 4096 })
	sdk = server.sdk()
})

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()))
})

afterAll(async () => {
	await server.close()
})

describe('connection handshake', () => {
	it('sends connection_established with a socket id and the activity timeout as a JSON string', async () => {
		const client = await connect()
		const raw = JSON.parse(client.raw[0] ?? '{}') as { event: string; data: unknown }
		expect(raw.event).toBe('pusher:connection_established')
		expect(typeof raw.data).toBe('string')
		expect(JSON.parse(raw.data as string)).toEqual({ socket_id: client.socketId, activity_timeout: 120 })
		expect(client.socketId).toMatch(/^\d+\.\d+$/)
		expect(server.realtime.connectionCount(APP.id)).toBe(1)
	})

	it.each([
		['/app/nope?protocol=7', 4001],
		[`/app/${DISABLED.key}?protocol=7`, 4003],
		[`/app/${APP.key}/extra?protocol=7`, 4005],
		[`/app/${APP.key}?protocol=seven`, 4006],
		[`/app/${APP.key}?protocol=3`, 4007],
		[`/app/${APP.key}`, 4008],
	])('refuses %s with close code %i after a pusher:error', async (path, code) => {
		const client = open(path)
		const error = await client.next('pusher:error')
		expect(error.data).toMatchObject({ code })
		expect((await client.closed).code).toBe(code)
	})

	it('accepts protocol versions 5 and 6', async () => {
		await connect(`/app/${APP.key}?protocol=5`)
		await connect(`/app/${APP.key}?protocol=6`)
	})

	it('closes connections over the app quota with 4004', async () => {
		await connect(`/app/${LIMITED.key}?protocol=7`)
		const second = open(`/app/${LIMITED.key}?protocol=7`)
		expect((await second.closed).code).toBe(4004)
		await vi.waitFor(() => expect(server.realtime.connectionCount(LIMITED.id)).toBe(1))
	})

	it('leaves other upgrade paths to the host', async () => {
		expect(server.realtime.matchesUpgrade('/socket.io/?EIO=4')).toBe(false)
		expect(server.realtime.matchesUpgrade(`/app/${APP.key}?protocol=7`)).toBe(true)
		const client = open('/elsewhere')
		await client.closed
		expect(client.errors.length).toBeGreaterThan(0)
	})
})

describe('frames', () => {
	it('answers pusher:ping with pusher:pong', async () => {
		const client = await connect()
		client.send({ event: 'pusher:ping', data: {} })
		expect((await client.next('pusher:pong')).data).toEqual({})
	})

	it('answers malformed JSON with pusher:error and keeps the socket open', async () => {
		const client = await connect()
		client.send('{not json')
		expect((await client.next('pusher:error')).data).toMatchObject({ code: 4300 })
		client.send({ data: {} })
		expect((await client.next('pusher:error')).data).toMatchObject({ code: 4300 })
		await client.sync()
	})

	it('answers oversized frames with pusher:error and keeps the socket open', async () => {
		const client = await connect()
		client.send({ event: 'client-big', channel: 'private-x', data: 'x'.repeat(8000) })
		const error = await client.next('pusher:error')
		expect(error.data).toMatchObject({ code: 4300 })
		expect(JSON.stringify(error.data)).toMatch(/larger than 4096 bytes/)
		await client.sync()
	})
})

describe('subscriptions', () => {
	it('subscribes to public channels and stops delivery after unsubscribe', async () => {
		const client = await connect()
		expect(await client.subscribe('orders')).toMatchObject({ event: 'pusher_internal:subscription_succeeded', channel: 'orders' })
		await sdk.trigger('orders', 'created', { id: 1 })
		expect(await client.next('created')).toEqual({ event: 'created', channel: 'orders', data: { id: 1 } })
		client.send({ event: 'pusher:unsubscribe', data: { channel: 'orders' } })
		await client.sync()
		await sdk.trigger('orders', 'created', { id: 2 })
		await client.sync()
		expect(client.pending()).toEqual([])
	})

	it('rejects a private channel with a bad signature and accepts a good one', async () => {
		const client = await connect()
		const bad = await client.subscribe('private-inbox', { auth: `${APP.key}:${'0'.repeat(64)}` })
		expect(bad).toEqual({
			event: 'pusher:subscription_error',
			channel: 'private-inbox',
			data: { type: 'AuthError', error: expect.any(String), status: 401 },
		})
		const missing = await client.subscribe('private-inbox')
		expect(missing.event).toBe('pusher:subscription_error')
		const otherSocket = await client.subscribe('private-inbox', sdk.authorizeChannel('1.2', 'private-inbox'))
		expect(otherSocket.event).toBe('pusher:subscription_error')
		const good = await client.subscribe('private-inbox', sdk.authorizeChannel(client.socketId, 'private-inbox'))
		expect(good.event).toBe('pusher_internal:subscription_succeeded')
	})

	it('rejects invalid channel names', async () => {
		const client = await connect()
		const frame = await client.subscribe('bad channel!')
		expect(frame).toMatchObject({ event: 'pusher:subscription_error', data: { status: 400 } })
	})

	it('does not let anyone subscribe to a #server-to-user channel by hand', async () => {
		const client = await connect()
		const frame = await client.subscribe('#server-to-user-42')
		expect(frame).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'AuthError', status: 403 } })
	})
})

describe('presence', () => {
	it('announces a user once however many sockets it has, and removes it with its last socket', async () => {
		const observer = await connect()
		await subscribePresence(observer, 'presence-room', 'observer')
		const first = await connect()
		const second = await connect()
		const joined = await subscribePresence(first, 'presence-room', 'alice', { name: 'Alice' })
		expect(joined.data).toEqual({
			presence: {
				ids: ['observer', 'alice'],
				hash: { observer: {}, alice: { name: 'Alice' } },
				count: 2,
			},
		})
		expect(await observer.next('pusher_internal:member_added')).toEqual({
			event: 'pusher_internal:member_added',
			channel: 'presence-room',
			data: { user_id: 'alice', user_info: { name: 'Alice' } },
		})
		await subscribePresence(second, 'presence-room', 'alice', { name: 'Alice' })
		await observer.sync()
		expect(observer.pending()).toEqual([])

		await first.close()
		await second.sync()
		await observer.sync()
		expect(observer.pending()).toEqual([])

		await second.close()
		expect(await observer.next('pusher_internal:member_removed')).toEqual({
			event: 'pusher_internal:member_removed',
			channel: 'presence-room',
			data: { user_id: 'alice' },
		})
	})

	it('rejects presence subscriptions without valid channel_data', async () => {
		const client = await connect()
		const channelData = JSON.stringify({ user_info: {} })
		const auth = sdk.authorizeChannel(client.socketId, 'presence-x')
		const withoutData = await client.subscribe('presence-x', auth)
		expect(withoutData).toMatchObject({ event: 'pusher:subscription_error', data: { status: 401 } })
		const signed = { auth: sdk.authorizeChannel(client.socketId, 'presence-x').auth, channel_data: channelData }
		expect((await client.subscribe('presence-x', signed)).event).toBe('pusher:subscription_error')
	})

	it('enforces the member limit per presence channel, counting users rather than sockets', async () => {
		const room = server.sdk(SMALL_ROOMS)
		const path = `/app/${SMALL_ROOMS.key}?protocol=7`
		const join = async (userId: string): Promise<Frame> => {
			const client = await connect(path)
			return client.subscribe('presence-small', room.authorizeChannel(client.socketId, 'presence-small', { user_id: userId }))
		}
		expect((await join('a')).event).toBe('pusher_internal:subscription_succeeded')
		expect((await join('b')).event).toBe('pusher_internal:subscription_succeeded')
		expect((await join('a')).event).toBe('pusher_internal:subscription_succeeded')
		expect(await join('c')).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'LimitReached' } })
	})

	it('accepts numeric user ids and reports them as strings', async () => {
		const client = await connect()
		const auth = sdk.authorizeChannel(client.socketId, 'presence-numeric', { user_id: 7 as unknown as string })
		const frame = await client.subscribe('presence-numeric', auth)
		expect(frame.data).toMatchObject({ presence: { ids: ['7'], count: 1 } })
	})
})

describe('client events', () => {
	it('relays client events to other subscribers of a private channel without echoing them', async () => {
		const sender = await connect()
		const receiver = await connect()
		for (const client of [sender, receiver]) {
			await client.subscribe('private-chat', sdk.authorizeChannel(client.socketId, 'private-chat'))
		}
		sender.send({ event: 'client-typing', channel: 'private-chat', data: { typing: true } })
		expect(await receiver.next('client-typing')).toEqual({
			event: 'client-typing',
			channel: 'private-chat',
			data: { typing: true },
		})
		await sender.sync()
		expect(sender.pending()).toEqual([])
	})

	it('adds the user_id on presence channels', async () => {
		const sender = await connect()
		const receiver = await connect()
		await subscribePresence(sender, 'presence-chat', 'sender')
		await subscribePresence(receiver, 'presence-chat', 'receiver')
		sender.send({ event: 'client-wave', channel: 'presence-chat', data: {} })
		expect(await receiver.next('client-wave')).toMatchObject({ user_id: 'sender', channel: 'presence-chat' })
	})

	it('refuses client events on public channels and on channels the socket has not joined', async () => {
		const client = await connect()
		await client.subscribe('public-news')
		client.send({ event: 'client-x', channel: 'public-news', data: {} })
		expect((await client.next('pusher:error')).data).toMatchObject({ code: 4300 })
		client.send({ event: 'client-x', channel: 'private-elsewhere', data: {} })
		expect((await client.next('pusher:error')).data).toMatchObject({ code: 4300 })
	})

	it('rate-limits client events to 10 per second per connection with pusher:error 4301', async () => {
		const sender = await connect()
		const receiver = await connect()
		for (const client of [sender, receiver]) {
			await client.subscribe('private-burst', sdk.authorizeChannel(client.socketId, 'private-burst'))
		}
		for (let i = 0; i < 11; i += 1) sender.send({ event: 'client-tick', channel: 'private-burst', data: { i } })
		const error = await sender.next('pusher:error')
		expect(error.data).toMatchObject({ code: 4301 })
		await sender.sync()
		await receiver.sync()
		const ticks = receiver.pending().filter((frame) => frame.event === 'client-tick')
		expect(ticks.map((frame) => frame.data)).toEqual(Array.from({ length: 10 }, (_, i) => ({ i })))
	})
})

describe('cache channels', () => {
	it('sends cache_miss when empty and replays the last event to new subscribers', async () => {
		const early = await connect()
		await early.subscribe('cache-price')
		expect(await early.next('pusher:cache_miss')).toEqual({ event: 'pusher:cache_miss', channel: 'cache-price' })
		await sdk.trigger('cache-price', 'price', { value: 1 })
		await sdk.trigger('cache-price', 'price', { value: 2 })
		const late = await connect()
		const subscribed = await late.subscribe('cache-price')
		expect(subscribed.event).toBe('pusher_internal:subscription_succeeded')
		expect(await late.next('price')).toEqual({ event: 'price', channel: 'cache-price', data: { value: 2 } })
		await late.sync()
		expect(late.pending()).toEqual([])
	})

	it('replays on private and presence cache channels too', async () => {
		await sdk.trigger(['private-cache-doc', 'presence-cache-doc'], 'state', { v: 3 })
		const client = await connect()
		await client.subscribe('private-cache-doc', sdk.authorizeChannel(client.socketId, 'private-cache-doc'))
		expect(await client.next('state')).toMatchObject({ channel: 'private-cache-doc', data: { v: 3 } })
		await subscribePresence(client, 'presence-cache-doc', 'u1')
		expect(await client.next('state')).toMatchObject({ channel: 'presence-cache-doc', data: { v: 3 } })
	})
})

describe('user sign-in', () => {
	function signin(client: RawClient, userData: { id: string; name?: string }): void {
		client.send({ event: 'pusher:signin', data: sdk.authenticateUser(client.socketId, userData) })
	}

	it('answers a valid signin with signin_success and routes #server-to-user events to that user only', async () => {
		const alice = await connect()
		const aliceTab = await connect()
		const bob = await connect()
		signin(alice, { id: 'alice', name: 'Alice' })
		signin(aliceTab, { id: 'alice' })
		signin(bob, { id: 'bob' })
		const success = await alice.next('pusher:signin_success')
		expect(success.data).toEqual({ user_data: JSON.stringify({ id: 'alice', name: 'Alice' }) })
		await aliceTab.next('pusher:signin_success')
		await bob.next('pusher:signin_success')

		expect((await alice.subscribe('#server-to-user-alice')).event).toBe('pusher_internal:subscription_succeeded')
		expect((await bob.subscribe('#server-to-user-alice')).event).toBe('pusher:subscription_error')

		await sdk.sendToUser('alice', 'notify', { text: 'hi' })
		for (const client of [alice, aliceTab]) {
			expect(await client.next('notify')).toEqual({ event: 'notify', channel: '#server-to-user-alice', data: { text: 'hi' } })
		}
		await bob.sync()
		expect(bob.pending()).toEqual([])
	})

	it('closes the connection with 4009 when user_data has no string id', async () => {
		const client = await connect()
		const userData = JSON.stringify({ name: 'nobody' })
		client.send({ event: 'pusher:signin', data: { user_data: userData, auth: signUser(APP, client.socketId, userData) } })
		expect((await client.next('pusher:error')).data).toMatchObject({ code: 4009 })
		expect((await client.closed).code).toBe(4009)
	})

	it('closes the connection with 4009 when the signin signature is wrong', async () => {
		const client = await connect()
		client.send({
			event: 'pusher:signin',
			data: { user_data: JSON.stringify({ id: 'mallory' }), auth: `${APP.key}:${'f'.repeat(64)}` },
		})
		expect((await client.closed).code).toBe(4009)
	})

	it('terminates the connections of a user through the HTTP API', async () => {
		const target = await connect()
		const bystander = await connect()
		signin(target, { id: 'to-terminate' })
		await target.next('pusher:signin_success')
		await sdk.terminateUserConnections('to-terminate')
		expect((await target.closed).code).toBe(4009)
		await bystander.sync()
	})
})
