import crypto from 'node:crypto'
import fs from 'node:fs'
import { type IncomingMessage } from 'node:http'
import path from 'node:path'
import express, { type Request } from 'express'
import { z } from 'zod'
import { channelNamePatterns, type RealtimeBrowserConfig } from '#common/realtime.ts'
import { type RealtimeServerOptions } from '#realtime/index.ts'
import { type Config, ConfigError, realtimeLimits, trustProxy } from './config.ts'

/** Where and as which app the API publishes: the `pusher` SDK's options. */
export type RealtimeTarget = { appId: string; key: string; secret: string; host: string; port: number; useTLS: boolean }

/** One Pusher app: what the SDK signs and publishes with, and what the embedded server accepts. */
export type RealtimeApp = { id: string; key: string; secret: string }

/**
 * The effective realtime configuration, decided here only: the embedded server (empty
 * PUSHER_HOST) or an external Pusher Channels / Soketi, how the API reaches it, and what browsers use.
 */
export type RealtimeConfig = {
	embedded: boolean
	app: RealtimeApp
	/** Where the API publishes (the `pusher` SDK's host, port, useTLS). Port 0: this server's own, known once listening. */
	host: string
	port: number
	useTLS: boolean
	cluster: string
	browser: RealtimeBrowserConfig
}

const credentialsFile = 'realtime-app.json'

function isApp(value: unknown): value is RealtimeApp {
	if (typeof value !== 'object' || value === null) return false
	const record = value as Record<string, unknown>
	return ['id', 'key', 'secret'].every((field) => typeof record[field] === 'string' && record[field] !== '')
}

/** The embedded server's app credentials, generated once and kept in DATA_DIR so open pages survive a restart. */
export function readOrCreateRealtimeApp(dataDir: string): RealtimeApp {
	const file = path.join(dataDir, credentialsFile)
	try {
		const stored: unknown = JSON.parse(fs.readFileSync(file, 'utf8'))
		if (isApp(stored)) return { id: stored.id, key: stored.key, secret: stored.secret }
	} catch {
		// Missing or unreadable: written below.
	}
	fs.mkdirSync(dataDir, { recursive: true })
	const app: RealtimeApp = {
		id: String(crypto.randomInt(100_000, 1_000_000)),
		key: crypto.randomBytes(10).toString('hex'),
		secret: crypto.randomBytes(32).toString('hex'),
	}
	fs.writeFileSync(file, `${JSON.stringify(app, null, '\t')}\n`, { mode: 0o600 })
	// A damaged file that is overwritten keeps its old mode otherwise.
	fs.chmodSync(file, 0o600)
	return app
}

/** Pusher Channels itself, whose browsers connect through the cluster rather than the API host. */
function isPusherChannels(host: string): boolean {
	return /(^|\.)pusher(app)?\.com$/i.test(host)
}

/** The address this process answers on, from the API's point of view (it publishes to itself). */
function loopbackOf(host: string): string {
	if (host === '0.0.0.0' || host === '::') return '127.0.0.1'
	return host.includes(':') ? `[${host}]` : host
}

/** The `pusher` SDK's target; `port` overrides the configured one (the embedded server's, once listening). */
export function publishTarget(realtime: RealtimeConfig, port = realtime.port): RealtimeTarget {
	const { app, host, useTLS } = realtime
	return { appId: app.id, key: app.key, secret: app.secret, host, port, useTLS }
}

export function resolveRealtimeConfig(config: Config): RealtimeConfig {
	const cluster = config.PUSHER_CLUSTER ?? 'mt1'
	if (!config.PUSHER_HOST) {
		const app = readOrCreateRealtimeApp(config.dataDir)
		const publicUrl = new URL(config.PUBLIC_URL)
		const secure = publicUrl.protocol === 'https:'
		return {
			embedded: true,
			app,
			host: loopbackOf(config.HOST),
			port: config.PORT,
			useTLS: false,
			cluster,
			// Browsers reach the embedded server where they reach the app; TLS exactly when the app has it.
			browser: {
				key: app.key,
				cluster,
				wsHost: publicUrl.hostname,
				wsPort: Number(publicUrl.port) || (secure ? 443 : 80),
				forceTLS: secure,
			},
		}
	}
	// parseConfig refuses PUSHER_HOST without the three credentials.
	const app = { id: config.PUSHER_APP_ID ?? '', key: config.PUSHER_KEY ?? '', secret: config.PUSHER_SECRET ?? '' }
	const useTLS = config.PUSHER_FORCE_TLS ?? true
	const port = config.PUSHER_PORT ?? (useTLS ? 443 : 80)
	const host = config.PUSHER_HOST
	return {
		embedded: false,
		app,
		host,
		port,
		useTLS,
		cluster,
		browser: config.PUSHER_PUBLIC_URL
			? browserAt(app.key, cluster, new URL(config.PUSHER_PUBLIC_URL))
			: isPusherChannels(host)
				? { key: app.key, cluster, wsHost: null, wsPort: null, forceTLS: true }
				: { key: app.key, cluster, wsHost: host, wsPort: port, forceTLS: useTLS },
	}
}

