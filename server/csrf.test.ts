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
	// What Remix will compare the Origin with: X-Forwarded-Host, else Host.
	app.all('*', (req, res) => res.send(`done for ${String(req.headers['x-forwarded-host'] ?? req.headers.host)}`))
	server = http.createServer(app)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const post = (path: string, origin?: string) => fetch(`${url}${path}`, { method: 'POST', headers: origin ? { Origin: origin } : {} })

/** A post with the headers a proxy would set (fetch may not set Host). */
function postThrough(headers: Record<string, string>): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const request = http.request(`${url}/en-us/auth/login`, { method: 'POST', headers }, (response) => {
			let body = ''
			response.setEncoding('utf8')
			response.on('data', (chunk: string) => (body += chunk))
			response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
		})
		request.on('error', reject)
		request.end()
	})
}

describe('refuseForeignOrigin', () => {
	test('a post from this site or from PUBLIC_URL passes', async () => {
		expect((await post('/en-us/auth/login', url)).status).toBe(200)
		expect((await post('/en-us/auth/login', 'https://crm.example.com')).status).toBe(200)
		expect((await post('/en-us/auth/login')).status).toBe(200)
	})

	test("behind a proxy that rewrites Host, a post from PUBLIC_URL passes and the request is told PUBLIC_URL's host", async () => {
		expect(await postThrough({ Origin: 'https://crm.example.com', Host: 'app:3000' })).toEqual({ status: 200, body: 'done for crm.example.com' })
		expect(await postThrough({ Origin: 'https://crm.example.com', Host: 'app:3000', 'X-Forwarded-Host': 'internal' })).toEqual({
			status: 200,
			body: 'done for crm.example.com',
		})
	})

	test('the host the request names is X-Forwarded-Host before Host, as Remix reads it', async () => {
		const host = new URL(url).host
		expect(await postThrough({ Origin: 'http://shop.example', Host: host, 'X-Forwarded-Host': 'shop.example' })).toEqual({
			status: 200,
			body: 'done for shop.example',
		})
		expect((await postThrough({ Origin: url, Host: host, 'X-Forwarded-Host': 'shop.example' })).status).toBe(403)
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
