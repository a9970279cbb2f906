import { type IncomingMessage, type ServerResponse } from 'node:http'
import { type Adapter } from './adapter.ts'
import { type App, type AppRegistry } from './apps.ts'
import { channelKind, isCacheChannel, isValidChannelName } from './channels.ts'
import { type Logger } from './logger.ts'
import { byteLength, encode, isArray, isRecord } from './protocol.ts'
import { parseQuery, verifyApiRequest } from './signature.ts'

export type HttpHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

export interface HttpApiContext {
	apps: AppRegistry
	adapter: Adapter
	logger: Logger
	maxBodyBytes: number
	cacheTtlSeconds: number
}

export const MAX_CHANNELS_PER_EVENT = 100
export const MAX_BATCH_SIZE = 10
const MAX_EVENT_NAME_LENGTH = 200
const SOCKET_ID = /^\d+\.\d+$/

type JsonBody = Record<string, unknown>

class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message)
	}
}

type RouteName = 'events' | 'batch_events' | 'channels' | 'channel' | 'users' | 'terminate'

interface Route {
	name: RouteName
	method: 'GET' | 'POST'
	pattern: RegExp
}

const ROUTES: Route[] = [
	{ name: 'events', method: 'POST', pattern: /^\/apps\/([^/]+)\/events$/ },
	{ name: 'batch_events', method: 'POST', pattern: /^\/apps\/([^/]+)\/batch_events$/ },
	{ name: 'channels', method: 'GET', pattern: /^\/apps\/([^/]+)\/channels$/ },
	{ name: 'channel', method: 'GET', pattern: /^\/apps\/([^/]+)\/channels\/([^/]+)$/ },
	{ name: 'users', method: 'GET', pattern: /^\/apps\/([^/]+)\/channels\/([^/]+)\/users$/ },
	{ name: 'terminate', method: 'POST', pattern: /^\/apps\/([^/]+)\/users\/([^/]+)\/terminate_connections$/ },
]

interface MatchedRoute {
	route: Route
	appId: string
	param: string
}

interface Request {
	app: App
	params: Map<string, string>
	body: string
	param: string
}

function matchRoute(path: string): MatchedRoute | undefined {
	for (const route of ROUTES) {
		const match = route.pattern.exec(path)
		if (match === null) continue
		return { route, appId: decodeSegment(match[1] ?? ''), param: decodeSegment(match[2] ?? '') }
	}
	return undefined
}

function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment)
	} catch {
		throw new HttpError(400, 'Malformed URL path')
	}
}

export function createHttpHandler(context: HttpApiContext): HttpHandler {
	return (req, res, next) => {
		const url = req.url ?? '/'
		const queryStart = url.indexOf('?')
		const path = queryStart === -1 ? url : url.slice(0, queryStart)
		const rawQuery = queryStart === -1 ? '' : url.slice(queryStart + 1)
		if (!path.startsWith('/apps/')) {
			next()
			return
		}
		let matched: MatchedRoute | undefined
		try {
			matched = matchRoute(path)
		} catch (error) {
			respondWithError(context, res, error)
			return
		}
		if (matched === undefined) {
			next()
			return
		}
		handle(context, req, matched, path, rawQuery).then(
			(body) => respond(res, 200, body),
			(error: unknown) => respondWithError(context, res, error),
		)
	}
}

