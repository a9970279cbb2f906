import { createRequestHandler, writeReadableStreamToWritable, type AppLoadContext, type ServerBuild } from '@remix-run/node'
import { type NextFunction, type Request, type Response } from 'express'
import { answerTooLarge, type BodyLimit, cappedBody, pageBodyLimit } from './page-bodies.ts'

type Options = {
	build: ServerBuild | (() => Promise<ServerBuild>)
	mode: string
	getLoadContext: (req: Request, res: Response) => AppLoadContext
	/** The composer's attachments and the CSV import: their pages take a file this large. */
	uploadMaxBytes: number
}

/**
 * The pages and resource routes: Remix's Express adapter (@remix-run/express's createRequestHandler,
 * which this follows), except that a post's body is capped at its page's limit before Remix reads it
 * (decision 015). A length said over the limit is refused before Remix starts; a body that goes past
 * it as it arrives (chunked, with no length) is cut there and refused at once, and whatever the page
 * was doing with it is dropped. Remix's own adapter hands the whole request stream to the page, which
 * `request.formData()` reads into memory to its end: one 300 MB post took the process to 2.6 GB.
 */
export function createPageHandler(options: Options) {
	const handleRequest = createRequestHandler(options.build, options.mode)
	return async (req: Request, res: Response, next: NextFunction) => {
		const controller = new AbortController()
		let refused = false
		const refuse = (limit: BodyLimit) => {
			refused = true
			// The page's loaders and action stop (their fetches to the API with them); nothing of theirs is sent.
			controller.abort()
			answerTooLarge(req, res, limit)
		}
		try {
			let body: ReadableStream<Uint8Array> | undefined
			if (req.method !== 'GET' && req.method !== 'HEAD') {
				const limit = pageBodyLimit(req.path, options.uploadMaxBytes)
				if (Number(req.headers['content-length'] ?? 0) > limit.maxBytes) return refuse(limit)
				body = cappedBody(req, limit.maxBytes, () => {
					if (!res.headersSent) refuse(limit)
				})
			}
			const response = await handleRequest(remixRequest(req, res, controller, body), options.getLoadContext(req, res))
			if (refused) await response.body?.cancel()
			else await sendResponse(res, response)
		} catch (error) {
			// A page that failed on its cut body: its 413 is already sent.
			if (!refused) next(error)
		}
	}
}

/** The Fetch request Remix reads, as @remix-run/express's createRemixRequest makes it, with `body` for its body. */
function remixRequest(req: Request, res: Response, controller: AbortController, body: ReadableStream<Uint8Array> | undefined): globalThis.Request {
	// req.hostname has no port: it comes from X-Forwarded-Host or Host. req.hostname itself follows `trust proxy`.
	const portOf = (host: string | undefined) => Number.parseInt(host?.split(':')[1] ?? '', 10)
	const forwardedPort = portOf(req.get('X-Forwarded-Host'))
	const hostPort = portOf(req.get('host'))
	const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : ''
	const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ''}${req.originalUrl}`)
	const headers = new Headers()
	for (const [name, values] of Object.entries(req.headers)) {
		if (Array.isArray(values)) for (const value of values) headers.append(name, value)
		else if (values) headers.set(name, values)
	}
	// Once the answer can no longer be written (the client left before it was sent), the page stops.
	let finished = false
	res.once('finish', () => (finished = true))
	res.once('close', () => {
		if (!finished) controller.abort()
	})
	return new Request(url.href, { method: req.method, headers, signal: controller.signal, ...(body ? { body, duplex: 'half' } : {}) } as RequestInit)
}

/** Writes Remix's answer, as @remix-run/express's sendRemixResponse does. */
async function sendResponse(res: Response, response: globalThis.Response) {
	res.statusMessage = response.statusText
	res.status(response.status)
	for (const [name, value] of response.headers.entries()) res.append(name, value)
	if (response.headers.get('Content-Type')?.match(/text\/event-stream/i)) res.flushHeaders()
	if (response.body) await writeReadableStreamToWritable(response.body, res)
	else res.end()
}
