import { createServer, type Server } from 'node:http'
import { type AddressInfo } from 'node:net'
import PusherServer from 'pusher'
import PusherClient from 'pusher-js'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { APP, startServer, subscribed, type TestServer, withTimeout } from './test-support.ts'

/**
 * Presence webhooks as Pusher sends them: pusher-js clients join and leave a presence channel of the
 * server, and a receiver checks every request with the `pusher` SDK's own `webhook()`.
 */

type Received = { valid: boolean; events: Array<{ name: string; channel: string; user_id: string }> }

let receiver: Server
let receiverUrl: string
const received: Received[] = []
// The next answers' statuses (200 once they run out).
const answers: number[] = []
let server: TestServer
const clients: PusherClient[] = []
const verifier = new PusherServer({ appId: APP.id, key: APP.key, secret: APP.secret, host: '127.0.0.1' })

beforeAll(async () => {
	receiver = createServer((req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.on('end', () => {
			const webhook = verifier.webhook({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') })
			const status = answers.shift() ?? 200
			if (status === 200) received.push({ valid: webhook.isValid(), events: webhook.getEvents() as unknown as Received['events'] })
			res.writeHead(status).end()
		})
	})
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
	server = await startServer({
		apps: [{ ...APP, webhooks: [{ url: () => receiverUrl, eventTypes: ['member_added', 'member_removed'] }] }],
		memberRemovedWebhookDelayMs: 300,
	})
})

afterEach(async () => {
	for (const client of clients.splice(0)) client.disconnect()
	// Their leaves are told after the delay: not into the next test.
	await new Promise((resolve) => setTimeout(resolve, 600))
	received.length = 0
	answers.length = 0
})

afterAll(async () => {
	await server.close()
	await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

function join(userId: string, channel = 'presence-workspace-1') {
	const sdk = server.sdk()
	const client = new PusherClient(APP.key, {
		cluster: 'local',
		wsHost: '127.0.0.1',
		wsPort: server.port,
		forceTLS: false,
		enabledTransports: ['ws'],
		disableStats: true,
		channelAuthorization: {
			customHandler: ({ socketId, channelName }, callback) => callback(null, sdk.authorizeChannel(socketId, channelName, { user_id: userId, user_info: {} })),
		},
	})
	clients.push(client)
	return withTimeout(subscribed(client.subscribe(channel)), 3000, 'the presence subscription').then(() => client)
}

const leave = (client: PusherClient) => {
	client.disconnect()
	clients.splice(clients.indexOf(client), 1)
}

/** What the receiver was told of one channel: each test has its own, so that a late leave of another test's is not counted. */
const names = (channel = 'presence-workspace-1') =>
	received.flatMap((webhook) => webhook.events.filter((event) => event.channel === channel).map((event) => `${event.name} ${event.user_id}`))

describe('presence webhooks', () => {
	it("tell a user's first connection and, after the delay, their last one leaving, signed so that the SDK verifies them", async () => {
		const first = await join('layla')
		const second = await join('layla')
		await vi.waitFor(() => expect(names()).toEqual(['member_added layla']))
		leave(first)
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(names()).toEqual(['member_added layla'])
		leave(second)
		await vi.waitFor(() => expect(names()).toEqual(['member_added layla', 'member_removed layla']))
		expect(received.every((webhook) => webhook.valid)).toBe(true)
		expect(received[0]!.events[0]).toMatchObject({ channel: 'presence-workspace-1' })
	})

	it('say nothing of a user who comes back within the delay (a page reload)', async () => {
		const channel = 'presence-workspace-3'
		const before = await join('omar', channel)
		await vi.waitFor(() => expect(names(channel)).toEqual(['member_added omar']))
		leave(before)
		await join('omar', channel)
		await new Promise((resolve) => setTimeout(resolve, 600))
		expect(names(channel)).toEqual(['member_added omar'])
	})

	it('are tried again when the receiver fails', async () => {
		answers.push(503)
		await join('sam', 'presence-workspace-2')
		await vi.waitFor(() => expect(names('presence-workspace-2')).toEqual(['member_added sam']), { timeout: 4000 })
	})
})
