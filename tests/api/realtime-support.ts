import fs from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { pino } from 'pino'
import { pinoHttp } from 'pino-http'
import PusherServer from 'pusher'
import { createApi } from '#api/index.ts'
import { createRealtime, type Realtime } from '#api/realtime/publisher.ts'
import { createRealtimeClient, type RealtimeClient } from '#app/realtime/pusher.client.ts'
import { createRealtimeServer } from '#realtime/index.ts'
import { parseConfig } from '#config/config.ts'
import { publishTarget, realtimeServerOptions, resolveRealtimeConfig, type RealtimeConfig, type RealtimeTarget } from '#config/realtime-config.ts'
import { testDb } from './harness.ts'

export type Answer = { status: number; body: unknown }

export type RealtimeTestServer = {
	url: string
	realtime: Realtime
	/** Where this server's publishers send (another process's `createRealtime` would use it too). */
	target: () => RealtimeTarget
	realtimeConfig: RealtimeConfig
	/** The `pusher` SDK for this server's app (to publish or query directly). */
	sdk: PusherServer
	/** A JSON request to this server (a body only when given). */
	request: (method: string, path: string, headers?: Record<string, string>, body?: unknown) => Promise<Answer>
	post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Answer>
	/** The browser module's connection, authorised through `/v1/realtime/*` with `auth` (the web app forwards the same way). */
	connect: (auth: Record<string, string>) => Promise<RealtimeClient>
	close: () => Promise<void>
}

/**
 * The API and the embedded realtime server on one HTTP server, composed as server/app.ts does:
 * the Pusher HTTP API first, the `/v1` router publishing to this very server, WebSockets on upgrade.
 * `env` adds to its configuration (the realtime server's limits, say).
 */
export async function startRealtimeServer(env: Record<string, string> = {}): Promise<RealtimeTestServer> {
	const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'crm-realtime-'))
	const config = parseConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://crm.test', HOST: '127.0.0.1', PORT: '0', ...env })
	const realtimeConfig = resolveRealtimeConfig(config)
	const logger = pino({ level: 'silent' })
	// With the product's channel names and limits, as server/app.ts composes it.
	const embedded = createRealtimeServer({ apps: [realtimeConfig.app], ...realtimeServerOptions(config) })
	let port = 0
	const target = () => publishTarget(realtimeConfig, port)
	const realtime = createRealtime({ target, logger })
	const app = express()
	app.set('trust proxy', 'loopback')
	app.use(embedded.httpHandler)
	app.use(pinoHttp({ logger }))
	app.use('/v1', createApi({ db: testDb(), config, logger, realtime }))
	const server = http.createServer(app)
	server.on('upgrade', (req, socket, head) => {
		if (!embedded.handleUpgrade(req, socket, head)) socket.destroy()
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	port = (server.address() as AddressInfo).port
	const url = `http://127.0.0.1:${port}`
	const clients: RealtimeClient[] = []

	async function request(method: string, pathname: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
		const json: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' }
		const response = await fetch(`${url}${pathname}`, { method, headers: { ...json, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })
		const text = await response.text()
		return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null }
	}
	const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) => request('POST', pathname, headers, body)

	// pusher-js's handlers: the API's answer, or its status as the error the ajax transport would give.
	function authoriser<Params>(pathname: string, auth: Record<string, string>, body: (params: Params) => unknown) {
		return (params: Params, callback: (error: Error | null, data: never) => void) => {
			post(pathname, body(params), auth).then(
				(answer) =>
					answer.status === 200
						? callback(null, answer.body as never)
						: callback(Object.assign(new Error(`status ${answer.status}`), { status: answer.status }), null as never),
				(error: Error) => callback(error, null as never),
			)
		}
	}

	return {
		url,
		realtime,
		target,
		realtimeConfig,
		sdk: new PusherServer({
			appId: realtimeConfig.app.id,
			key: realtimeConfig.app.key,
			secret: realtimeConfig.app.secret,
			host: '127.0.0.1',
			port: String(port),
			useTLS: false,
		}),
		request,
		post,
		async connect(auth) {
			const client = await createRealtimeClient(
				{ key: realtimeConfig.app.key, cluster: 'mt1', wsHost: '127.0.0.1', wsPort: port, forceTLS: false },
				{
					channelAuthorization: {
						customHandler: authoriser('/v1/realtime/auth', auth, ({ socketId, channelName }: { socketId: string; channelName: string }) => ({
							socket_id: socketId,
							channel_name: channelName,
						})),
					},
					userAuthentication: {
						customHandler: authoriser('/v1/realtime/user-auth', auth, ({ socketId }: { socketId: string }) => ({ socket_id: socketId })),
					},
				},
			)
			if (!client) throw new Error('no realtime client')
			clients.push(client)
			return client
		},
		async close() {
			for (const client of clients.splice(0)) client.close()
			await realtime.flush()
			await embedded.close()
			server.closeAllConnections()
			await new Promise<void>((resolve) => server.close(() => resolve()))
			await fs.rm(dataDir, { recursive: true, force: true })
		},
	}
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
	})
	return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

type Bindable = { bind: (event: string, callback: (data: never) => void) => unknown; unbind: (event: string, callback: (data: never) => void) => unknown }

/** The next `event` on a channel, connection or user. */
export function nextEvent<T = unknown>(target: Bindable, event: string, ms = 3000): Promise<T> {
	return withTimeout(
		new Promise<T>((resolve) => {
			const handler = (data: T) => {
				target.unbind(event, handler)
				resolve(data)
			}
			target.bind(event, handler)
		}),
		ms,
		event,
	)
}

/** Collects every event `client` receives on `channelName` through the module's shared subscription. */
export async function recordEvents(client: RealtimeClient, channelName: string) {
	const events: Array<{ event: string; data: Record<string, unknown> }> = []
	let resubscribed = 0
	const leave = client.subscribe(channelName, {
		onEvent: (event, data) => events.push({ event, data: data as Record<string, unknown> }),
		onResubscribed: () => (resubscribed += 1),
	})
	const channel = client.pusher.channel(channelName)
	if (!channel.subscribed) await nextEvent(channel, 'pusher:subscription_succeeded')
	return {
		events,
		resubscribed: () => resubscribed,
		leave,
		/** The first recorded `event` whose data matches, waiting for it if needed. */
		async waitFor(event: string, matches: (data: Record<string, unknown>) => boolean = () => true, ms = 3000) {
			const find = () => events.find((entry) => entry.event === event && matches(entry.data))
			await withTimeout(
				(async () => {
					while (!find()) await new Promise((resolve) => setTimeout(resolve, 10))
				})(),
				ms,
				event,
			)
			return find()!.data
		},
	}
}