/** Browsers at a public address of their own (PUSHER_PUBLIC_URL: Soketi behind the app's reverse proxy, say). */
function browserAt(key: string, cluster: string, url: URL): RealtimeBrowserConfig {
	const secure = url.protocol === 'https:' || url.protocol === 'wss:'
	return { key, cluster, wsHost: url.hostname, wsPort: Number(url.port) || (secure ? 443 : 80), forceTLS: secure }
}

/** What the realtime server's limits are read from: the app's configuration, or the standalone process's. */
export type RealtimeLimits = Pick<
	Config,
	| 'TRUST_PROXY'
	| 'REALTIME_MAX_CONNECTIONS'
	| 'REALTIME_MAX_CONNECTIONS_PER_ADDRESS'
	| 'REALTIME_MAX_CHANNELS_PER_CONNECTION'
	| 'REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND'
>

/**
 * What the embedded or standalone realtime server is told of the product: the only channels its pages
 * subscribe to, its limits, and whose X-Forwarded-For to believe when counting connections per address.
 */
export function realtimeServerOptions(limits: RealtimeLimits): Partial<RealtimeServerOptions> {
	return {
		channelNames: channelNamePatterns,
		maxConnections: limits.REALTIME_MAX_CONNECTIONS,
		maxConnectionsPerAddress: limits.REALTIME_MAX_CONNECTIONS_PER_ADDRESS,
		maxChannelsPerConnection: limits.REALTIME_MAX_CHANNELS_PER_CONNECTION,
		maxSubscriptionsPerSecond: limits.REALTIME_MAX_SUBSCRIPTIONS_PER_SECOND,
		clientAddress: clientAddressFor(limits.TRUST_PROXY),
	}
}

/**
 * A WebSocket upgrade's client address as Express's `req.ip` would say with TRUST_PROXY: behind a proxy every
 * browser comes from the proxy's address, which a per-address limit must not count as one client.
 */
export function clientAddressFor(trust: string): (req: IncomingMessage) => string | undefined {
	const app = express()
	app.set(
		'trust proxy',
		trust.split(',').map((part) => part.trim()),
	)
	// Upgrades never pass through Express: its request prototype reads `ip` from the headers and socket given.
	return (req) =>
		(Object.create(app.request, { headers: { value: req.headers }, socket: { value: req.socket }, connection: { value: req.socket } }) as Request).ip
}

/** The standalone realtime process (`npm run start:realtime`): one app, where it listens, how it stops, its limits. */
export type StandaloneRealtimeConfig = {
	app: RealtimeApp
	host: string
	port: number
	logLevel: Config['LOG_LEVEL']
	limits: RealtimeLimits
	/** Where its presence webhooks go (REALTIME_WEBHOOK_URL: the app's `/webhooks/realtime`); none without it. */
	webhookUrl?: string
}

const standaloneLimits = z.object({ TRUST_PROXY: trustProxy, ...realtimeLimits })

/**
 * The standalone process's configuration, from the same PUSHER_* variables the app processes
 * publish with: PUSHER_APP_ID, PUSHER_KEY and PUSHER_SECRET are required (every process must agree on
 * them, so none is generated), it listens on HOST (0.0.0.0) and PUSHER_PORT (6001, Soketi's), with the
 * app's REALTIME_* limits and TRUST_PROXY (a proxy in front of it, too, must not count as one client);
 * REALTIME_WEBHOOK_URL is where it tells who connects (presence, for auto-assignment).
 */
export function parseStandaloneRealtimeConfig(env: Record<string, string | undefined>): StandaloneRealtimeConfig {
	const problems: string[] = []
	const value = (name: string) => {
		const found = env[name]?.trim()
		if (!found) problems.push(`${name} is required: every app process publishes with the same one`)
		return found ?? ''
	}
	const app = { id: value('PUSHER_APP_ID'), key: value('PUSHER_KEY'), secret: value('PUSHER_SECRET') }
	const portText = env.PUSHER_PORT?.trim() || '6001'
	const port = Number(portText)
	if (!/^\d+$/.test(portText) || port > 65535) problems.push('PUSHER_PORT must be a port number (0 to 65535)')
	const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
	const logLevel = levels.find((level) => level === (env.LOG_LEVEL?.trim() || 'info'))
	if (!logLevel) problems.push(`LOG_LEVEL must be one of ${levels.join(', ')}`)
	const limits = standaloneLimits.safeParse(env)
	if (!limits.success) problems.push(...limits.error.issues.map((issue) => issue.message))
	const webhookUrl = env.REALTIME_WEBHOOK_URL?.trim() || undefined
	if (webhookUrl && !/^https?:$/.test(URL.canParse(webhookUrl) ? new URL(webhookUrl).protocol : ''))
		problems.push("REALTIME_WEBHOOK_URL must be an http(s) URL (the app's /webhooks/realtime)")
	if (problems.length || !limits.success) throw new ConfigError(problems)
	return { app, host: env.HOST?.trim() || '0.0.0.0', port, logLevel: logLevel ?? 'info', limits: limits.data, webhookUrl }
}
