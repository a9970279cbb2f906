import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { createReadableStreamFromReadable } from '@remix-run/node'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { discardUnreadBody } from './unread-body.ts'

let server: http.Server
let port: number
beforeAll(async () => {
	const app = express()
	app.use(discardUnreadBody(4_000_000))
	// As a Remix action that answers having read one chunk of its body (Remix's own stream of the request).
	app.post('*', async (req, res) => {
		await createReadableStreamFromReadable(req).getReader().read()
		res.redirect(302, '/done')
	})
	server = http.createServer(app)
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Two posts on one kept-alive connection, the first with `size` bytes of body; what the socket received, and whether it was reset. */
function twoPosts(size: number): Promise<{ text: string; reset: boolean }> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1')
		let text = ''
		const post = (body: string) =>
			`POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`
		socket.setEncoding('latin1')
		socket.on('data', (chunk: string) => {
			text += chunk
			if (text.split('HTTP/1.1 302').length === 2 && !text.includes('second')) socket.write(post('second=1'))
			if (text.split('HTTP/1.1 302').length === 3) socket.end()
		})
		socket.on('error', () => resolve({ text, reset: true }))
		socket.on('close', () => resolve({ text, reset: false }))
		socket.write(post(`a=${'x'.repeat(size)}`))
	})
}

test('an answer given before the body was read leaves the kept-alive connection usable', async () => {
	const { text, reset } = await twoPosts(1_000_000)
	expect(reset).toBe(false)
	expect(text.match(/HTTP\/1\.1 302/g)).toHaveLength(2)
})

test('a body beyond the limit loses its connection, not the server', async () => {
	const { text } = await twoPosts(5_000_000)
	expect(text.match(/HTTP\/1\.1 302/g)).toHaveLength(1)
	const response = await fetch(`http://127.0.0.1:${port}/form`, {
		method: 'POST',
		body: 'a=1',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		redirect: 'manual',
	})
	expect(response.status).toBe(302)
})
