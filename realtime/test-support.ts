import { createServer, type RequestListener, type Server } from 'node:http'
import { type AddressInfo } from 'node:net'
import PusherServer from 'pusher'
import { WebSocket } from 'ws'
import { type AppConfig, createRealtimeServer, type RealtimeServer, type RealtimeServerOptions } from './index.ts'
import { isRecord } from './protocol.ts'

export const APP = { id: '1001', key: 'test-key', secret: 'test-secret' } satisfies AppConfig
// The protocol's tests use public channels, which the server refuses unless its channelNames allow them.
export const ANY_CHANNEL: readonly RegExp[] = [/^/]

export interface TestServer {
	realtime: RealtimeServer
	http: Server
	port: number
	sdk(app?: AppConfig): PusherServer
	close(): Promise<void>
}

export async function startServer(options: Partial<RealtimeServerOptions> = {}, listener?: (realtime: RealtimeServer) => RequestListener): Promise<TestServer> {
	const realtime = createRealtimeServer({ apps: [APP], channelNames: ANY_CHANNEL, ...options })
	const fallback: RequestListener = (req, res) =>
		realtime.httpHandler(req, res, () => {
			res.writeHead(404, { 'content-type': 'text/plain' })
			res.end('host: not found')
		})
	const http = createServer(listener?.(realtime) ?? fallback)
	http.on('upgrade', (req, socket, head) => {
		if (!realtime.handleUpgrade(req, socket, head)) socket.destroy()
	})
	await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
	const { port } = http.address() as AddressInfo
	return {
		realtime,
		http,
		port,
		sdk: (app = APP) => new PusherServer({ appId: app.id, key: app.key, secret: app.secret, host: '127.0.0.1', port: String(port), useTLS: false }),
		async close() {
			await realtime.close()
			http.closeAllConnections()
			await new Promise<void>((resolve) => http.close(() => resolve()))
		},
	}
}

export interface Frame {
	event: string
	channel?: string
	data?: unknown
	user_id?: string
}

type Predicate = (frame: Frame) => boolean

interface Waiter {
	predicate: Predicate
	resolve: (frame: Frame) => void
}

function decode(text: string): Frame {
	const raw: unknown = JSON.parse(text)
	if (!isRecord(raw) || typeof raw.event !== 'string') throw new Error(`Unexpected frame: ${text}`)
	let data = raw.data
	if (typeof data === 'string') {
		try {
			data = JSON.parse(data)
		} catch {
			// Event data that is not JSON stays a string.
		}
	}
	const frame: Frame = { event: raw.event, data }
	if (typeof raw.channel === 'string') frame.channel = raw.channel
	if (typeof raw.user_id === 'string') frame.user_id = raw.user_id
	return frame
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms)
	})
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Anything pusher-js lets us bind to: a client, a connection, a channel, the user. */
export interface Bindable {
	bind(event: string, callback: (...args: never[]) => void): unknown
	unbind(event: string, callback: (...args: never[]) => void): unknown
}

/** The next `event` on `target`, or a clear failure after `timeoutMs`. */
export function next<T = unknown>(target: Bindable, event: string, timeoutMs = 3000): Promise<T> {
	return withTimeout(
		new Promise<T>((resolve) => {
			const handler = (data: T): void => {
				target.unbind(event, handler)
				resolve(data)
			}
			target.bind(event, handler)
		}),
		timeoutMs,
		event,
	)
}

/** A pusher-js channel once the server has confirmed its subscription. */
export async function subscribed<C extends Bindable & { subscribed: boolean }>(channel: C): Promise<C> {
	if (!channel.subscribed) await next(channel, 'pusher:subscription_succeeded')
	return channel
}

// A bare WebSocket speaking the Pusher protocol, recording every frame for inspection.
export class RawClient {
	socketId = ''
	readonly raw: string[] = []
	readonly errors: Error[] = []
	readonly closed: Promise<{ code: number; reason: string }>
	private readonly inbox: Frame[] = []
	private readonly waiters: Waiter[] = []

	private constructor(readonly ws: WebSocket) {
		this.closed = new Promise((resolve) => {
			ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }))
		})
		ws.on('error', (error) => this.errors.push(error))
		ws.on('message', (data: Buffer) => {
			const text = data.toString('utf8')
			this.raw.push(text)
			const frame = decode(text)
			const index = this.waiters.findIndex((waiter) => waiter.predicate(frame))
			const waiter = index === -1 ? undefined : this.waiters.splice(index, 1)[0]
			if (waiter === undefined) this.inbox.push(frame)
			else waiter.resolve(frame)
		})
	}

	static open(port: number, path = `/app/${APP.key}?protocol=7&client=raw&version=1`, headers: Record<string, string> = {}): RawClient {
		return new RawClient(new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers }))
	}

	static async connect(port: number, path?: string): Promise<RawClient> {
		const client = RawClient.open(port, path)
		const established = await client.next('pusher:connection_established')
		const data = established.data
		if (!isRecord(data) || typeof data.socket_id !== 'string') throw new Error('connection_established without socket_id')
		client.socketId = data.socket_id
		return client
	}

	next(match: string | Predicate, timeoutMs = 2000): Promise<Frame> {
		const predicate: Predicate = typeof match === 'string' ? (frame) => frame.event === match : match
		const index = this.inbox.findIndex(predicate)
		const found = index === -1 ? undefined : this.inbox.splice(index, 1)[0]
		if (found !== undefined) return Promise.resolve(found)
		const received = new Promise<Frame>((resolve) => this.waiters.push({ predicate, resolve }))
		return withTimeout(received, timeoutMs, typeof match === 'string' ? match : 'a matching frame')
	}

	// Frames received so far and not yet consumed by next().
	pending(): Frame[] {
		return [...this.inbox]
	}

	send(frame: unknown): void {
		this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame))
	}

	// Round-trips a ping: every frame the server sent before answering is in the inbox afterwards.
	async sync(): Promise<void> {
		this.send({ event: 'pusher:ping', data: {} })
		await this.next('pusher:pong')
	}

	async subscribe(channel: string, auth?: { auth: string; channel_data?: string }): Promise<Frame> {
		this.send({ event: 'pusher:subscribe', data: { channel, ...auth } })
		return this.next((frame) => frame.channel === channel && /subscription_(succeeded|error)$/.test(frame.event))
	}

	close(): Promise<{ code: number; reason: string }> {
		if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close()
		return this.closed
	}
}
