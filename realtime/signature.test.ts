import PusherServer from 'pusher'
import { describe, expect, it } from 'vitest'
import { md5Hex, safeEqual, signChannel, signUser, verifyApiRequest, verifyChannelAuth, verifyUserAuth } from './signature.ts'

const credentials = { key: 'key', secret: 'secret' }
const sdk = new PusherServer({ appId: '1', key: credentials.key, secret: credentials.secret, host: 'localhost', useTLS: false })

describe('socket signatures', () => {
	it('matches the official SDK for private, presence and user signatures', () => {
		expect(signChannel(credentials, '1.2', 'private-a')).toBe(sdk.authorizeChannel('1.2', 'private-a').auth)
		const presence = sdk.authorizeChannel('1.2', 'presence-a', { user_id: 'u', user_info: { n: 1 } })
		expect(signChannel(credentials, '1.2', 'presence-a', presence.channel_data)).toBe(presence.auth)
		const user = sdk.authenticateUser('1.2', { id: 'u' })
		expect(signUser(credentials, '1.2', user.user_data)).toBe(user.auth)
	})

	it('rejects signatures for another socket, channel, key or payload', () => {
		const { auth } = sdk.authorizeChannel('1.2', 'private-a')
		expect(verifyChannelAuth(credentials, '1.2', 'private-a', auth)).toBe(true)
		expect(verifyChannelAuth(credentials, '1.3', 'private-a', auth)).toBe(false)
		expect(verifyChannelAuth(credentials, '1.2', 'private-b', auth)).toBe(false)
		expect(verifyChannelAuth({ ...credentials, key: 'other' }, '1.2', 'private-a', auth)).toBe(false)
		expect(verifyChannelAuth(credentials, '1.2', 'private-a', undefined)).toBe(false)
		const user = sdk.authenticateUser('1.2', { id: 'u' })
		expect(verifyUserAuth(credentials, '1.2', user.user_data, user.auth)).toBe(true)
		expect(verifyUserAuth(credentials, '1.2', JSON.stringify({ id: 'admin' }), user.auth)).toBe(false)
	})

	it('compares strings of different lengths safely', () => {
		expect(safeEqual('abc', 'abc')).toBe(true)
		expect(safeEqual('abc', 'abcd')).toBe(false)
		expect(safeEqual('é', 'e')).toBe(false)
	})
})

describe('HTTP API signatures', () => {
	// The server's clock as the SDK's when it signed: a test that runs long after this file was loaded stays exact.
	function request(method: string, path: string, body = '', params: Record<string, string> = {}) {
		const query = sdk.createSignedQueryString({ method, path, body: body === '' ? undefined : body, params })
		const nowSeconds = Number(new URLSearchParams(query).get('auth_timestamp'))
		return { method, path, query: query.split('&'), body, nowSeconds }
	}

	it('verifies queries signed by the official SDK', () => {
		expect(verifyApiRequest(credentials, request('GET', '/apps/1/channels', '', { filter_by_prefix: 'presence-', info: 'user_count' }))).toEqual({ ok: true })
		const body = JSON.stringify({ name: 'e', data: 'é', channel: 'c' })
		expect(verifyApiRequest(credentials, request('POST', '/apps/1/events', body))).toEqual({ ok: true })
	})

	it('accepts the query string after a client percent-encoded it', () => {
		const signed = request('GET', '/apps/1/channels', '', { info: 'user_count,subscription_count' })
		const encoded = { ...signed, query: signed.query.map((pair) => pair.replace(',', '%2C')) }
		expect(verifyApiRequest(credentials, encoded)).toEqual({ ok: true })
	})

	it('rejects a changed method, path, body or timestamp', () => {
		const body = '{"name":"e"}'
		const signed = request('POST', '/apps/1/events', body)
		expect(verifyApiRequest(credentials, { ...signed, method: 'GET' }).ok).toBe(false)
		expect(verifyApiRequest(credentials, { ...signed, path: '/apps/2/events' }).ok).toBe(false)
		expect(verifyApiRequest(credentials, { ...signed, body: '{"name":"f"}' }).ok).toBe(false)
		expect(verifyApiRequest(credentials, { ...signed, nowSeconds: signed.nowSeconds + 601 }).ok).toBe(false)
		expect(verifyApiRequest({ ...credentials, secret: 'other' }, signed).ok).toBe(false)
		expect(md5Hex(body)).toMatch(/^[0-9a-f]{32}$/)
	})
})
