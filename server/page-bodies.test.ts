import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { isRouteErrorResponse, UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from '@remix-run/router'
import express from 'express'
import inject from 'light-my-request'
import { decode } from 'turbo-stream'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { answerTooLarge, BodyTooLarge, cappedBody, pageBodyLimit, sizeFor } from './page-bodies.ts'

const upload = 16 * 1024 * 1024

describe('a page’s body limit', () => {
	test.each([
		['/en-us/auth/login', 64 * 1024],
		['/ar-eg/auth/login.data', 64 * 1024],
		['/fr-x/dashboard/settings/labels', 64 * 1024],
		['/en-us/c/support/realtime-auth', 64 * 1024],
		['/realtime/auth', 64 * 1024],
		['/_root.data', 64 * 1024],
		['/en-us/dashboard/campaign-manager.data', 1024 * 1024],
		['/en-us/dashboard/contacts/itsForm', 1024 * 1024],
		['/ar-eg/c/support', 1024 * 1024],
		['/en-us/dashboard/conversations', 4 * upload + 64 * 1024],
		['/fr-x/dashboard/conversations.data', 4 * upload + 64 * 1024],
		['/en-us/dashboard/contacts.data', 4 * upload + 64 * 1024],
	])('%s: %i bytes', (path, maxBytes) => {
		expect(pageBodyLimit(path, upload).maxBytes).toBe(maxBytes)
	})

	test('a page that takes a file names the file’s limit', () => {
		expect(pageBodyLimit('/en-us/dashboard/conversations', upload).named).toBe(upload)
		// Intl writes French sizes with a narrow no-break space.
		expect(sizeFor('en-us', upload)).toBe('16 MB')
		expect(sizeFor('fr-x', 64 * 1024).replace(/\s/g, ' ')).toBe('64 ko')
	})
})

describe('the 413', () => {
	const app = express()
	app.post('*', (req, res) => answerTooLarge(req, res, pageBodyLimit(req.path, upload)))

	test('without JavaScript: a page in the page’s language, back to the form', async () => {
		const answer = await inject(app, { method: 'POST', url: '/ar-eg/auth/login?redirect=%2Far-eg%2Fdashboard' })
		expect(answer.statusCode).toBe(413)
		expect(answer.headers['content-type']).toMatch(/^text\/html/)
		expect(answer.payload).toContain('<html lang="ar-EG" dir="rtl">')
		expect(answer.payload).toContain('تقبل هذه الصفحة ٦٤ كيلوبايت على الأكثر')
		expect(answer.payload).toContain('href="/ar-eg/auth/login?redirect=%2Far-eg%2Fdashboard"')
	})

	test('a path that is not one of ours is not linked back to', async () => {
		const answer = await inject(app, { method: 'POST', url: '//evil.example/x' })
		expect(answer.payload).toContain('href="/en-us"')
	})

	test('with JavaScript (.data): Remix’s single fetch decodes it into a 413 error response with the words', async () => {
		const answer = await inject(app, { method: 'POST', url: '/fr-x/dashboard/conversations.data?c=12' })
		expect(answer.statusCode).toBe(413)
		expect(answer.headers['content-type']).toMatch(/^text\/x-script/)
		// As @remix-run/react's decodeViaTurboStream reads an action's answer.
		const decoded = await decode(new Response(answer.payload).body!, {
			plugins: [(type, ...rest) => (type === 'ErrorResponse' ? { value: new ErrorResponseImpl(rest[1] as number, rest[2] as string, rest[0]) } : undefined)],
		})
		const { error } = decoded.value as { error: unknown }
		expect(isRouteErrorResponse(error)).toBe(true)
		const { status, data } = error as { status: number; data: { message: string } }
		expect(status).toBe(413)
		expect(data.message.replace(/\s/g, ' ')).toBe(
			'Cette page accepte au plus 16 Mo à la fois. Revenez en arrière et envoyez moins : un texte plus court ou un fichier plus petit.',
		)
	})
})

describe('a capped body', () => {
	let server: http.Server
	let base = ''
	const refused: string[] = []
	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const body = cappedBody(req, 1000, () => refused.push(req.url ?? ''))
			new Response(body).text().then(
				(text) => res.end(`read ${text.length}`),
				(error: Error) => res.end(error instanceof BodyTooLarge ? 'too large' : `failed: ${error.message}`),
			)
		})
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	})
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

	/** A chunked post (no Content-Length) of `chunks` chunks of 300 bytes. */
	const chunked = (path: string, chunks: number) =>
		fetch(base + path, {
			method: 'POST',
			body: new ReadableStream({
				start(controller) {
					for (let index = 0; index < chunks; index++) controller.enqueue(new Uint8Array(300).fill(97))
					controller.close()
				},
			}),
			duplex: 'half',
		} as RequestInit).then((response) => response.text())

	test('up to its limit, read whole', async () => {
		expect(await chunked('/small', 3)).toBe('read 900')
		expect(refused).not.toContain('/small')
	})

	test('past its limit, the read fails and the refusal is called once', async () => {
		expect(await chunked('/large', 20)).toBe('too large')
		expect(refused.filter((path) => path === '/large')).toHaveLength(1)
	})
})
