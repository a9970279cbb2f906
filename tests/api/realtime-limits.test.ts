import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { receiveMessage } from '#api/conversations/inbound.ts'
import { type PresenceMember } from '#app/realtime/pusher.client.ts'
import { RawClient } from '#realtime/test-support.ts'
import { testDb } from './harness.ts'
import { createLinkChannel } from './conversations-fixtures.ts'
import { nextEvent, recordEvents, startRealtimeServer, withTimeout, type RealtimeTestServer } from './realtime-support.ts'
import { createTeam } from './workspaces-fixtures.ts'

// The product's server as configured by default, and one with small limits to reach them quickly.
let server: RealtimeTestServer
let small: RealtimeTestServer
const sockets: RawClient[] = []
beforeAll(async () => {
	// The browser module logs the refusals and terminations these tests cause on purpose.
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	;[server, small] = await Promise.all([
		startRealtimeServer(),
		startRealtimeServer({ REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '3', REALTIME_MAX_CONNECTIONS: '6', REALTIME_MAX_CHANNELS_PER_CONNECTION: '2' }),
	])
})
afterAll(async () => {
	await Promise.all(sockets.splice(0).map((socket) => socket.close()))
	await Promise.all([server.close(), small.close()])
})

/** A bare Pusher-protocol socket to `on`, from `address` as the proxy in front (loopback, trusted) says. */
function open(on: RealtimeTestServer, address?: string): RawClient {
	const path = `/app/${on.realtimeConfig.app.key}?protocol=7&client=test&version=1`
	const socket = RawClient.open(Number(new URL(on.url).port), path, address ? { 'X-Forwarded-For': address } : {})
	sockets.push(socket)
	return socket
}

async function connected(on: RealtimeTestServer, address?: string): Promise<RawClient> {
	const socket = open(on, address)
	const established = await socket.next('pusher:connection_established')
	socket.socketId = (established.data as { socket_id: string }).socket_id
	return socket
}

/** What the API signs for `socket` on `channel`, as the web app's /realtime/auth forwards it. */
async function authorised(on: RealtimeTestServer, socket: RawClient, channel: string, auth: Record<string, string>) {
	const answer = await on.post('/v1/realtime/auth', { socket_id: socket.socketId, channel_name: channel }, auth)
	return { status: answer.status, body: answer.body as { auth: string; channel_data?: string } }
}

describe('what the embedded server refuses', () => {
	test('channel names the product does not use, public ones first, even signed by the app', async () => {
		const socket = await connected(server)
		expect(await socket.subscribe('news')).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'InvalidChannel', status: 403 } })
		const unused = 'private-anything-else'
		expect(await socket.subscribe(unused, { auth: server.sdk.authorizeChannel(socket.socketId, unused).auth })).toMatchObject({
			event: 'pusher:subscription_error',
			data: { type: 'InvalidChannel', status: 403 },
		})
		// Refused, they hold nothing on the server.
		const { channels } = (await (await server.sdk.get({ path: '/channels' })).json()) as { channels: Record<string, unknown> }
		expect(channels).not.toHaveProperty(['news'])
		expect(channels).not.toHaveProperty([unused])
	})

	test('a subscription past REALTIME_MAX_CHANNELS_PER_CONNECTION', async () => {
		const team = await createTeam('Channel cap')
		const socket = await connected(small, '198.51.100.20')
		for (const channel of [`private-workspace-${team.workspace.id}`, `presence-workspace-${team.workspace.id}`]) {
			const { body } = await authorised(small, socket, channel, team.agent.auth)
			expect((await socket.subscribe(channel, body)).event).toBe('pusher_internal:subscription_succeeded')
		}
		const { conversation } = await receiveMessage(testDb(), small.realtime, {
			channel: await createLinkChannel(team.workspace.id),
			from: { externalId: 'cap', name: 'Cap' },
			body: 'Hi',
		})
		const third = `presence-conversation-${conversation.id}`
		const { status, body } = await authorised(small, socket, third, team.agent.auth)
		expect(status).toBe(200)
		expect(await socket.subscribe(third, body)).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'LimitReached', status: 4100 } })
	})

	test('the connection past REALTIME_MAX_CONNECTIONS_PER_ADDRESS from one address (its /64 for IPv6), then past REALTIME_MAX_CONNECTIONS', async () => {
		for (let i = 0; i < 3; i += 1) await connected(small, '2001:db8:7:7::1')
		const refused = open(small, '2001:db8:7:7:abcd::2')
		expect((await refused.next('pusher:error')).data).toEqual({ code: 4100, message: 'Too many connections from this address' })
		expect((await refused.closed).code).toBe(4100)
		// Other addresses are counted apart, up to the total (the cap test's socket is one of the six).
		await connected(small, '203.0.113.1')
		await connected(small, '203.0.113.2')
		const overTotal = open(small, '203.0.113.3')
		expect((await overTotal.next('pusher:error')).data).toEqual({ code: 4100, message: 'Over capacity' })
		expect((await overTotal.closed).code).toBe(4100)
	})
})

