import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLinkChannel, customerWrites } from './conversations-fixtures.ts'
import { createUser, createWorkspace, testDb } from './harness.ts'
import { rawRequest, sessionCookie, startPageServer, type PageServer } from './page-server.ts'

/**
 * Page posts are capped at their page's limit before Remix reads them (server/page-bodies.ts,
 * decision 015): one 300 MB post to the login page had taken the process from 126 MB to 2.6 GB.
 */

// Larger than the long-text pages' 1 MB: the inbox takes it because it takes files.
const uploadMaxBytes = 2 * 1024 * 1024
let server: PageServer
beforeAll(async () => {
	server = await startPageServer({ UPLOAD_MAX_BYTES: String(uploadMaxBytes) })
})
afterAll(() => server?.close())

const form = 'Content-Type: application/x-www-form-urlencoded'

describe('a page post over its limit', () => {
	test('with a Content-Length over it: 413 at once, in the page’s language, before a byte of the body is sent', async () => {
		const answer = await rawRequest(server.url, `POST /fr-x/auth/login HTTP/1.1\r\n${form}\r\nContent-Length: 300000000`, [])
		expect(answer.status).toBe(413)
		expect(answer.ms).toBeLessThan(2_000)
		expect(answer.headers['content-type']).toMatch(/^text\/html/)
		expect(answer.body).toContain('<html lang="fr" dir="ltr">')
		expect(answer.body).toContain('Trop volumineux pour être envoyé')
		expect(answer.body.replace(/\s/g, ' ')).toContain('Cette page accepte au plus 64 ko à la fois.')
	})

	test('chunked, with no Content-Length: cut once it passes the limit, 413 without waiting for its end', async () => {
		// 200 KB sent, the body never ended: the answer comes anyway.
		const chunks = Array.from({ length: 25 }, () => Buffer.from(`email=${'x'.repeat(8 * 1024 - 6)}`))
		const answer = await rawRequest(server.url, `POST /ar-eg/auth/login HTTP/1.1\r\n${form}\r\nTransfer-Encoding: chunked`, chunks)
		expect(answer.status).toBe(413)
		expect(answer.ms).toBeLessThan(2_000)
		expect(answer.body).toContain('<html lang="ar-EG" dir="rtl">')
		expect(answer.body).toContain('تقبل هذه الصفحة ٦٤ كيلوبايت على الأكثر')
	})

	test('posted by the page’s JavaScript (.data): the 413 as Remix’s single fetch answers an action’s error', async () => {
		const answer = await rawRequest(server.url, `POST /en-us/auth/login.data HTTP/1.1\r\n${form}\r\nContent-Length: 5000000`, [])
		expect(answer.status).toBe(413)
		expect(answer.headers['content-type']).toMatch(/^text\/x-script/)
		expect(answer.body).toContain('"ErrorResponse"')
		expect(answer.body).toContain('This page accepts at most 64 kB at once.')
	})

	test('a form within its limit is the page’s as before', async () => {
		const body = new URLSearchParams({ email: 'nobody@example.test', password: 'Wrong-password-1' })
		const response = await fetch(`${server.url}/en-us/auth/login`, { method: 'POST', body, redirect: 'manual' })
		// The login page again, with its refusal of the password.
		expect(response.status).toBe(401)
		expect(await response.text()).toContain('<form')
	})
})

describe('a page that takes a file', () => {
	test('the inbox takes a file of UPLOAD_MAX_BYTES (the long-text and small-form limits are far below); a larger file is refused beside the field, a far larger post by the page', async () => {
		const workspace = await createWorkspace('Uploads Co')
		const { token } = await createUser({ workspaceId: workspace.id, role: 'agent' })
		const channel = await createLinkChannel(workspace.id)
		const { conversation } = await customerWrites(channel, 'visitor-upload', 'Send me the manual, please')
		const cookie = await sessionCookie(token)
		const post = (path: string, bytes: number) => {
			const body = new FormData()
			body.set('intent', 'reply')
			body.set('number', String(conversation.number))
			body.set('kind', 'text')
			body.set('body', 'Here it is')
			body.set('file', new File([new Uint8Array(bytes).fill(7)], 'manual.pdf', { type: 'application/pdf' }))
			return fetch(`${server.url}${path}`, { method: 'POST', body, headers: { Cookie: cookie }, redirect: 'manual' })
		}

		const sent = await post('/en-us/dashboard/conversations', uploadMaxBytes)
		expect(sent.status, await sent.text()).toBe(302)
		const attachment = await testDb()
			.selectFrom('attachments')
			.select(['size', 'status'])
			.where('filename', '=', 'manual.pdf')
			.where('workspaceId', '=', workspace.id)
			.executeTakeFirst()
		expect(attachment).toEqual({ size: uploadMaxBytes, status: 'stored' })

		// The same file to a page of small forms, and a post past the inbox's own room for a file.
		const elsewhere = await post('/en-us/dashboard/settings/labels', uploadMaxBytes)
		expect(elsewhere.status).toBe(413)
		expect(await elsewhere.text()).toContain('This page accepts at most 64 kB at once.')
		// A file a little too large is the composer's own refusal, beside the field, what was typed kept.
		const overFile = await post('/en-us/dashboard/conversations', uploadMaxBytes + 128 * 1024)
		expect(overFile.status).toBe(413)
		const page = await overFile.text()
		expect(page).toContain('The file is larger than 2 MB.')
		expect(page).toContain('Here it is')
		const tooLarge = await post('/en-us/dashboard/conversations', 4 * uploadMaxBytes + 128 * 1024)
		expect(tooLarge.status).toBe(413)
		expect(await tooLarge.text()).toContain('This page accepts at most 2 MB at once.')
	})
})