async function handle(context: HttpApiContext, req: IncomingMessage, { route, appId, param }: MatchedRoute, path: string, rawQuery: string): Promise<JsonBody> {
	const method = (req.method ?? 'GET').toUpperCase()
	if (method !== route.method) throw new HttpError(405, `Use ${route.method} for this endpoint`)
	const app = context.apps.byId(appId)
	if (app === undefined) throw new HttpError(404, 'Unknown app id')
	const body = await readBody(req, context.maxBodyBytes)
	const auth = verifyApiRequest(app, {
		method,
		path,
		query: rawQuery.split('&'),
		body,
		nowSeconds: Date.now() / 1000,
	})
	if (!auth.ok) throw new HttpError(401, auth.error)
	if (!app.enabled) throw new HttpError(403, 'App is disabled')
	const request: Request = { app, params: parseQuery(rawQuery), body, param }
	switch (route.name) {
		case 'events':
			return triggerEvent(context, request)
		case 'batch_events':
			return triggerBatch(context, request)
		case 'channels':
			return listChannels(context, request)
		case 'channel':
			return channelInfo(context, request)
		case 'users':
			return channelUsers(context, request)
		case 'terminate':
			await context.adapter.terminateUserConnections(app.id, param)
			return {}
	}
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
	if (req.readableEnded) return Promise.resolve(alreadyParsedBody(req))
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = []
		let size = 0
		let tooLarge = false
		req.on('data', (chunk: Buffer) => {
			size += chunk.length
			if (size > limit) tooLarge = true
			if (!tooLarge) chunks.push(chunk)
		})
		req.on('end', () => {
			if (tooLarge) reject(new HttpError(413, `Request body larger than ${limit} bytes`))
			else resolve(Buffer.concat(chunks).toString('utf8'))
		})
		req.on('error', reject)
	})
}

// A body parser mounted before this handler has consumed the stream; re-serialising its JSON
// reproduces what the Pusher SDKs sent, since they send JSON.stringify output.
function alreadyParsedBody(req: IncomingMessage): string {
	if (req.method === 'GET' || req.method === 'HEAD') return ''
	const parsed: unknown = (req as IncomingMessage & { body?: unknown }).body
	if (typeof parsed === 'string') return parsed
	return isRecord(parsed) ? JSON.stringify(parsed) : ''
}

function jsonBody(body: string): JsonBody {
	let parsed: unknown
	try {
		parsed = JSON.parse(body)
	} catch {
		throw new HttpError(400, 'Request body must be JSON')
	}
	if (!isRecord(parsed)) throw new HttpError(400, 'Request body must be a JSON object')
	return parsed
}

function infoAttributes(info: unknown): Set<string> {
	if (typeof info !== 'string' || info === '') return new Set()
	return new Set(info.split(',').map((attribute) => attribute.trim()))
}

interface EventInput {
	name: string
	data: string
	channels: string[]
	socketId: string | undefined
	info: Set<string>
}

function parseEvent(input: JsonBody, app: App): EventInput {
	const { name, data, socket_id: socketId } = input
	if (typeof name !== 'string' || name === '' || name.length > MAX_EVENT_NAME_LENGTH) {
		throw new HttpError(400, `name must be a string of 1 to ${MAX_EVENT_NAME_LENGTH} characters`)
	}
	if (data === undefined) throw new HttpError(400, 'data is required')
	const serialized = typeof data === 'string' ? data : JSON.stringify(data)
	const requested = isArray(input.channels) ? input.channels : input.channel === undefined ? [] : [input.channel]
	if (requested.length === 0 || requested.length > MAX_CHANNELS_PER_EVENT) {
		throw new HttpError(400, `Provide channel or channels (1 to ${MAX_CHANNELS_PER_EVENT})`)
	}
	const channels: string[] = []
	for (const channel of requested) {
		if (typeof channel !== 'string' || !isValidChannelName(channel)) throw new HttpError(400, 'Invalid channel name')
		channels.push(channel)
	}
	if (socketId !== undefined && (typeof socketId !== 'string' || !SOCKET_ID.test(socketId))) {
		throw new HttpError(400, 'Invalid socket_id')
	}
	if (byteLength(serialized) > app.maxEventBytes) {
		throw new HttpError(413, `Event data larger than ${app.maxEventBytes} bytes`)
	}
	return { name, data: serialized, channels, socketId, info: infoAttributes(input.info) }
}

async function publish(context: HttpApiContext, app: App, event: EventInput): Promise<void> {
	for (const channel of event.channels) {
		const payload = encode({ event: event.name, channel, data: event.data })
		if (isCacheChannel(channel)) await context.adapter.setCachedEvent(app.id, channel, payload, context.cacheTtlSeconds)
		await context.adapter.publish(app.id, channel, payload, event.socketId)
	}
}

