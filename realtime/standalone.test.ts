import PusherServer from 'pusher'
import { describe, expect, it } from 'vitest'
import { startStandaloneRealtime } from './standalone.ts'
import { ANY_CHANNEL, APP, RawClient } from './test-support.ts'

describe('the server alone', () => {
	it('answers health checks, takes WebSockets and published events, and tells clients to reconnect when it stops', async () => {
		const server = await startStandaloneRealtime({ host: '127.0.0.1', port: 0, apps: [APP], channelNames: ANY_CHANNEL })
		const base = `http://127.0.0.1:${server.port}`
		expect((await fetch(`${base}/`)).status).toBe(200)
		expect((await fetch(`${base}/elsewhere`)).status).toBe(404)

		const client = await RawClient.connect(server.port)
		await client.subscribe('news')
		const sdk = new PusherServer({ appId: APP.id, key: APP.key, secret: APP.secret, host: '127.0.0.1', port: String(server.port), useTLS: false })
		await sdk.trigger('news', 'published', { n: 1 })
		expect((await client.next('published')).data).toEqual({ n: 1 })

		await server.close()
		expect((await client.closed).code).toBe(4200)
		await expect(fetch(`${base}/`)).rejects.toThrow()
	})
})
