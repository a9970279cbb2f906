import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

test('/ loads the home page with no console error and no CSP violation', async ({ page }) => {
	const response = await page.goto('/')
	expect(response?.status()).toBe(200)
	await expect(page).toHaveURL(/\/en-us$/)
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('One inbox for every conversation with your customers')
	const csp = response?.headers()['content-security-policy'] ?? ''
	expect(csp).toMatch(/script-src 'strict-dynamic' 'self' 'nonce-[A-Za-z0-9+/=]+'/)
	const scriptNonce = await page.locator('script[nonce]').first().getAttribute('nonce')
	expect(scriptNonce).not.toBeNull()
})

test('translations are served per locale and cached', async ({ request }) => {
	const response = await request.get('/_i18n/fr-x/messages.json')
	expect(response.status()).toBe(200)
	expect(response.headers()['cache-control']).toBe('public, max-age=86400, immutable')
	expect((await response.json()).home.signIn).toBe('Se connecter')
	expect((await request.get('/_i18n/de-de/messages.json')).status()).toBe(404)
})

test('health endpoints answer', async ({ request }) => {
	expect((await request.get('/healthz')).status()).toBe(200)
	expect(await (await request.get('/readyz')).json()).toEqual({ status: 'ready', database: 'up' })
})

test('a post that is no form is a 400 with translated words in the page’s language, never a 500', async ({ context, request, baseURL }) => {
	const owner = await registerUser(request)
	await createWorkspace(request, owner.token, 'Malformed Co')
	await signIn(context, baseURL!, owner.token)
	// A browser's user agent: bots get the bare status instead of the error screen.
	const headers = { Origin: baseURL!, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36' }
	const posts = [
		{ path: '/ar-eg/auth/login', contentType: 'multipart/form-data; boundary=nothing-follows', words: 'تعذّرت قراءة هذا النموذج' },
		{ path: '/fr-x/auth/login', contentType: 'text/plain', words: 'Ce formulaire n’a pas pu être lu' },
		{ path: '/en-us/dashboard/conversations', contentType: 'application/json', words: 'This form could not be read' },
	]
	for (const { path, contentType, words } of posts) {
		const answer = await context.request.post(path, { headers: { ...headers, 'Content-Type': contentType }, data: Buffer.from('--garbage\r\nno headers here') })
		expect(answer.status(), path).toBe(400)
		expect(await answer.text()).toContain(words)
	}
	// The inbox reads multipart itself (a reply's file): what is not a form there is no form either.
	const inbox = await context.request.post('/en-us/dashboard/conversations', {
		headers: { ...headers, 'Content-Type': 'multipart/form-data; boundary=nothing-follows' },
		data: Buffer.from('--garbage\r\nno headers here'),
	})
	expect(inbox.status()).toBeLessThan(500)
})
