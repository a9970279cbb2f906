import http from 'node:http'
import https from 'node:https'
import { type AddressInfo } from 'node:net'

/**
 * A request a fake received, as the provider would have: method, path with query, headers, and the
 * body (JSON parsed when it is JSON; a multipart form as its fields, each file as an `UploadedFile`),
 * and its bytes as they came (an encrypted push message is not text).
 */
export type Received = {
	method: string
	path: string
	query: URLSearchParams
	headers: http.IncomingHttpHeaders
	body: unknown
	rawBody: string
	bytes: Buffer
}

/** A file of a multipart request, as the fake received it. */
export type UploadedFile = { filename: string; contentType: string; bytes: Buffer }

/** What a fake answers: a status, a JSON body (or a Buffer sent as it is: a file's bytes), and headers (e.g. `Retry-After`). */
export type Answer = { status: number; body: unknown; headers?: Record<string, string> }

export type Route = (request: Received) => Answer | undefined | Promise<Answer | undefined>

export type FakeServer = {
	/** `http://127.0.0.1:{port}` (`https://` with `tls`): what the product's `*_API_URL` is set to. */
	url: string
	/** Every request so far, oldest first. */
	received: Received[]
	/** Answers the next `times` requests whose path matches with `answer` instead of the fake's own (an error, a 429). */
	failNext: (pathPattern: RegExp, answer: Answer, times?: number) => void
	/** Answers requests whose path matches `ms` later (a provider slow to answer): `0` makes it quick again. */
	slowDown: (pathPattern: RegExp, ms: number) => void
	/** Waits until a request matching `predicate` has arrived (a job sends it a moment later); rejects after `timeoutMs`. */
	waitFor: (predicate: (request: Received) => boolean, timeoutMs?: number) => Promise<Received>
	close: () => Promise<void>
}

/**
 * The HTTP server under each provider's fake (tests/fakes/{telegram,whatsapp,meta}.ts): it records
 * every request and answers through the fake's `route`; a request no route knows is a 404 in the
 * provider's error shape given by `notFound`. Listens on loopback only, on `port` (0: any free one),
 * over HTTPS when given a certificate and key (`tls`, e.g. tests/fakes/certs/) as push services are.
 */
export async function startFakeServer(
	route: Route,
	notFound: (request: Received) => Answer,
	port = 0,
	tls?: { cert: Buffer | string; key: Buffer | string },
): Promise<FakeServer> {
	const received: Received[] = []
	const failures: Array<{ pattern: RegExp; answer: Answer; times: number }> = []
	const slow: Array<{ pattern: RegExp; ms: number }> = []
	const waiters = new Set<() => void>()

	const listener: http.RequestListener = (req, res) => {
		const chunks: Buffer[] = []
		req.on('data', (chunk: Buffer) => chunks.push(chunk))
		req.on('end', () => {
			void (async () => {
				const bytes = Buffer.concat(chunks)
				const rawBody = bytes.toString('utf8')
				const url = new URL(req.url ?? '/', 'http://fake')
				const contentType = req.headers['content-type']
				const body = contentType?.startsWith('multipart/form-data') ? await parseMultipart(bytes, contentType) : parseBody(rawBody, contentType)
				const request: Received = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, rawBody, bytes }
				received.push(request)
				for (const wake of waiters) wake()
				const failure = failures.find((entry) => entry.times > 0 && entry.pattern.test(request.path))
				if (failure) failure.times--
				const answer = failure?.answer ?? (await route(request)) ?? notFound(request)
				const wait = slow.find((entry) => entry.pattern.test(request.path))?.ms ?? 0
				if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
				if (Buffer.isBuffer(answer.body)) {
					res.writeHead(answer.status, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(answer.body.length), ...answer.headers })
					res.end(answer.body)
					return
				}
				res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers })
				res.end(JSON.stringify(answer.body))
			})().catch((error: unknown) => {
				res.writeHead(500, { 'Content-Type': 'application/json' })
				res.end(JSON.stringify({ error: String(error) }))
			})
		})
	}
	const server = tls ? https.createServer(tls, listener) : http.createServer(listener)
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))

	return {
		url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		slowDown(pattern, ms) {
			slow.unshift({ pattern, ms })
		},
		failNext(pattern, answer, times = 1) {
			failures.push({ pattern, answer, times })
		},
		waitFor: (predicate, timeoutMs = 10_000) => waitForMatch(received, waiters, predicate, timeoutMs, 'request'),
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections()
				server.close(() => resolve())
			}),
	}
}

function parseBody(rawBody: string, contentType: string | undefined): unknown {
	if (!rawBody) return null
	if (contentType?.includes('application/json')) {
		try {
			return JSON.parse(rawBody)
		} catch {
			return rawBody
		}
	}
	if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(rawBody))
	return rawBody
}

/** A multipart form's fields, its files as `UploadedFile`s (parsed as fetch parses one). */
async function parseMultipart(bytes: Buffer, contentType: string): Promise<Record<string, string | UploadedFile>> {
	const form = await new Response(new Uint8Array(bytes), { headers: { 'Content-Type': contentType } }).formData()
	const fields: Record<string, string | UploadedFile> = {}
	for (const [name, value] of form) {
		fields[name] = typeof value === 'string' ? value : { filename: value.name, contentType: value.type, bytes: Buffer.from(await value.arrayBuffer()) }
	}
	return fields
}

/**
 * The first of `list` matching `predicate`, now or once it arrives: whoever adds to `list` wakes
 * `waiters`. Rejects after `timeoutMs`, naming what it waited for (`what`).
 */
export function waitForMatch<T>(list: T[], waiters: Set<() => void>, predicate: (item: T) => boolean, timeoutMs: number, what: string): Promise<T> {
	return new Promise((resolve, reject) => {
		const check = () => {
			const found = list.find(predicate)
			if (!found) return false
			waiters.delete(check)
			clearTimeout(timer)
			resolve(found)
			return true
		}
		const timer = setTimeout(() => {
			waiters.delete(check)
			reject(new Error(`the fake received no matching ${what} in ${timeoutMs} ms (${list.length} received)`))
		}, timeoutMs)
		if (!check()) waiters.add(check)
	})
}
