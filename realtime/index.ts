import { randomInt } from 'node:crypto'
import { type IncomingMessage } from 'node:http'
import { type Duplex } from 'node:stream'
import { type WebSocket, WebSocketServer } from 'ws'
import { type Adapter } from './adapter.ts'
import { addressKey } from './address.ts'
import { type App, type AppConfig, type AppLimits, AppRegistry } from './apps.ts'
import { DEFAULT_CHANNEL_NAMES } from './channels.ts'
import { Connection, type ConnectionSettings } from './connection.ts'
import { createHttpHandler, type HttpHandler } from './http-api.ts'
import { LocalAdapter } from './local-adapter.ts'
import { type Logger, noopLogger } from './logger.ts'
import { CloseCode, closeReason, errorMessage, SUPPORTED_PROTOCOLS } from './protocol.ts'
import { createWebhookSender } from './webhooks.ts'

export type { Adapter, AdapterSocket, ChannelStats, JoinOptions } from './adapter.ts'
export type { App, AppConfig, AppLimits } from './apps.ts'
export { DEFAULT_CHANNEL_NAMES } from './channels.ts'
export type { HttpHandler } from './http-api.ts'
export type { Logger } from './logger.ts'
export { LocalAdapter } from './local-adapter.ts'
export { CloseCode, ErrorCode } from './protocol.ts'
export type { WebhookConfig, WebhookEvent, WebhookEventName } from './webhooks.ts'

export interface RealtimeServerOptions {
	apps: AppConfig[]
	logger?: Logger
	// Defaults to an in-process LocalAdapter, which close() also closes; a given adapter is left open.
	adapter?: Adapter
	// Defaults for the per-app limits that an AppConfig does not set.
	appDefaults?: Partial<AppLimits>
	activityTimeoutSeconds?: number
	pongTimeoutSeconds?: number
	// Connections across all apps; beyond it new sockets are closed with 4100.
	maxConnections?: number
	// Connections from one address (an IPv6 one by its /64), all apps together; beyond it 4100 too.
	maxConnectionsPerAddress?: number
	// Where a connection comes from, for maxConnectionsPerAddress: only the host knows which proxies to believe.
	// Defaults to the peer's address.
	clientAddress?: (req: IncomingMessage) => string | undefined
	// The channel names sockets may subscribe to (user channels aside: signing in decides those). The default,
	// DEFAULT_CHANNEL_NAMES, refuses public channels: nobody authorises them, so any socket could open thousands.
	channelNames?: readonly RegExp[]
	// Channels one socket may hold at once, its user channel aside.
	maxChannelsPerConnection?: number
	// Subscription requests per second per socket, refused or not (a burst of as many is allowed).
	maxSubscriptionsPerSecond?: number
	// Largest WebSocket frame handled; larger frames get a pusher:error and are dropped.
	maxMessageBytes?: number
	maxBodyBytes?: number
	cacheTtlSeconds?: number
	// How long close() waits for clients to finish the closing handshake before dropping them.
	closeTimeoutMs?: number
	// How long a member_removed webhook waits for the user to come back (a page reload) before it is sent.
	memberRemovedWebhookDelayMs?: number
}

export interface RealtimeServer {
	handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
	matchesUpgrade(url: string | undefined): boolean
	httpHandler: HttpHandler
	connectionCount(appId?: string): number
	close(): Promise<void>
}

const APP_PATH = /^\/app\/([^/]+)$/
// Frames above this are refused by ws itself (close 1009); below it, oversize gets a pusher:error.
const HARD_FRAME_LIMIT_BYTES = 1024 * 1024

type Admission = { app: App } | { code: number; message: string }

export function matchesUpgrade(url: string | undefined): boolean {
	const path = (url ?? '').split('?', 1)[0] ?? ''
	return path === '/app' || path.startsWith('/app/')
}

