import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUser, createWorkspace } from './harness.ts'
import { sessionCookie, startPageServer, type PageServer } from './page-server.ts'

/**
 * A signed-in page is kept by no cache, shared or the browser's (server/private-pages.ts, decision
 * 015); the anonymous pages stay as they were, answered from the anonymous page cache.
 */

let server: PageServer
let cookie = ''
beforeAll(async () => {
	server = await startPageServer()
	const workspace = await createWorkspace('Cache Co')
	cookie = await sessionCookie((await createUser({ workspaceId: workspace.id, role: 'owner' })).token)
})
afterAll(() => server?.close())

const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36'
const get = (path: string, headers: Record<string, string> = {}) =>
	fetch(`${server.url}${path}`, { headers: { 'User-Agent': browser, ...headers }, redirect: 'manual' })

describe('Cache-Control', () => {
	test('the push service worker, at the root: revalidated every time, its scope the whole site', async () => {
		const response = await get('/push-worker.js')
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toMatch(/^(application|text)\/javascript/)
		expect(response.headers.get('cache-control')).toBe('public, max-age=0')
		expect(response.headers.get('service-worker-allowed')).toBe('/')
		expect(await response.text()).toContain("addEventListener('push'")
	})

	test('a signed-in page and its data: private, no-store', async () => {
		for (const path of ['/en-us/dashboard/profile', '/en-us/dashboard/profile.data', '/ar-eg/dashboard/contacts', '/fr-x/dashboard/conversations.data']) {
			const response = await get(path, { Cookie: cookie })
			expect(response.status, path).toBe(200)
			expect(response.headers.get('cache-control'), path).toBe('private, no-store')
		}
	})

	test('a page outside the dashboard, signed in (the chat link page, the login page that sends the visitor on): private, no-store', async () => {
		const login = await get('/en-us/auth/login', { Cookie: cookie })
		expect(login.status).toBe(302)
		expect(login.headers.get('cache-control')).toBe('private, no-store')
		const missing = await get('/en-us/c/no-such-link', { Cookie: cookie })
		expect(missing.headers.get('cache-control')).toBe('private, no-store')
	})

	test('the dashboard without a session: its redirect to the login page is not kept either', async () => {
		const response = await get('/en-us/dashboard/profile')
		expect(response.status).toBe(302)
		expect(response.headers.get('cache-control')).toBe('private, no-store')
	})

	test('the anonymous login page: no such header, rendered once and answered from the cache', async () => {
		const first = await get('/fr-x/auth/login')
		const second = await get('/fr-x/auth/login')
		expect([first.status, second.status]).toEqual([200, 200])
		expect(first.headers.get('cache-control')).toBeNull()
		expect(second.headers.get('cache-control')).toBeNull()
		const nonce = (body: string) => /nonce="([^"]+)"/.exec(body)?.[1]
		const [firstBody, secondBody] = [await first.text(), await second.text()]
		// The cached page: the same words, with this answer's own nonce.
		expect(secondBody.replaceAll(nonce(secondBody)!, 'N')).toBe(firstBody.replaceAll(nonce(firstBody)!, 'N'))
	})
})
