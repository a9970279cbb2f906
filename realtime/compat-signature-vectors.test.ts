import PusherServer from 'pusher'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { md5Hex, signChannel, signUser, verifyApiRequest, verifyChannelAuth, verifyUserAuth } from './signature.ts'
import { RawClient, startServer, type TestServer } from './test-support.ts'

// The worked examples of Pusher's documentation (auth signatures and HTTP API reference): published
// vectors, so a wrongly assembled string-to-sign fails here even when our code agrees with itself.
const DOCS = { id: '3', key: '278d425bdf160c739803', secret: '7ad3773142a6692b25b8' }
const SOCKET_ID = '1234.1234'

const PRIVATE_AUTH = '278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4'
const PRESENCE_CHANNEL_DATA = '{"user_id":10,"user_info":{"name":"Mr. Pusher"}}'
const PRESENCE_AUTH = '278d425bdf160c739803:afaed3695da2ffd16931f457e338e6c9f2921fa133ce7dac49f529792be6304c'
const USER_DATA = '{"id":"12345"}'
const USER_AUTH = '278d425bdf160c739803:4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba'

const EVENTS_PATH = '/apps/3/events'
const EVENTS_BODY = '{"name":"foo","channels":["project-3"],"data":"{\\"some\\":\\"data\\"}"}'
const EVENTS_TIMESTAMP = 1353088179
const EVENTS_BODY_MD5 = 'ec365a775a4cd0599faeb73354201b6f'
const EVENTS_SIGNATURE = 'da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c'
const EVENTS_QUERY = [
	`auth_key=${DOCS.key}`,
	`auth_timestamp=${EVENTS_TIMESTAMP}`,
	'auth_version=1.0',
	`body_md5=${EVENTS_BODY_MD5}`,
	`auth_signature=${EVENTS_SIGNATURE}`,
]

const sdk = new PusherServer({ appId: DOCS.id, key: DOCS.key, secret: DOCS.secret, host: '127.0.0.1', useTLS: false })

describe('private channel authorisation (auth signatures, worked example)', () => {
	it('signs socket 1234.1234 on private-foobar as documented', () => {
		expect(signChannel(DOCS, SOCKET_ID, 'private-foobar')).toBe(PRIVATE_AUTH)
		expect(sdk.authorizeChannel(SOCKET_ID, 'private-foobar')).toEqual({ auth: PRIVATE_AUTH })
	})

	it('accepts the documented auth and refuses it for another socket, channel or key', () => {
		expect(verifyChannelAuth(DOCS, SOCKET_ID, 'private-foobar', PRIVATE_AUTH)).toBe(true)
		expect(verifyChannelAuth(DOCS, '1234.1235', 'private-foobar', PRIVATE_AUTH)).toBe(false)
		expect(verifyChannelAuth(DOCS, SOCKET_ID, 'private-foobaz', PRIVATE_AUTH)).toBe(false)
		expect(verifyChannelAuth({ ...DOCS, secret: 'another secret' }, SOCKET_ID, 'private-foobar', PRIVATE_AUTH)).toBe(false)
	})
})

describe('presence channel authorisation (auth signatures, presence example)', () => {
	it('signs the channel_data string exactly as given', () => {
		expect(signChannel(DOCS, SOCKET_ID, 'presence-foobar', PRESENCE_CHANNEL_DATA)).toBe(PRESENCE_AUTH)
		expect(verifyChannelAuth(DOCS, SOCKET_ID, 'presence-foobar', PRESENCE_AUTH, PRESENCE_CHANNEL_DATA)).toBe(true)
	})

	it('refuses the documented auth with changed channel_data or without it', () => {
		const promoted = PRESENCE_CHANNEL_DATA.replace('Mr. Pusher', 'Admin')
		expect(verifyChannelAuth(DOCS, SOCKET_ID, 'presence-foobar', PRESENCE_AUTH, promoted)).toBe(false)
		expect(verifyChannelAuth(DOCS, SOCKET_ID, 'presence-foobar', PRESENCE_AUTH)).toBe(false)
	})
})

