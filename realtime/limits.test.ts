import type PusherServer from 'pusher'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { addressKey } from './address.ts'
import { type RealtimeServerOptions } from './index.ts'
import { APP, RawClient, startServer, type TestServer } from './test-support.ts'

const servers: TestServer[] = []
const clients: RawClient[] = []

async function start(options: Partial<RealtimeServerOptions>): Promise<{ server: TestServer; sdk: PusherServer }> {
	const server = await startServer(options)
	servers.push(server)
	return { server, sdk: server.sdk() }
}

async function connect(server: TestServer, path?: string): Promise<RawClient> {
	const client = await RawClient.connect(server.port, path)
	clients.push(client)
	return client
}

function signin(client: RawClient, sdk: PusherServer, id: string): Promise<unknown> {
	client.send({ event: 'pusher:signin', data: sdk.authenticateUser(client.socketId, { id }) })
	return client.next('pusher:signin_success')
}

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()))
})

afterAll(async () => {
	await Promise.all(servers.map((server) => server.close()))
})

describe('channel names', () => {
	it('refuses public channels by default, and any name the channelNames patterns do not allow', async () => {
		const { server, sdk } = await start({ channelNames: undefined })
		const client = await connect(server)
		expect(await client.subscribe('anything-at-all')).toEqual({
			event: 'pusher:subscription_error',
			channel: 'anything-at-all',
			data: { type: 'InvalidChannel', error: 'Channel name not allowed on this server', status: 403 },
		})
		expect((await client.subscribe('cache-public')).event).toBe('pusher:subscription_error')
		expect((await client.subscribe('private-a', sdk.authorizeChannel(client.socketId, 'private-a'))).event).toBe('pusher_internal:subscription_succeeded')

		const { server: strict, sdk: strictSdk } = await start({ channelNames: [/^private-room-\d+$/] })
		const other = await connect(strict)
		const refused = await other.subscribe('private-elsewhere', strictSdk.authorizeChannel(other.socketId, 'private-elsewhere'))
		expect(refused).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'InvalidChannel', status: 403 } })
		expect((await other.subscribe('private-room-7', strictSdk.authorizeChannel(other.socketId, 'private-room-7'))).event).toBe(
			'pusher_internal:subscription_succeeded',
		)
		// A refused name holds nothing on the server.
		expect([...Object.keys(((await strictSdk.get({ path: '/channels' }).then((response) => response.json())) as { channels: object }).channels)]).toEqual([
			'private-room-7',
		])
	})

	it('leaves user channels to signing in, whatever the patterns', async () => {
		const { server, sdk } = await start({ channelNames: [/^private-room-\d+$/] })
		const client = await connect(server)
		await signin(client, sdk, 'alice')
		expect((await client.subscribe('#server-to-user-alice')).event).toBe('pusher_internal:subscription_succeeded')
	})
})

describe('subscriptions per socket', () => {
	it('refuses a subscription past the cap with subscription_error LimitReached, and takes one again once a channel is left', async () => {
		const { server, sdk } = await start({ maxChannelsPerConnection: 3, maxSubscriptionsPerSecond: 100 })
		const client = await connect(server)
		// The user channel that signing in joins does not count.
		await signin(client, sdk, 'alice')
		for (const channel of ['public-1', 'public-2', 'private-3']) {
			const auth = channel.startsWith('private-') ? sdk.authorizeChannel(client.socketId, channel) : undefined
			expect((await client.subscribe(channel, auth)).event).toBe('pusher_internal:subscription_succeeded')
		}
		expect(await client.subscribe('public-4')).toEqual({
			event: 'pusher:subscription_error',
			channel: 'public-4',
			data: { type: 'LimitReached', error: 'More than 3 channels on one connection', status: 4100 },
		})
		// Subscribing again to a channel it holds is not a new one.
		expect((await client.subscribe('public-1')).event).toBe('pusher_internal:subscription_succeeded')
		client.send({ event: 'pusher:unsubscribe', data: { channel: 'public-2' } })
		expect((await client.subscribe('public-4')).event).toBe('pusher_internal:subscription_succeeded')
		const channels = (await sdk.get({ path: '/channels' }).then((response) => response.json())) as { channels: object }
		expect(Object.keys(channels.channels).sort()).toEqual(['private-3', 'public-1', 'public-4'])
	})

	it('rate-limits subscription requests, refused ones included, with subscription_error 429', async () => {
		const { server } = await start({ maxSubscriptionsPerSecond: 5 })
		const client = await connect(server)
		for (let i = 0; i < 5; i += 1) client.send({ event: 'pusher:subscribe', data: { channel: `private-${i}`, auth: 'wrong' } })
		client.send({ event: 'pusher:subscribe', data: { channel: 'burst' } })
		const refused = await client.next((frame) => frame.channel === 'burst')
		expect(refused).toEqual({
			event: 'pusher:subscription_error',
			channel: 'burst',
			data: { type: 'LimitReached', error: 'More than 5 subscriptions per second', status: 429 },
		})
		// The bucket refills: a moment later the socket may subscribe again.
		await new Promise((resolve) => setTimeout(resolve, 250))
		expect((await client.subscribe('burst')).event).toBe('pusher_internal:subscription_succeeded')
	})
})

