import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fetchBackend } from './fetch-backend.ts'

let server: http.Server
let baseUrl = ''

// A real HTTP server: the answer depends on the language in the path.
beforeAll(async () => {
	server = http.createServer((req, res) => {
		if (req.url === '/fr/messages.json') return res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"hello":"bonjour"}')
		if (req.url === '/broken/messages.json') return res.writeHead(503).end()
		res.writeHead(404).end()
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function read(urlOf: (language: string) => string, language: string) {
	return new Promise<{ error: unknown; data: unknown }>((resolve) => {
		fetchBackend(urlOf).read(language, 'common', (error, data) => resolve({ error, data }))
	})
}

const onServer = (language: string) => `${baseUrl}/${language}/messages.json`

describe('fetchBackend', () => {
	test("hands i18next a language's words", async () => {
		expect(await read(onServer, 'fr')).toEqual({ error: null, data: { hello: 'bonjour' } })
	})

	test('a 404 fails for good, a server error or a refused connection may be tried again', async () => {
		expect(await read(onServer, 'de')).toEqual({ error: `${baseUrl}/de/messages.json answered 404`, data: false })
		expect(await read(onServer, 'broken')).toEqual({ error: `${baseUrl}/broken/messages.json answered 503`, data: true })
		const refused = await read(() => 'http://127.0.0.1:1/messages.json', 'fr')
		expect(refused.data).toBe(true)
		expect(refused.error).toMatch(/^http:\/\/127\.0\.0\.1:1\/messages\.json: /)
	})
})