export function createRealtimeServer(options: RealtimeServerOptions): RealtimeServer {
	const logger = options.logger ?? noopLogger
	const apps = new AppRegistry(options.apps, options.appDefaults)
	const adapter = options.adapter ?? new LocalAdapter()
	const ownsAdapter = options.adapter === undefined
	const webhooks = createWebhookSender({ logger, memberRemovedDelayMs: options.memberRemovedWebhookDelayMs })
	const settings: ConnectionSettings = {
		activityTimeoutSeconds: options.activityTimeoutSeconds ?? 120,
		pongTimeoutSeconds: options.pongTimeoutSeconds ?? 30,
		maxMessageBytes: options.maxMessageBytes ?? 16 * 1024,
		cacheTtlSeconds: options.cacheTtlSeconds ?? 30 * 60,
		channelNames: options.channelNames ?? DEFAULT_CHANNEL_NAMES,
		maxChannels: options.maxChannelsPerConnection ?? 100,
		maxSubscriptionsPerSecond: options.maxSubscriptionsPerSecond ?? 10,
	}
	const maxConnections = options.maxConnections ?? Infinity
	const maxConnectionsPerAddress = options.maxConnectionsPerAddress ?? Infinity
	const clientAddress = options.clientAddress ?? ((req: IncomingMessage) => req.socket.remoteAddress)
	// Open connections per addressKey(); an address leaves the map with its last connection.
	const perAddress = new Map<string, number>()
	const closeTimeoutMs = options.closeTimeoutMs ?? 3000
	const connections = new Map<string, Connection>()
	const wss = new WebSocketServer({
		noServer: true,
		clientTracking: false,
		maxPayload: Math.max(HARD_FRAME_LIMIT_BYTES, settings.maxMessageBytes),
	})
	let closing: Promise<void> | undefined

	function admission(req: IncomingMessage, address: string): Admission {
		if (closing !== undefined) return { code: CloseCode.Reconnect, message: 'Server is shutting down, reconnect shortly' }
		const url = URL.canParse(req.url ?? '/', 'http://localhost') ? new URL(req.url ?? '/', 'http://localhost') : undefined
		const match = url === undefined ? null : APP_PATH.exec(url.pathname)
		if (url === undefined || match === null) {
			return { code: CloseCode.PathNotFound, message: 'Path not found, expected /app/{key}' }
		}
		const protocol = url.searchParams.get('protocol')
		if (protocol === null) return { code: CloseCode.NoProtocolVersion, message: 'No protocol version supplied' }
		if (!/^\d+$/.test(protocol)) return { code: CloseCode.InvalidVersionFormat, message: 'Invalid version string format' }
		if (!SUPPORTED_PROTOCOLS.some((version) => version === Number(protocol))) {
			return { code: CloseCode.UnsupportedProtocol, message: `Unsupported protocol version ${protocol.slice(0, 8)}` }
		}
		let key: string
		try {
			key = decodeURIComponent(match[1] ?? '')
		} catch {
			return { code: CloseCode.AppNotFound, message: 'App key does not exist' }
		}
		const app = apps.byKey(key)
		if (app === undefined) return { code: CloseCode.AppNotFound, message: `App key ${key.slice(0, 64)} does not exist` }
		if (!app.enabled) return { code: CloseCode.AppDisabled, message: 'Application is disabled' }
		if (connections.size >= maxConnections) return { code: CloseCode.OverCapacity, message: 'Over capacity' }
		if ((perAddress.get(address) ?? 0) >= maxConnectionsPerAddress) {
			return { code: CloseCode.OverCapacity, message: 'Too many connections from this address' }
		}
		return { app }
	}

	function newSocketId(): string {
		for (;;) {
			const id = `${randomInt(1, 2 ** 47)}.${randomInt(1, 2 ** 47)}`
			if (!connections.has(id)) return id
		}
	}

	function accept(ws: WebSocket, req: IncomingMessage): void {
		try {
			const address = addressKey(clientAddress(req))
			const admitted = admission(req, address)
			if ('code' in admitted) {
				logger.debug({ code: admitted.code, url: req.url, address }, 'realtime connection refused')
				ws.on('error', () => undefined)
				ws.send(errorMessage(admitted.code, admitted.message))
				ws.close(admitted.code, closeReason(admitted.message))
				return
			}
			const connection = new Connection(newSocketId(), ws, { app: admitted.app, adapter, logger, settings, webhooks })
			connections.set(connection.id, connection)
			perAddress.set(address, (perAddress.get(address) ?? 0) + 1)
			void connection.closed.then(() => {
				connections.delete(connection.id)
				const left = (perAddress.get(address) ?? 1) - 1
				if (left > 0) perAddress.set(address, left)
				else perAddress.delete(address)
			})
			connection.open()
		} catch (error) {
			logger.error({ err: error, url: req.url }, 'realtime connection setup failed')
			ws.terminate()
		}
	}

	function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
		if (!matchesUpgrade(req.url)) return false
		wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req))
		return true
	}

	function connectionCount(appId?: string): number {
		if (appId === undefined) return connections.size
		let count = 0
		for (const connection of connections.values()) if (connection.appId === appId) count += 1
		return count
	}

	async function shutdown(): Promise<void> {
		const open = [...connections.values()]
		for (const connection of open) connection.terminate(CloseCode.Reconnect, 'Server is shutting down, reconnect shortly')
		const allClosed = Promise.all(open.map((connection) => connection.closed))
		let timer: NodeJS.Timeout | undefined
		const timedOut = new Promise<'timeout'>((resolve) => {
			timer = setTimeout(() => resolve('timeout'), closeTimeoutMs)
		})
		const result = await Promise.race([allClosed, timedOut])
		clearTimeout(timer)
		if (result === 'timeout') {
			for (const connection of connections.values()) connection.kill()
			await allClosed
		}
		// The leaves the closed sockets made, told now: the members come back with a member_added wherever they reconnect.
		await webhooks.close()
		if (ownsAdapter) await adapter.close()
	}

	return {
		handleUpgrade,
		matchesUpgrade,
		httpHandler: createHttpHandler({
			apps,
			adapter,
			logger,
			maxBodyBytes: options.maxBodyBytes ?? 512 * 1024,
			cacheTtlSeconds: settings.cacheTtlSeconds,
		}),
		connectionCount,
		close() {
			closing ??= shutdown()
			return closing
		},
	}
}
