import http from 'node:http'
import { Readable } from 'node:stream'
import express, { type RequestHandler } from 'express'
import inject from 'light-my-request'

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'

/** The part of `fetch` the backend-for-frontend's API client uses (app/.server/api-client.ts). */
export type InProcessFetch = (
	url: string,
	init: { method: Method; headers: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> },
) => Promise<Response>

/**
 * The `/v1` API called without a socket, when this process mounts it: the backend-for-frontend's
 * requests go through the same Express handlers (request log, locale, authentication, errors) and
 * come back as a fetch `Response`, so the API client and its `ApiError` contract stay the same.
 */
export function inProcessApi(options: { api: RequestHandler; requestLog: RequestHandler }): { fetch: InProcessFetch; idle: () => Promise<void> } {
	const app = injectableApp()
	app.disable('x-powered-by')
	// As over loopback HTTP: the API believes X-Forwarded-For (the visitor's address) from this caller.
	app.set('trust proxy', 'loopback')
	app.use(options.requestLog)
	app.use('/v1', options.api)

	// No socket holds the server open while they run: shutdown waits for them before closing the database.
	const pending = new Set<Promise<unknown>>()

	const call: InProcessFetch = async (url, init) => {
		// JSON answers are read whole; anything else (a CSV export) streams on.
		const streamed = !init.headers.Accept?.includes('application/json')
		const injected = inject(app, {
			method: init.method,
			url,
			headers: init.headers,
			payload: typeof init.body === 'string' || init.body === undefined ? init.body : Buffer.from(init.body.buffer, init.body.byteOffset, init.body.byteLength),
			remoteAddress: '127.0.0.1',
			payloadAsStream: streamed,
			// Built right here: checking the options against their JSON schema on every call is waste.
			validate: false,
		})
		pending.add(injected)
		const answer = await injected.finally(() => pending.delete(injected))
		const headers = new Headers()
		for (const [name, value] of Object.entries(answer.headers)) {
			for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, String(item))
		}
		const empty = init.method === 'HEAD' || [204, 205, 304].includes(answer.statusCode)
		const body = empty ? null : streamed ? (Readable.toWeb(answer.stream()) as ReadableStream<Uint8Array>) : new Uint8Array(answer.rawPayload)
		return new Response(body, { status: answer.statusCode, statusText: answer.statusMessage, headers })
	}

	return {
		fetch: call,
		idle: async () => {
			while (pending.size > 0) await Promise.allSettled([...pending])
		},
	}
}

/**
 * An Express app light-my-request can drive. It re-parents an app's request and response
 * prototypes onto its own classes; by default those are Express's shared ones, which every real
 * request of the process uses, so this app gets private copies.
 */
function injectableApp(): express.Express {
	const app = express()
	const own = { app: { configurable: true, enumerable: true, writable: true, value: app } }
	app.request = Object.create(Object.create(http.IncomingMessage.prototype, Object.getOwnPropertyDescriptors(express.request)), own) as express.Request
	app.response = Object.create(Object.create(http.ServerResponse.prototype, Object.getOwnPropertyDescriptors(express.response)), own) as express.Response
	return app
}