describe('a member who leaves or changes role', () => {
	test('a removed member’s socket is terminated even if it never signed in, and cannot subscribe again', async () => {
		const team = await createTeam('Evicted')
		const removed = await connected(server)
		const channels = [`presence-workspace-${team.workspace.id}`, `private-workspace-${team.workspace.id}`]
		for (const channel of channels) {
			const { body } = await authorised(server, removed, channel, team.otherAgent.auth)
			expect((await removed.subscribe(channel, body)).event).toBe('pusher_internal:subscription_succeeded')
		}
		expect((await server.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.otherAgent.user.id}`, team.admin.auth)).status).toBe(204)
		expect((await withTimeout(removed.closed, 5000, 'the removed member’s socket to close')).code).toBe(4009)

		const again = await connected(server)
		for (const channel of channels) expect((await authorised(server, again, channel, team.otherAgent.auth)).status).toBe(403)
		// Nor does a signature of its old socket open the channel to the new one.
		const stale = server.sdk.authorizeChannel(removed.socketId, channels[1]!)
		expect(await again.subscribe(channels[1]!, stale)).toMatchObject({ event: 'pusher:subscription_error', data: { type: 'AuthError', status: 401 } })
	})

	test('a role change ends the member’s connections, which come back authorised afresh', async () => {
		const team = await createTeam('Promoted')
		const member = await server.connect(team.otherAgent.auth)
		const recorder = await recordEvents(member, `private-workspace-${team.workspace.id}`)
		await expect.poll(() => member.pusher.user.user_data?.id).toBe(team.otherAgent.user.id)
		const terminated = nextEvent<{ data: { code: number } }>(member.pusher.connection, 'error', 5000)
		expect(
			(await server.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.otherAgent.user.id}`, team.admin.auth, { role: 'admin' })).status,
		).toBe(200)
		await recorder.waitFor('member.updated')
		expect((await terminated).data.code).toBe(4009)
		// The browser module reconnects by itself, and the subscription is made again.
		await expect.poll(() => recorder.resubscribed(), { timeout: 8000 }).toBe(1)
	}, 15_000)
})

describe('a conversation’s presence channel', () => {
	test('its members are who is viewing; typing arrives with the sender’s real user_id, whatever their data or frame claims', async () => {
		const team = await createTeam('Typing')
		const { conversation } = await receiveMessage(testDb(), server.realtime, {
			channel: await createLinkChannel(team.workspace.id),
			from: { externalId: 't', name: 'Tara' },
			body: 'Hello',
		})
		const channel = `presence-conversation-${conversation.id}`
		const [sender, receiver] = await Promise.all([server.connect(team.agent.auth), server.connect(team.otherAgent.auth)])
		const heard: Array<{ event: string; data: unknown; sender?: string }> = []
		let viewing: PresenceMember[] = []
		receiver.subscribe(channel, { onEvent: (event, data, from) => heard.push({ event, data, sender: from }), onMembers: (members) => (viewing = members) })
		await expect.poll(() => receiver.pusher.channel(channel)?.subscribed).toBe(true)
		const senderLeaves = sender.subscribe(channel, {})
		await expect.poll(() => viewing.length).toBe(2)
		expect(viewing).toContainEqual({ id: team.agent.user.id, info: { name: team.agent.user.name } })
		expect(viewing).toContainEqual({ id: team.otherAgent.user.id, info: { name: team.otherAgent.user.name } })

		// On a presence channel the sender is its member there, as Pusher Channels and Soketi stamp it.
		sender.pusher.channel(channel).trigger('client-typing', { userId: team.owner.user.id, name: team.owner.user.name })
		await expect.poll(() => heard).toHaveLength(1)
		expect(heard[0]).toEqual({ event: 'client-typing', data: { userId: team.owner.user.id, name: team.owner.user.name }, sender: team.agent.user.id })

		// A socket that writes someone else's id into its frame is stamped with its own member.
		const forger = await connected(server)
		const { body } = await authorised(server, forger, channel, team.admin.auth)
		expect((await forger.subscribe(channel, body)).event).toBe('pusher_internal:subscription_succeeded')
		forger.send({ event: 'client-typing', channel, user_id: team.owner.user.id, data: { userId: team.owner.user.id } })
		await expect.poll(() => heard).toHaveLength(2)
		expect(heard[1]).toEqual({ event: 'client-typing', data: { userId: team.owner.user.id }, sender: team.admin.user.id })

		// Leaving the channel is what says they no longer view it.
		senderLeaves()
		await expect.poll(() => viewing.map((member) => member.id).sort()).toEqual([team.admin.user.id, team.otherAgent.user.id].sort())
	})
})