async function channelAttributes(context: HttpApiContext, app: App, channel: string, info: Set<string>): Promise<JsonBody> {
	const stats = await context.adapter.channel(app.id, channel)
	const attributes: JsonBody = {}
	if (info.has('subscription_count')) attributes.subscription_count = stats.subscriptionCount
	if (info.has('user_count') && stats.userCount !== undefined) attributes.user_count = stats.userCount
	return attributes
}

async function triggerEvent(context: HttpApiContext, { app, body }: Request): Promise<JsonBody> {
	const event = parseEvent(jsonBody(body), app)
	await publish(context, app, event)
	if (event.info.size === 0) return {}
	const channels: JsonBody = {}
	for (const channel of event.channels) channels[channel] = await channelAttributes(context, app, channel, event.info)
	return { channels }
}

async function triggerBatch(context: HttpApiContext, { app, body }: Request): Promise<JsonBody> {
	const { batch } = jsonBody(body)
	if (!isArray(batch) || batch.length > MAX_BATCH_SIZE) {
		throw new HttpError(400, `batch must be an array of at most ${MAX_BATCH_SIZE} events`)
	}
	const events = batch.map((item) => {
		if (!isRecord(item)) throw new HttpError(400, 'Each batch entry must be an object')
		if (typeof item.channel !== 'string') throw new HttpError(400, 'Each batch entry needs a channel')
		return parseEvent({ ...item, channels: undefined }, app)
	})
	for (const event of events) await publish(context, app, event)
	if (events.every((event) => event.info.size === 0)) return {}
	const results: JsonBody[] = []
	for (const event of events) {
		const [channel] = event.channels
		results.push(channel === undefined ? {} : await channelAttributes(context, app, channel, event.info))
	}
	return { batch: results }
}

async function listChannels(context: HttpApiContext, { app, params }: Request): Promise<JsonBody> {
	const prefix = params.get('filter_by_prefix') ?? ''
	const info = infoAttributes(params.get('info'))
	if (info.has('user_count') && !prefix.startsWith('presence-')) {
		throw new HttpError(400, 'info=user_count requires filter_by_prefix=presence-')
	}
	const channels: JsonBody = {}
	for (const [name, stats] of await context.adapter.channels(app.id)) {
		if (stats.subscriptionCount === 0 || channelKind(name) === 'user' || !name.startsWith(prefix)) continue
		const attributes: JsonBody = {}
		if (info.has('user_count') && stats.userCount !== undefined) attributes.user_count = stats.userCount
		if (info.has('subscription_count')) attributes.subscription_count = stats.subscriptionCount
		channels[name] = attributes
	}
	return { channels }
}

async function channelInfo(context: HttpApiContext, { app, params, param: channel }: Request): Promise<JsonBody> {
	if (!isValidChannelName(channel)) throw new HttpError(400, 'Invalid channel name')
	const info = infoAttributes(params.get('info'))
	const presence = channelKind(channel) === 'presence'
	if (info.has('user_count') && !presence) throw new HttpError(400, 'user_count is only available for presence channels')
	const stats = await context.adapter.channel(app.id, channel)
	const body: JsonBody = { occupied: stats.subscriptionCount > 0, subscription_count: stats.subscriptionCount }
	if (presence) body.user_count = stats.userCount ?? 0
	return body
}

async function channelUsers(context: HttpApiContext, { app, param: channel }: Request): Promise<JsonBody> {
	if (!isValidChannelName(channel)) throw new HttpError(400, 'Invalid channel name')
	if (channelKind(channel) !== 'presence') throw new HttpError(400, 'Users are only available for presence channels')
	const members = await context.adapter.presenceMembers(app.id, channel)
	return { users: [...members.keys()].map((id) => ({ id })) }
}

function respond(res: ServerResponse, status: number, body: JsonBody): void {
	if (res.headersSent) return
	const payload = JSON.stringify(body)
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': Buffer.byteLength(payload),
		'cache-control': 'no-store',
	})
	res.end(payload)
}

function respondWithError(context: HttpApiContext, res: ServerResponse, error: unknown): void {
	if (error instanceof HttpError) {
		respond(res, error.status, { error: error.message })
		return
	}
	context.logger.error({ err: error }, 'realtime HTTP API request failed')
	respond(res, 500, { error: 'Internal server error' })
}
