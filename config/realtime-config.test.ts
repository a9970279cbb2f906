import fs from 'node:fs'
import { type IncomingMessage } from 'node:http'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseConfig } from './config.ts'
import { problemsOf, tmpDataDir } from './config-test-support.ts'
import {
	clientAddressFor,
	parseStandaloneRealtimeConfig,
	publishTarget,
	type RealtimeLimits,
	realtimeServerOptions,
	resolveRealtimeConfig,
} from './realtime-config.ts'
import { ConfigError } from './config.ts'

describe('realtime configuration', () => {
	test('without PUSHER_HOST: the embedded server, with credentials generated once into DATA_DIR (0600)', () => {
		const dir = tmpDataDir()
		const config = parseConfig({ PORT: '4100' }, dir)
		const realtime = resolveRealtimeConfig(config)
		expect(realtime).toMatchObject({ embedded: true, host: '127.0.0.1', port: 4100, useTLS: false })
		expect(realtime.app.id).toMatch(/^\d{6}$/)
		expect(realtime.app.key).toMatch(/^[0-9a-f]{20}$/)
		expect(realtime.app.secret).toMatch(/^[0-9a-f]{64}$/)
		const file = path.join(config.dataDir, 'realtime-app.json')
		expect(fs.statSync(file).mode & 0o777).toBe(0o600)
		expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(realtime.app)
		expect(resolveRealtimeConfig(parseConfig({}, dir)).app).toEqual(realtime.app)
		// Browsers reach it where they reach the app, without TLS on plain http.
		expect(realtime.browser).toEqual({ key: realtime.app.key, cluster: 'mt1', wsHost: 'localhost', wsPort: 4100, forceTLS: false })
		expect(publishTarget(realtime, 5555)).toEqual({
			appId: realtime.app.id,
			key: realtime.app.key,
			secret: realtime.app.secret,
			host: '127.0.0.1',
			port: 5555,
			useTLS: false,
		})
	})

	test('embedded behind https: the browser uses TLS on the public port', () => {
		const realtime = resolveRealtimeConfig(parseConfig({ PUBLIC_URL: 'https://crm.example.com', HOST: '10.0.0.5' }, tmpDataDir()))
		expect(realtime.host).toBe('10.0.0.5')
		expect(realtime.browser).toMatchObject({ wsHost: 'crm.example.com', wsPort: 443, forceTLS: true })
	})

	test('damaged credentials are replaced', () => {
		const dir = tmpDataDir()
		fs.mkdirSync(path.join(dir, '.data'))
		fs.writeFileSync(path.join(dir, '.data', 'realtime-app.json'), '{"id": 1', { mode: 0o644 })
		const realtime = resolveRealtimeConfig(parseConfig({}, dir))
		expect(realtime.app.key).toMatch(/^[0-9a-f]{20}$/)
		expect(fs.statSync(path.join(dir, '.data', 'realtime-app.json')).mode & 0o777).toBe(0o600)
	})

	test('Soketi: publish and connect to PUSHER_HOST, over TLS unless told otherwise', () => {
		const credentials = { PUSHER_APP_ID: 'app', PUSHER_KEY: 'key', PUSHER_SECRET: 'secret' }
		const tls = resolveRealtimeConfig(parseConfig({ ...credentials, PUSHER_HOST: 'soketi.example.com' }, tmpDataDir()))
		expect(tls).toMatchObject({ embedded: false, host: 'soketi.example.com', port: 443, useTLS: true, app: { id: 'app', key: 'key', secret: 'secret' } })
		expect(tls.browser).toEqual({ key: 'key', cluster: 'mt1', wsHost: 'soketi.example.com', wsPort: 443, forceTLS: true })
		const plain = resolveRealtimeConfig(parseConfig({ ...credentials, PUSHER_HOST: 'soketi', PUSHER_PORT: '6001', PUSHER_FORCE_TLS: 'false' }, tmpDataDir()))
		expect(plain).toMatchObject({ port: 6001, useTLS: false, browser: { wsHost: 'soketi', wsPort: 6001, forceTLS: false } })
	})

	test('Pusher Channels: browsers connect through the cluster', () => {
		const realtime = resolveRealtimeConfig(
			parseConfig({ PUSHER_APP_ID: '1', PUSHER_KEY: 'key', PUSHER_SECRET: 's', PUSHER_HOST: 'api-eu.pusher.com', PUSHER_CLUSTER: 'eu' }, tmpDataDir()),
		)
		expect(realtime).toMatchObject({ host: 'api-eu.pusher.com', port: 443, useTLS: true })
		expect(realtime.browser).toEqual({ key: 'key', cluster: 'eu', wsHost: null, wsPort: null, forceTLS: true })
	})

	test('an external host needs credentials and is a host name', () => {
		expect(problemsOf({ PUSHER_HOST: 'soketi.example' })).toEqual(['PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET are required when PUSHER_HOST is set'])
		expect(problemsOf({ PUSHER_HOST: 'https://soketi.example', PUSHER_APP_ID: '1', PUSHER_KEY: 'k', PUSHER_SECRET: 's' })).toEqual([
			'PUSHER_HOST must be a host name without scheme or path, e.g. soketi.example.com',
		])
	})

	test('PUSHER_PUBLIC_URL: browsers reach Soketi behind the app’s proxy while the app publishes to it directly', () => {
		const credentials = {
			PUSHER_APP_ID: 'app',
			PUSHER_KEY: 'key',
			PUSHER_SECRET: 'secret',
			PUSHER_HOST: 'soketi',
			PUSHER_PORT: '6001',
			PUSHER_FORCE_TLS: 'false',
		}
		const realtime = resolveRealtimeConfig(parseConfig({ ...credentials, PUSHER_PUBLIC_URL: 'https://crm.example.com' }, tmpDataDir()))
		expect(realtime).toMatchObject({ host: 'soketi', port: 6001, useTLS: false })
		expect(realtime.browser).toEqual({ key: 'key', cluster: 'mt1', wsHost: 'crm.example.com', wsPort: 443, forceTLS: true })
		expect(resolveRealtimeConfig(parseConfig({ ...credentials, PUSHER_PUBLIC_URL: 'http://localhost:8080' }, tmpDataDir())).browser).toMatchObject({
			wsHost: 'localhost',
			wsPort: 8080,
			forceTLS: false,
		})
		expect(problemsOf({ ...credentials, PUSHER_PUBLIC_URL: 'https://crm.example.com/app' })).toEqual([
			'PUSHER_PUBLIC_URL must be a scheme and host only, e.g. https://crm.example.com',
		])
	})

	test('the standalone process: the same PUSHER_* credentials, required, on PUSHER_PORT (6001 by default)', () => {
		const env = { PUSHER_APP_ID: 'app', PUSHER_KEY: 'key', PUSHER_SECRET: 'secret' }
		expect(parseStandaloneRealtimeConfig(env)).toEqual({
			app: { id: 'app', key: 'key', secret: 'secret' },
			host: '0.0.0.0',
			port: 6001,
			logLevel: 'info',
			limits: defaultLimits,
		})
		expect(parseStandaloneRealtimeConfig({ ...env, HOST: '127.0.0.1', PUSHER_PORT: '44001', LOG_LEVEL: 'warn' })).toMatchObject({
			host: '127.0.0.1',
			port: 44001,
			logLevel: 'warn',
		})
		const refused = (values: Record<string, string>) => {
			try {
				parseStandaloneRealtimeConfig(values)
			} catch (error) {
				if (error instanceof ConfigError) return error.problems
				throw error
			}
			return []
		}
		expect(refused({ PUSHER_KEY: 'key', PUSHER_PORT: 'x', LOG_LEVEL: 'loud' })).toEqual([
			'PUSHER_APP_ID is required: every app process publishes with the same one',
			'PUSHER_SECRET is required: every app process publishes with the same one',
			'PUSHER_PORT must be a port number (0 to 65535)',
			'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
		])
		expect(parseStandaloneRealtimeConfig({ ...env, REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '5', TRUST_PROXY: 'uniquelocal' }).limits).toMatchObject({
			REALTIME_MAX_CONNECTIONS_PER_ADDRESS: 5,
			TRUST_PROXY: 'uniquelocal',
		})
		expect(refused({ ...env, REALTIME_MAX_CHANNELS_PER_CONNECTION: 'many', REALTIME_MAX_CONNECTIONS: '0' })).toEqual([
			'REALTIME_MAX_CONNECTIONS must be at least 1',
			'REALTIME_MAX_CHANNELS_PER_CONNECTION must be a number',
		])
	})

	test('the realtime server’s limits: finite by default, each one configurable, nonsense refused', () => {
		expect(pick(parseConfig({}, tmpDataDir()))).toEqual(defaultLimits)
		const configured = parseConfig(
			{
				REALTIME_MAX_CONNECTIONS: '500',
				REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '8',
				REALTIME_MAX_CHANNELS_PER_CONNECTION: '20',
				REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND: '4',
			},
			tmpDataDir(),
		)
		const options = realtimeServerOptions(configured)
		expect(options).toMatchObject({ maxConnections: 500, maxConnectionsPerAddress: 8, maxChannelsPerConnection: 20, maxSubscriptionsPerSecond: 4 })
		// Only the product's channels, public ones never.
		const workspace = '0b6a8a52-6c1f-4a38-9d43-2f7d3a1c5e10'
		const allowed = (name: string) => options.channelNames?.some((pattern) => pattern.test(name)) ?? false
		for (const name of [
			`private-workspace-${workspace}`,
			`presence-workspace-${workspace}`,
			`presence-conversation-${workspace}`,
			`private-visitor-${workspace}`,
		]) {
			expect(allowed(name)).toBe(true)
		}
		// private-conversation-{id} is retired: typing and viewing moved to the presence channel.
		for (const name of [
			'news',
			`private-workspace-${workspace}x`,
			`presence-workspace-${workspace.toUpperCase()}`,
			'private-anything',
			`cache-${workspace}`,
			`private-conversation-${workspace}`,
		]) {
			expect(allowed(name)).toBe(false)
		}
		expect(problemsOf({ REALTIME_MAX_CONNECTIONS_PER_ADDRESS: '1.5' })).toEqual(['REALTIME_MAX_CONNECTIONS_PER_ADDRESS must be a whole number'])
		expect(problemsOf({ REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND: 'x' })).toEqual(['REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND must be a number'])
	})

	test('a connection’s address: the peer, or X-Forwarded-For when the peer is a trusted proxy', () => {
		const upgrade = (peer: string, forwarded?: string) =>
			({ headers: forwarded ? { 'x-forwarded-for': forwarded } : {}, socket: { remoteAddress: peer } }) as unknown as IncomingMessage
		const behindLoopback = clientAddressFor('loopback')
		expect(behindLoopback(upgrade('127.0.0.1', '203.0.113.7'))).toBe('203.0.113.7')
		// Anyone else's header is their own say-so.
		expect(behindLoopback(upgrade('198.51.100.2', '203.0.113.7'))).toBe('198.51.100.2')
		expect(clientAddressFor('10.0.0.0/8')(upgrade('10.1.2.3', '2001:db8::1, 10.0.0.5'))).toBe('2001:db8::1')
	})
})

const defaultLimits = {
	TRUST_PROXY: 'loopback',
	REALTIME_MAX_CONNECTIONS: 10_000,
	REALTIME_MAX_CONNECTIONS_PER_ADDRESS: 50,
	REALTIME_MAX_CHANNELS_PER_CONNECTION: 100,
	REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND: 10,
}

function pick(config: RealtimeLimits): RealtimeLimits {
	return Object.fromEntries(Object.keys(defaultLimits).map((key) => [key, config[key as keyof RealtimeLimits]])) as RealtimeLimits
}
