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