describe('connections per address', () => {
	it('closes the connection past the per-address limit with 4100, counts others apart and admits again once one left', async () => {
		// The host names the address (its proxies' X-Forwarded-For, say): here a test header.
		const { server } = await start({ maxConnectionsPerAddress: 2, clientAddress: (req) => String(req.headers['x-test-address'] ?? req.socket.remoteAddress) })
		const from = (address: string) => {
			const client = RawClient.open(server.port, `/app/${APP.key}?protocol=7`, { 'x-test-address': address })
			clients.push(client)
			return client
		}
		const first = from('2001:db8:1:2::10')
		await first.next('pusher:connection_established')
		// Another address of the same /64 is the same host.
		await from('2001:db8:1:2:ffff::20').next('pusher:connection_established')
		const third = from('2001:db8:1:2::30')
		expect((await third.next('pusher:error')).data).toEqual({ code: 4100, message: 'Too many connections from this address' })
		expect((await third.closed).code).toBe(4100)
		await from('2001:db8:1:3::10').next('pusher:connection_established')
		await from('203.0.113.9').next('pusher:connection_established')

		await first.close()
		await vi.waitFor(() => expect(server.realtime.connectionCount()).toBe(3))
		await from('2001:db8:1:2::40').next('pusher:connection_established')
	})

	it('keys IPv4 addresses as they are and IPv6 ones by their /64', () => {
		expect(addressKey('203.0.113.9')).toBe('203.0.113.9')
		expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9')
		expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
		expect(addressKey('2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
		expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
		expect(addressKey('::1:2:3:4:5:6.7.8.9')).toBe('0:1:2:3::/64')
		expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
		expect(addressKey(undefined)).toBe('unknown')
	})
})

describe('client events', () => {
	it('stamp the sender the app vouched for as user_id, whatever its frame and data claim', async () => {
		const { server, sdk } = await start({})
		const alice = await connect(server)
		const receiver = await connect(server)
		await signin(alice, sdk, 'alice')
		for (const client of [alice, receiver]) await client.subscribe('private-room', sdk.authorizeChannel(client.socketId, 'private-room'))
		alice.send({ event: 'client-typing', channel: 'private-room', user_id: 'mallory', data: { userId: 'mallory', name: 'Mallory' } })
		expect(await receiver.next('client-typing')).toEqual({
			event: 'client-typing',
			channel: 'private-room',
			data: { userId: 'mallory', name: 'Mallory' },
			user_id: 'alice',
		})

		// Not signed in but a presence member: that member; on the presence channel itself, its member there.
		const bob = await connect(server)
		await bob.subscribe('presence-team', sdk.authorizeChannel(bob.socketId, 'presence-team', { user_id: 'bob' }))
		await receiver.subscribe('presence-team', sdk.authorizeChannel(receiver.socketId, 'presence-team', { user_id: 'receiver' }))
		await bob.subscribe('private-room', sdk.authorizeChannel(bob.socketId, 'private-room'))
		bob.send({ event: 'client-viewing', channel: 'private-room', user_id: 'alice', data: {} })
		expect(await receiver.next('client-viewing')).toMatchObject({ user_id: 'bob' })
		bob.send({ event: 'client-wave', channel: 'presence-team', data: {} })
		expect(await receiver.next('client-wave')).toMatchObject({ user_id: 'bob' })

		// Nobody the app vouched for (a link page's visitor): no user_id at all.
		const visitor = await connect(server)
		await visitor.subscribe('private-room', sdk.authorizeChannel(visitor.socketId, 'private-room'))
		visitor.send({ event: 'client-typing', channel: 'private-room', user_id: 'alice', data: { from: 'visitor' } })
		const anonymous = await receiver.next((frame) => frame.event === 'client-typing' && frame.user_id !== 'alice')
		expect(anonymous).toEqual({ event: 'client-typing', channel: 'private-room', data: { from: 'visitor' } })
	})
})

describe('terminate_connections', () => {
	it('also ends a socket that joined a presence channel as the user without signing in; it cannot come back unauthorised', async () => {
		const { server, sdk } = await start({})
		const member = await connect(server)
		const bystander = await connect(server)
		await member.subscribe('presence-team', sdk.authorizeChannel(member.socketId, 'presence-team', { user_id: 'removed' }))
		await member.subscribe('private-team', sdk.authorizeChannel(member.socketId, 'private-team'))
		await bystander.subscribe('presence-team', sdk.authorizeChannel(bystander.socketId, 'presence-team', { user_id: 'staying' }))
		await sdk.terminateUserConnections('removed')
		expect((await member.next('pusher:error')).data).toMatchObject({ code: 4009 })
		expect((await member.closed).code).toBe(4009)
		expect(await bystander.next('pusher_internal:member_removed')).toMatchObject({ data: { user_id: 'removed' } })

		// A new socket needs a new signature: the old one was for the old socket id.
		const again = await connect(server)
		const replayed = await again.subscribe('private-team', sdk.authorizeChannel(member.socketId, 'private-team'))
		expect(replayed).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'AuthError', status: 401 } })
		await bystander.sync()
	})
})
