import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express, { Router } from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { inProcessApi } from './in-process-api.ts'

// A toy API: what each route answers tells what the handler saw.
const api = Router()
api.use(express.json())
api.post('/echo', (req, res) => {
	res.json({ body: req.body as unknown, ip: req.ip, language: req.get('accept-language'), authorization: req.get('authorization') })
})
api.get('/refused', (_req, res) => {
	res.status(409).set('WWW-Authenticate', 'Bearer').json({ message: 'Taken', statusCode: 409, details: null })
})
api.delete('/nothing', (_req, res) => {
	res.status(204).end()
})
api.get('/export.csv', (_req, res) => {
	res.type('text/csv')
	res.write('name\n')
	res.end('Nour\n')
})
let release = () => {}
api.get('/held', (_req, res) => {
	release = () => res.json({ released: true })
})
const inProcess = inProcessApi({ api, requestLog: (_req, _res, next) => next() })
const fetchInProcess = inProcess.fetch
const base = 'http://crm.test/v1'

describe('the API in-process', () => {
	test('gets the method, path, headers and body, and believes X-Forwarded-For as from loopback', async () => {
		const response = await fetchInProcess(`${base}/echo`, {
			method: 'POST',
			headers: {
				Accept: 'application/json',
				'Content-Type': 'application/json',
				'Accept-Language': 'ar-eg',
				Authorization: 'Bearer tok',
				'X-Forwarded-For': '203.0.113.7',
			},
			body: '{"a":1}',
		})
		expect(response.status).toBe(200)
		expect(await response.json()).toEqual({ body: { a: 1 }, ip: '203.0.113.7', language: 'ar-eg', authorization: 'Bearer tok' })
	})

	test('answers with the status, headers and body of the handler', async () => {
		const refused = await fetchInProcess(`${base}/refused`, { method: 'GET', headers: { Accept: 'application/json' } })
		expect(refused.status).toBe(409)
		expect(refused.headers.get('www-authenticate')).toBe('Bearer')
		expect(await refused.json()).toEqual({ message: 'Taken', statusCode: 409, details: null })
		const empty = await fetchInProcess(`${base}/nothing`, { method: 'DELETE', headers: { Accept: 'application/json' } })
		expect(empty.status).toBe(204)
		expect(await empty.text()).toBe('')
		const unknown = await fetchInProcess(`${base}/nowhere`, { method: 'GET', headers: { Accept: 'application/json' } })
		expect(unknown.status).toBe(404)
	})

	test('streams an answer that is not JSON', async () => {
		const response = await fetchInProcess(`${base}/export.csv`, { method: 'GET', headers: { Accept: 'text/csv' } })
		expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
		expect(response.body).toBeInstanceOf(ReadableStream)
		expect(await response.text()).toBe('name\nNour\n')
	})

	test('tells when no call is running any more (shutdown waits for that before closing the database)', async () => {
		const held = fetchInProcess(`${base}/held`, { method: 'GET', headers: { Accept: 'application/json' } })
		let idle = false
		const waiting = inProcess.idle().then(() => (idle = true))
		await new Promise((resolve) => setImmediate(resolve))
		expect(idle).toBe(false)
		release()
		await waiting
		expect(await (await held).json()).toEqual({ released: true })
	})

	describe('beside a real server in the same process', () => {
		let server: http.Server
		let url = ''
		beforeAll(async () => {
			const app = express()
			app.use('/v1', api)
			server = http.createServer(app)
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
			url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
		})
		afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

		// light-my-request re-parents the prototypes of the app it drives: Express's shared ones must stay intact.
		test('leaves the real requests of other Express apps working', async () => {
			await fetchInProcess(`${base}/echo`, { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: '{}' })
			const response = await fetch(`${url}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"over":"http"}' })
			expect(response.status).toBe(200)
			expect(await response.json()).toMatchObject({ body: { over: 'http' }, ip: '127.0.0.1' })
		})
	})
})