describe('user authentication (auth signatures, user authentication example)', () => {
	it('signs user_data {"id":"12345"} for socket 1234.1234 as documented', () => {
		expect(signUser(DOCS, SOCKET_ID, USER_DATA)).toBe(USER_AUTH)
		expect(sdk.authenticateUser(SOCKET_ID, { id: '12345' })).toEqual({ auth: USER_AUTH, user_data: USER_DATA })
	})

	it('refuses the documented auth for another user or socket', () => {
		expect(verifyUserAuth(DOCS, SOCKET_ID, USER_DATA, USER_AUTH)).toBe(true)
		expect(verifyUserAuth(DOCS, SOCKET_ID, '{"id":"12346"}', USER_AUTH)).toBe(false)
		expect(verifyUserAuth(DOCS, '1234.1235', USER_DATA, USER_AUTH)).toBe(false)
		// A channel signature is not a user signature, even for the same socket.
		expect(verifyUserAuth(DOCS, SOCKET_ID, 'private-foobar', PRIVATE_AUTH)).toBe(false)
	})
})

describe('HTTP API request signing (HTTP API reference, worked example)', () => {
	const request = { method: 'POST', path: EVENTS_PATH, query: EVENTS_QUERY, body: EVENTS_BODY, nowSeconds: EVENTS_TIMESTAMP }

	afterEach(() => {
		vi.useRealTimers()
	})

	it('computes the documented body_md5 and accepts the documented signature', () => {
		expect(md5Hex(EVENTS_BODY)).toBe(EVENTS_BODY_MD5)
		expect(verifyApiRequest(DOCS, request)).toEqual({ ok: true })
		// Parameter order in the URL does not matter: they are sorted before signing.
		expect(verifyApiRequest(DOCS, { ...request, query: [...EVENTS_QUERY].reverse() })).toEqual({ ok: true })
	})

	it('gets the documented signature from the official SDK at the documented time', () => {
		vi.useFakeTimers({ toFake: ['Date'], now: EVENTS_TIMESTAMP * 1000 })
		const query = new URLSearchParams(sdk.createSignedQueryString({ method: 'POST', path: EVENTS_PATH, body: EVENTS_BODY }))
		expect(query.get('auth_signature')).toBe(EVENTS_SIGNATURE)
		expect(query.get('body_md5')).toBe(EVENTS_BODY_MD5)
	})

	it('refuses the documented request with another body, method, path or secret, or 601 s later', () => {
		expect(verifyApiRequest(DOCS, { ...request, body: EVENTS_BODY.replace('project-3', 'project-4') }).ok).toBe(false)
		expect(verifyApiRequest(DOCS, { ...request, method: 'PUT' }).ok).toBe(false)
		expect(verifyApiRequest(DOCS, { ...request, path: '/apps/4/events' }).ok).toBe(false)
		expect(verifyApiRequest({ ...DOCS, secret: 'another secret' }, request).ok).toBe(false)
		expect(verifyApiRequest(DOCS, { ...request, nowSeconds: EVENTS_TIMESTAMP + 600 }).ok).toBe(true)
		expect(verifyApiRequest(DOCS, { ...request, nowSeconds: EVENTS_TIMESTAMP + 601 }).ok).toBe(false)
	})
})

describe('the documented request against the server', () => {
	let server: TestServer
	const clients: RawClient[] = []

	beforeAll(async () => {
		server = await startServer({ apps: [DOCS] })
	})

	afterEach(async () => {
		vi.useRealTimers()
		await Promise.all(clients.splice(0).map((client) => client.close()))
	})

	afterAll(async () => {
		await server.close()
	})

	function post(): Promise<Response> {
		return fetch(`http://127.0.0.1:${server.port}${EVENTS_PATH}?${EVENTS_QUERY.join('&')}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: EVENTS_BODY,
		})
	}

	it('delivers the documented event when the clock reads the documented time', async () => {
		const client = await RawClient.connect(server.port, `/app/${DOCS.key}?protocol=7&client=raw&version=1`)
		clients.push(client)
		expect((await client.subscribe('project-3')).event).toBe('pusher_internal:subscription_succeeded')
		vi.useFakeTimers({ toFake: ['Date'], now: (EVENTS_TIMESTAMP + 30) * 1000 })
		const response = await post()
		expect(response.status).toBe(200)
		expect(await client.next('foo')).toEqual({ event: 'foo', channel: 'project-3', data: { some: 'data' } })
	})

	it('refuses the same request today with 401: its timestamp is years old', async () => {
		const response = await post()
		expect(response.status).toBe(401)
		expect(await response.json()).toEqual({ error: expect.stringMatching(/timestamp/i) })
	})
})
