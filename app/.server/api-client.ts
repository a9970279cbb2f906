/** A failed call to the API: the server's message (or the status text, or 'Unknown error'). */
export class ApiError extends Error {
	constructor(
		message: string,
		readonly url: string,
		readonly statusCode: number,
		/** The parsed error body, or null when it was empty or not JSON. */
		readonly details: unknown,
	) {
		super(message)
		this.name = 'ApiError'
	}
}

/** The most telling message of an API error: the first field's message when there is one. */
export function errorDetail(error: ApiError): string {
	const fields = (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields
	const first = fields ? Object.values(fields).flat()[0] : undefined
	return first ?? error.message
}

export type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue | QueryValue[]>

/** Builds a query string, dropping empty and null parameters. */
export function toQueryString(query: Query | undefined): string {
	const params = new URLSearchParams()
	for (const [name, value] of Object.entries(query ?? {})) {
		for (const item of Array.isArray(value) ? value : [value]) {
			if (item === undefined || item === null || item === '') continue
			params.append(name, String(item))
		}
	}
	const search = params.toString()
	return search ? `?${search}` : ''
}

/** Parses a body as JSON; an empty or unparsable body yields null. */
export function parseBody(text: string): unknown {
	if (!text.trim()) return null
	try {
		return JSON.parse(text) as unknown
	} catch {
		return null
	}
}

function messageOf(body: unknown, statusText: string): string {
	if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' && body.message) return body.message
	return statusText || 'Unknown error'
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** What the client needs of `fetch`: the global one, or the API called in-process (server/in-process-api.ts). */
export type ApiFetch = (url: string, init: { method: Method; headers: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> }) => Promise<Response>

export type ApiClientOptions = {
	baseUrl: string
	token?: string | null
	/** The current locale, sent as Accept-Language (default en). */
	locale?: string
	fetch?: ApiFetch
	/** Forwarded so the API can log and rate-limit by the real client. */
	forwardedFor?: string | null
	requestId?: string | null
	/** The visitor's browser, so that a session created for it is recognisable in the sessions list. */
	userAgent?: string | null
	/** Sent with every request (a link-page visitor's `X-Visitor-Token`). */
	headers?: Record<string, string>
}

/**
 * The backend-for-frontend's client of the /v1 API (docs/specification.txt, section 7): JSON in and out,
 * Bearer token when there is one, Accept-Language with the current locale.
 */
export function createApiClient(options: ApiClientOptions) {
	const doFetch = options.fetch ?? fetch

	/** One request; a non-OK answer becomes an ApiError. */
	async function send(
		method: Method,
		path: string,
		init: { body?: string | Uint8Array<ArrayBuffer>; contentType?: string; accept?: string; query?: Query } = {},
	): Promise<Response> {
		const url = `${options.baseUrl.replace(/\/+$/, '')}${path}${toQueryString(init.query)}`
		const headers: Record<string, string> = {
			...options.headers,
			Accept: init.accept ?? 'application/json',
			'Accept-Language': options.locale || 'en',
		}
		if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json'
		if (options.token) headers.Authorization = `Bearer ${options.token}`
		if (options.forwardedFor) headers['X-Forwarded-For'] = options.forwardedFor
		if (options.requestId) headers['X-Request-Id'] = options.requestId
		if (options.userAgent) headers['User-Agent'] = options.userAgent
		const response = await doFetch(url, { method, headers, body: init.body })
		if (response.ok) return response
		const parsed = parseBody(await response.text())
		throw new ApiError(messageOf(parsed, response.statusText), url, response.status, parsed)
	}

	async function call<T>(method: Method, path: string, body?: unknown, query?: Query): Promise<T> {
		const response = await send(method, path, { body: body === undefined ? undefined : JSON.stringify(body), query })
		return parseBody(await response.text()) as T
	}

	return {
		get: <T>(path: string, query?: Query) => call<T>('GET', path, undefined, query),
		post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
		put: <T>(path: string, body?: unknown) => call<T>('PUT', path, body ?? {}),
		patch: <T>(path: string, body?: unknown) => call<T>('PATCH', path, body ?? {}),
		delete: <T>(path: string, body?: unknown) => call<T>('DELETE', path, body),
		/** Posts a body of another type than JSON (a CSV import); the answer is JSON. */
		postText: async <T>(path: string, text: string, contentType: string, query?: Query) =>
			parseBody(await (await send('POST', path, { body: text, contentType, query })).text()) as T,
		/** Posts a multipart form (a reply with a file), encoded here so that it goes the same way in-process and over HTTP; the answer is JSON. */
		postForm: async <T>(path: string, form: FormData) => {
			const encoded = new Response(form)
			const body = new Uint8Array(await encoded.arrayBuffer())
			return parseBody(await (await send('POST', path, { body, contentType: encoded.headers.get('Content-Type') ?? 'multipart/form-data' })).text()) as T
		},
		/** The answer itself, to stream it on (a CSV export). */
		stream: (path: string, query?: Query, accept = '*/*') => send('GET', path, { query, accept }),
	}
}

export type ApiClient = ReturnType<typeof createApiClient>
