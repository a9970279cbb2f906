import { afterAll, describe, expect, it } from 'vitest'
import { type Logger } from './logger.ts'
import { APP, RawClient, startServer, type TestServer } from './test-support.ts'

const servers: TestServer[] = []

async function start(options: Parameters<typeof startServer>[0]): Promise<TestServer> {
	const server = await startServer(options)
	servers.push(server)
	return server
}

afterAll(async () => {
	await Promise.all(servers.map((server) => server.close()))
})

describe('activity timeout', () => {
	it('pings an idle client and closes it with 4201 when no pong comes back', async () => {
		const server = await start({ activityTimeoutSeconds: 0.1, pongTimeoutSeconds: 0.1 })
		const client = await RawClient.connect(server.port)
		await client.next('pusher:ping')
		expect((await client.closed).code).toBe(4201)
	})

	it('keeps a client that answers the ping', async () => {
		const server = await start({ activityTimeoutSeconds: 0.1, pongTimeoutSeconds: 0.15 })
		const client = await RawClient.connect(server.port)
		for (let round = 0; round < 3; round += 1) {
			await client.next('pusher:ping')
			client.send({ event: 'pusher:pong', data: {} })
		}
		expect(server.realtime.connectionCount()).toBe(1)
		await client.close()
	})
})

describe('capacity and shutdown', () => {
	it('closes connections beyond the server capacity with 4100', async () => {
		const server = await start({ maxConnections: 1 })
		const first = await RawClient.connect(server.port)
		const second = RawClient.open(server.port)
		expect((await second.closed).code).toBe(4100)
		await first.close()
	})

	it('close() sends 4200 to every socket, resolves once they are gone and refuses newcomers', async () => {
		const server = await start({})
		const clients = await Promise.all([RawClient.connect(server.port), RawClient.connect(server.port)])
		await clients[0]?.subscribe('presence-x', server.sdk().authorizeChannel(clients[0].socketId, 'presence-x', { user_id: 'u' }))
		const closing = server.realtime.close()
		for (const client of clients) {
			expect((await client.next('pusher:error')).data).toMatchObject({ code: 4200 })
			expect((await client.closed).code).toBe(4200)
		}
		await closing
		expect(server.realtime.connectionCount()).toBe(0)
		const late = RawClient.open(server.port, `/app/${APP.key}?protocol=7`)
		expect((await late.closed).code).toBe(4200)
	})

	it('close() drops clients that never complete the closing handshake', async () => {
		const server = await start({ closeTimeoutMs: 50 })
		const client = await RawClient.connect(server.port)
		// Stop reading so the close frame is never answered.
		client.ws.pause()
		await server.realtime.close()
		expect(server.realtime.connectionCount()).toBe(0)
		client.ws.terminate()
	})
})

describe('logger', () => {
	it('accepts a pino logger as is', async () => {
		const { pino } = await import('pino')
		const logger: Logger = pino({ enabled: false })
		const server = await start({ logger })
		const client = await RawClient.connect(server.port)
		await client.close()
	})
})
