import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { refuseForeignOrigin } from './csrf.ts'

let url: string
let server: http.Server
beforeAll(async () => {
	const app = express()
	app.use(refuseForeignOrigin('https://crm.example.com'))
	app.all('*', (_req, res) => res.send('done'))
	server = http.createServer(app)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const post = (path: string, origin?: string) => fetch(`${url}${path}`, { method: 'POST', headers: origin ? { Origin: origin } : {} })

describe('refuseForeignOrigin', () => {
	test('a post from this site or from PUBLIC_URL passes', async () => {
		expect((await post('/en-us/auth/login', url)).status).toBe(200)
		expect((await post('/en-us/auth/login', 'https://crm.example.com')).status).toBe(200)
		expect((await post('/en-us/auth/login')).status).toBe(200)
	})

	test('a post from another site is refused with a translated 403', async () => {
		const english = await post('/en-us/auth/logout', 'https://evil.example')
		expect(english.status).toBe(403)
		expect(await english.text()).toBe('This form was sent from another site, so it was refused.')
		const arabic = await post('/ar-eg/auth/logout', 'null')
		expect(arabic.status).toBe(403)
		expect(await arabic.text()).toMatch(/[\u0600-\u06FF]/)
	})

	test('reads are never refused', async () => {
		expect((await fetch(`${url}/en-us`, { headers: { Origin: 'https://evil.example' } })).status).toBe(200)
	})
})
