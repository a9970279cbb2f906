import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ApiError, createApiClient, errorDetail, parseBody, toQueryString } from './api-client.ts'

type Seen = { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }
let seen: Seen = { headers: {}, body: '' }
let server: http.Server
let baseUrl = ''

// A real HTTP server whose answer depends on the path, so every rule is checked on the wire.
beforeAll(async () => {
	server = http.createServer((req, res) => {
		let body = ''
		req.on('data', (chunk: Buffer) => (body += chunk.toString()))
		req.on('end', () => {
			seen = { method: req.method, url: req.url, headers: req.headers, body }
			const path = req.url?.split('?')[0]
			if (path === '/v1/ok') return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"hello":"world"}')
			if (path === '/v1/empty') return res.writeHead(204).end()
			if (path === '/v1/garbage') return res.writeHead(200).end('<html>not json')
			if (path === '/v1/fail')
				return res.writeHead(409, { 'Content-Type': 'application/json' }).end('{"message":"Taken","statusCode":409,"details":{"field":"email"}}')
			if (path === '/v1/fail-plain') return res.writeHead(503, 'Service Unavailable').end('oops')
			if (path === '/v1/fail-nothing') return res.writeHead(599, '').end()
			res.writeHead(404).end()
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('API client', () => {
	test('sends JSON, the bearer token and the locale', async () => {
		const client = createApiClient({ baseUrl, token: 'tok', locale: 'ar-eg' })
		await expect(client.post('/ok', { a: 1 })).resolves.toEqual({ hello: 'world' })
		expect(seen.method).toBe('POST')
		expect(seen.headers.authorization).toBe('Bearer tok')
		expect(seen.headers['accept-language']).toBe('ar-eg')
		expect(seen.headers['content-type']).toBe('application/json')
		expect(seen.body).toBe('{"a":1}')
	})

	test('defaults Accept-Language to en and sends no Authorization without a token', async () => {
		await createApiClient({ baseUrl }).get('/ok')
		expect(seen.headers['accept-language']).toBe('en')
		expect(seen.headers.authorization).toBeUndefined()
	})

	test('drops empty and null query parameters', async () => {
		await createApiClient({ baseUrl }).get('/ok', { page: 1, limit: 10, search: '', filter: null, tag: undefined })
		expect(seen.url).toBe('/v1/ok?page=1&limit=10')
		expect(toQueryString({ a: '', b: null })).toBe('')
	})

	test('an empty or unparsable body yields null', async () => {
		const client = createApiClient({ baseUrl })
		await expect(client.get('/empty')).resolves.toBeNull()
		await expect(client.get('/garbage')).resolves.toBeNull()
		expect(parseBody('  ')).toBeNull()
	})

	test("a non-OK answer raises ApiError with the server's message, status and details", async () => {
		const error = await createApiClient({ baseUrl })
			.post('/fail')
			.catch((e: unknown) => e)
		expect(error).toBeInstanceOf(ApiError)
		expect(error).toMatchObject({ message: 'Taken', statusCode: 409, url: `${baseUrl}/fail` })
		// details is the whole parsed error body, as the specification says.
		expect((error as ApiError).details).toEqual({ message: 'Taken', statusCode: 409, details: { field: 'email' } })
	})

	test('falls back to the status text, then to Unknown error', async () => {
		const client = createApiClient({ baseUrl })
		await expect(client.get('/fail-plain')).rejects.toMatchObject({ message: 'Service Unavailable', statusCode: 503, details: null })
		await expect(client.get('/fail-nothing')).rejects.toMatchObject({ message: 'Unknown error', statusCode: 599 })
	})
})

describe('errorDetail', () => {
	test('prefers the first field message, else the message', () => {
		const validation = new ApiError('Some fields are not valid.', '/v1/x', 400, {
			message: 'Some fields are not valid.',
			details: { source: 'query', fields: { page: ['Must be at least 1.'] } },
		})
		expect(errorDetail(validation)).toBe('Must be at least 1.')
		expect(errorDetail(new ApiError('Not found', '/v1/x', 404, null))).toBe('Not found')
	})
})
