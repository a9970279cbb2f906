import crypto from 'node:crypto'
import type http from 'node:http'
import { type AddressInfo } from 'node:net'
import compression from 'compression'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anonymousPageCache } from './page-cache.ts'

let server: http.Server
let base: string
const rendered: string[] = []

beforeAll(async () => {
	const app = express()
	app.use((_req, res, next) => {
		res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
		next()
	})
	app.use(compression())
	app.get('*', anonymousPageCache({ paths: /^\/(en-us|ar-eg)(\/auth\/login)?$/, ttlMs: 60_000 }))
	app.get('*', (req, res) => {
		rendered.push(req.url)
		if (req.path.endsWith('/missing')) return void res.status(404).type('html').send('<p>missing</p>')
		const nonce = String(res.locals.cspNonce)
		res
			.type('html')
			.send(
				`<html lang="${req.path.slice(1, 6)}"><script nonce="${nonce}">go()</script><script nonce="${nonce}"></script><p>${'words '.repeat(400)}</p></html>`,
			)
	})
	server = app.listen(0, '127.0.0.1')
	await new Promise((resolve) => server.once('listening', resolve))
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const browser = { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' }

async function page(path: string, headers: Record<string, string> = browser) {
	const before = rendered.length
	const response = await fetch(base + path, { headers })
	const body = await response.text()
	return { status: response.status, body, nonces: [...body.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]), rendered: rendered.length - before }
}

describe('the anonymous page cache', () => {
	test('renders a public page once; each answer carries its own nonce in every place', async () => {
		const first = await page('/ar-eg/auth/login')
		const second = await page('/ar-eg/auth/login')
		expect([first.rendered, second.rendered]).toEqual([1, 0])
		expect(second.status).toBe(200)
		expect(second.nonces).toHaveLength(2)
		expect(new Set(second.nonces).size).toBe(1)
		expect(second.nonces[0]).not.toBe(first.nonces[0])
		expect(second.body.replaceAll(second.nonces[0]!, 'N')).toBe(first.body.replaceAll(first.nonces[0]!, 'N'))
		// Compressed as usual after the cache (a browser asks for gzip).
		const gzipped = await fetch(`${base}/ar-eg/auth/login`, { headers: { ...browser, 'Accept-Encoding': 'gzip' } })
		expect(gzipped.headers.get('content-encoding')).toBe('gzip')
	})

	test('renders as usual what depends on the visitor or is not a public page', async () => {
		await page('/en-us')
		for (const [path, headers] of [
			['/en-us', { ...browser, Cookie: 'theme=dark' }],
			['/en-us', { ...browser, Referer: 'http://127.0.0.1/en-us/auth/login' }],
			['/en-us', { ...browser, Authorization: 'Bearer x' }],
			['/en-us?redirect=/en-us/dashboard', browser],
			['/en-us/dashboard', browser],
			['/en-us/missing', browser],
		] as const) {
			expect((await page(path, headers)).rendered, `${path} ${JSON.stringify(headers)}`).toBe(1)
			expect((await page(path, headers)).rendered, `${path} again`).toBe(1)
		}
		// A bot's answer is kept apart from a browser's.
		expect((await page('/en-us', { 'User-Agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).rendered).toBe(1)
	})

	test('a page answered with a cookie is not kept', async () => {
		// A page that sets a cookie (a toast cleared once read, a locale remembered) speaks to one visitor.
		const cache = anonymousPageCache({ paths: /^\/$/, ttlMs: 60_000 })
		const app = express()
		let renders = 0
		app.use((_req, res, next) => {
			res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
			next()
		})
		app.get('/', cache, (_req, res) => {
			renders++
			res
				.cookie('toast', '', { maxAge: 0 })
				.type('html')
				.send(`<script nonce="${String(res.locals.cspNonce)}"></script>`)
		})
		const other = app.listen(0, '127.0.0.1')
		await new Promise((resolve) => other.once('listening', resolve))
		const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`
		await fetch(url, { headers: browser })
		await fetch(url, { headers: browser })
		other.close()
		expect(renders).toBe(2)
	})
})
