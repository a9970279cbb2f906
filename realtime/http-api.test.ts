import { createHmac } from 'node:crypto'
import express from 'express'
import type PusherServer from 'pusher'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { md5Hex } from './signature.ts'
import { APP, RawClient, startServer, type TestServer } from './test-support.ts'

const DISABLED = { id: '5005', key: 'off-key', secret: 'off-secret', enabled: false }

let server: TestServer
let parsedBodyServer: TestServer
let sdk: PusherServer
const clients: RawClient[] = []

async function connect(): Promise<RawClient> {
	const client = await RawClient.connect(server.port)
	clients.push(client)
	return client
}

interface SignOptions {
	method?: string
	path?: string
	body?: string
	timestampOffset?: number
	key?: string
	secret?: string
	params?: Record<string, string>
}

// Builds a request the way the Pusher HTTP API reference describes, independently of the SDK.
function signedUrl(port: number, options: SignOptions = {}): string {
	const method = options.method ?? 'GET'
	const path = options.path ?? `/apps/${APP.id}/channels`
	const params: Record<string, string> = {
		auth_key: options.key ?? APP.key,
		auth_timestamp: String(Math.floor(Date.now() / 1000) + (options.timestampOffset ?? 0)),
		auth_version: '1.0',
		...options.params,
	}
	if (options.body !== undefined) params.body_md5 = md5Hex(options.body)
	const query = Object.keys(params)
		.sort()
		.map((key) => `${key}=${params[key] ?? ''}`)
		.join('&')
	const signature = createHmac('sha256', options.secret ?? APP.secret)
		.update(`${method}\n${path}\n${query}`)
		.digest('hex')
	return `http://127.0.0.1:${port}${path}?${query}&auth_signature=${signature}`
}

function status(error: unknown): number | undefined {
	return (error as { status?: number }).status
}

beforeAll(async () => {
	server = await startServer({ apps: [APP, DISABLED] }, (realtime) => {
		const app = express()
		app.get('/health', (_req, res) => {
			res.json({ ok: true })
		})
		app.use(realtime.httpHandler)
		app.use((_req, res) => {
			res.status(404).json({ host: 'not found' })
		})
		return app
	})
	parsedBodyServer = await startServer({}, (realtime) => {
		const app = express()
		app.use(express.json())
		app.use(realtime.httpHandler)
		return app
	})
	sdk = server.sdk()
})

afterEach(async () => {
	await Promise.all(clients.splice(0).map((client) => client.close()))
})

afterAll(async () => {
	await Promise.all([server.close(), parsedBodyServer.close()])
})

describe('publishing with the official SDK', () => {
	it('delivers trigger() to every listed channel with the data as a JSON string', async () => {
		const client = await connect()
		await client.subscribe('alpha')
		await client.subscribe('beta')
		const response = await sdk.trigger(['alpha', 'beta'], 'message.created', { id: 'm1' })
		expect(response.status).toBe(200)
		expect(await response.json()).toEqual({})
		const frames = [await client.next((f) => f.channel === 'alpha'), await client.next((f) => f.channel === 'beta')]
		expect(frames.map((frame) => frame.data)).toEqual([{ id: 'm1' }, { id: 'm1' }])
		expect(client.raw.some((raw) => raw.includes('"data":"{\\"id\\":\\"m1\\"}"'))).toBe(true)
	})

	it('excludes the socket given as socket_id', async () => {
		const sender = await connect()
		const other = await connect()
		await sender.subscribe('shared')
		await other.subscribe('shared')
		await sdk.trigger('shared', 'edit', { n: 1 }, { socket_id: sender.socketId })
		await other.next('edit')
		await sender.sync()
		expect(sender.pending()).toEqual([])
	})

	it('delivers triggerBatch() and reports channel info when asked', async () => {
		const client = await connect()
		await client.subscribe('batch-a')
		await client.subscribe('presence-batch', sdk.authorizeChannel(client.socketId, 'presence-batch', { user_id: 'u1' }))
		const response = await sdk.triggerBatch([
			{ channel: 'batch-a', name: 'one', data: { n: 1 } },
			{ channel: 'presence-batch', name: 'two', data: 'plain text', info: 'subscription_count,user_count' },
		])
		expect(await response.json()).toEqual({ batch: [{}, { subscription_count: 1, user_count: 1 }] })
		expect((await client.next('one')).data).toEqual({ n: 1 })
		expect((await client.next('two')).data).toBe('plain text')
	})

	it('returns channel info from trigger() when info is requested', async () => {
		const client = await connect()
		await client.subscribe('info-channel')
		const response = await sdk.trigger('info-channel', 'ping', {}, { info: 'subscription_count' })
		expect(await response.json()).toEqual({ channels: { 'info-channel': { subscription_count: 1 } } })
	})

	it('rejects batches of more than 10 events with 400', async () => {
		const batch = Array.from({ length: 11 }, (_, i) => ({ channel: 'c', name: 'e', data: { i } }))
		await expect(sdk.triggerBatch(batch).catch(status)).resolves.toBe(400)
	})

	it('rejects more than 100 channels and invalid channel names with 400', async () => {
		const channels = Array.from({ length: 101 }, (_, i) => `c${i}`)
		const tooMany = sdk.post({ path: '/events', body: JSON.stringify({ name: 'e', data: '{}', channels }) })
		await expect(tooMany.catch(status)).resolves.toBe(400)
		const badName = sdk.post({ path: '/events', body: JSON.stringify({ name: 'e', data: '{}', channel: 'no spaces' }) })
		await expect(badName.catch(status)).resolves.toBe(400)
	})

	it('rejects event data over 10 KB with 413', async () => {
		await expect(sdk.trigger('big', 'blob', 'x'.repeat(10 * 1024 + 1)).catch(status)).resolves.toBe(413)
		const ok = await sdk.trigger('big', 'blob', 'x'.repeat(10 * 1024))
		expect(ok.status).toBe(200)
	})

	it('works behind express.json() by re-serialising the parsed body', async () => {
		const client = await RawClient.connect(parsedBodyServer.port)
		await client.subscribe('parsed')
		await parsedBodyServer.sdk().trigger('parsed', 'hello', { a: 1 })
		expect((await client.next('hello')).data).toEqual({ a: 1 })
		await client.close()
	})
})

describe('querying with the official SDK', () => {
	it('lists occupied channels with filter_by_prefix and user_count', async () => {
		const first = await connect()
		const second = await connect()
		await first.subscribe('presence-lobby', sdk.authorizeChannel(first.socketId, 'presence-lobby', { user_id: 'a' }))
		await second.subscribe('presence-lobby', sdk.authorizeChannel(second.socketId, 'presence-lobby', { user_id: 'a' }))
		await first.subscribe('public-lobby')
		const all = (await (await sdk.get({ path: '/channels' })).json()) as { channels: Record<string, unknown> }
		expect(all.channels).toMatchObject({ 'presence-lobby': {}, 'public-lobby': {} })
		expect(Object.keys(all.channels).filter((name) => name.includes('lobby'))).toHaveLength(2)
		const presence = await sdk.get({ path: '/channels', params: { filter_by_prefix: 'presence-', info: 'user_count' } })
		expect(await presence.json()).toEqual({ channels: { 'presence-lobby': { user_count: 1 } } })
		await expect(sdk.get({ path: '/channels', params: { info: 'user_count' } }).catch(status)).resolves.toBe(400)
	})

	it('describes a channel and lists presence users', async () => {
		const client = await connect()
		await client.subscribe('presence-desk', sdk.authorizeChannel(client.socketId, 'presence-desk', { user_id: 'agent-1' }))
		const info = await sdk.get({ path: '/channels/presence-desk', params: { info: 'user_count,subscription_count' } })
		expect(await info.json()).toEqual({ occupied: true, subscription_count: 1, user_count: 1 })
		const empty = await sdk.get({ path: '/channels/nobody-here' })
		expect(await empty.json()).toEqual({ occupied: false, subscription_count: 0 })
		const users = await sdk.get({ path: '/channels/presence-desk/users' })
		expect(await users.json()).toEqual({ users: [{ id: 'agent-1' }] })
		await expect(sdk.get({ path: '/channels/public/users' }).catch(status)).resolves.toBe(400)
	})

	it('answers terminate_connections for a user with no connections', async () => {
		const response = await sdk.terminateUserConnections('ghost')
		expect(await response.json()).toEqual({})
	})
})

describe('request authentication', () => {
	it('accepts a request signed by hand per the HTTP API reference', async () => {
		const response = await fetch(signedUrl(server.port, { params: { filter_by_prefix: 'presence-' } }))
		expect(response.status).toBe(200)
	})

	it.each([
		['a wrong secret', { secret: 'nope' }],
		['an unknown key', { key: 'other-key' }],
		['a stale timestamp', { timestampOffset: -700 }],
		['a future timestamp', { timestampOffset: 700 }],
	])('answers 401 with a JSON error for %s', async (_label, options) => {
		const response = await fetch(signedUrl(server.port, options))
		expect(response.status).toBe(401)
		expect(await response.json()).toEqual({ error: expect.any(String) })
	})

	it('answers 401 when the body does not match body_md5', async () => {
		const path = `/apps/${APP.id}/events`
		const body = JSON.stringify({ name: 'e', data: '{}', channel: 'c' })
		const url = signedUrl(server.port, { method: 'POST', path, body })
		const tampered = await fetch(url, { method: 'POST', body: body.replace('"c"', '"d"') })
		expect(tampered.status).toBe(401)
		const untouched = await fetch(url, { method: 'POST', body })
		expect(untouched.status).toBe(200)
	})

	it('answers 401 when the signature is missing or tampered with', async () => {
		const url = signedUrl(server.port)
		expect((await fetch(url.replace(/auth_signature=[0-9a-f]+/, 'auth_signature=00'))).status).toBe(401)
		expect((await fetch(url.replace(/&auth_signature=[0-9a-f]+/, ''))).status).toBe(401)
		expect((await fetch(`${url}&extra=1`)).status).toBe(401)
	})

	it('answers 404 for unknown apps and 403 for disabled ones', async () => {
		const unknown = await fetch(signedUrl(server.port, { path: '/apps/9999/channels' }))
		expect(unknown.status).toBe(404)
		expect(await unknown.json()).toEqual({ error: expect.any(String) })
		const disabled = await fetch(signedUrl(server.port, { path: `/apps/${DISABLED.id}/channels`, key: DISABLED.key, secret: DISABLED.secret }))
		expect(disabled.status).toBe(403)
	})

	it('answers 405 for the wrong method and 400 for a malformed body', async () => {
		const wrongMethod = await fetch(signedUrl(server.port, { path: `/apps/${APP.id}/events` }))
		expect(wrongMethod.status).toBe(405)
		const path = `/apps/${APP.id}/events`
		const body = '{"name":'
		const malformed = await fetch(signedUrl(server.port, { method: 'POST', path, body }), { method: 'POST', body })
		expect(malformed.status).toBe(400)
	})

	it('passes requests it does not own to the next middleware', async () => {
		expect(await (await fetch(`http://127.0.0.1:${server.port}/health`)).json()).toEqual({ ok: true })
		const other = await fetch(`http://127.0.0.1:${server.port}/apps/${APP.id}/something-else`)
		expect(other.status).toBe(404)
		expect(await other.json()).toEqual({ host: 'not found' })
	})
})
