import path from 'node:path'
import { type APIRequestContext, type Browser } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expectAccessible } from './accessibility.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// An address on the Internet this machine cannot reach: the e2e server refuses private ones, as production does.
const unreachable = 'https://[2001:db9::1]/hooks/orders'

/** A POST of the API as the owner, answered 2xx, its JSON. */
async function post<T>(request: APIRequestContext, token: string, url: string, data: unknown): Promise<T> {
	const response = await request.post(url, { data, headers: { Authorization: `Bearer ${token}` } })
	if (!response.ok()) throw new Error(`${url}: ${response.status()} ${await response.text()}`)
	return (await response.json()) as T
}

async function screen(browser: Browser, baseURL: string, token: string, { width, javaScript }: { width: number; javaScript: boolean }) {
	const context = await browser.newContext({ baseURL, viewport: { width, height: 860 }, javaScriptEnabled: javaScript })
	await signIn(context, baseURL, token)
	return context.newPage()
}

// One test a language, so the two run side by side.
for (const locale of ['en-us', 'ar-eg']) {
	test(`the integrations screens (tokens, webhooks and a webhook’s log, the profile’s tokens, an API channel) fit a phone and pass axe, in ${locale} (SCREENSHOTS_DIR: both widths, JavaScript off too, photographed)`, async ({
		browser,
		request,
		baseURL,
	}) => {
		const shots = process.env.SCREENSHOTS_DIR
		// Photographed: every screen at both widths, with and without JavaScript.
		if (shots) test.setTimeout(10 * 60_000)
		else test.slow()
		const owner = await registerUser(request, { name: 'Nadia Haddad' })
		const workspace = await createWorkspace(request, owner.token, 'Nile Shop')
		const api = `/v1/workspaces/${workspace.id}`
		// What the pages list: a bot token and a personal one with user-written names, a webhook with a test event in its log, an API channel.
		type Created = { token: { id: string } }
		const bot = await post<Created>(request, owner.token, `${api}/access-tokens`, {
			kind: 'bot',
			name: 'بوت الطلبات',
			scopes: ['conversations:write', 'contacts:read'],
		})
		const personal = await post<Created>(request, owner.token, `${api}/access-tokens`, {
			kind: 'personal',
			name: 'My laptop script',
			scopes: ['contacts:write'],
			expiresInDays: 30,
		})
		const { webhook } = await post<{ webhook: { id: string } }>(request, owner.token, `${api}/webhooks`, {
			url: unreachable,
			events: ['conversation.created', 'message.created'],
		})
		await post(request, owner.token, `${api}/webhooks/${webhook.id}/test`, {})
		const channel = await post<{ id: string }>(request, owner.token, `${api}/channels`, {
			kind: 'api',
			name: 'دردشة المتجر',
			settings: { callbackUrl: 'https://8.8.8.8/crm-hooks' },
		})
		const screens = {
			integrations: '/dashboard/settings/integrations',
			// A revocation being confirmed and a rename form, on each page of tokens.
			'integrations-revoke': `/dashboard/settings/integrations?revoke=${bot.token.id}`,
			'integrations-rename': `/dashboard/settings/integrations?rename=${bot.token.id}`,
			'profile-revoke': `/dashboard/profile?revoke=${personal.token.id}`,
			'profile-rename': `/dashboard/profile?rename=${personal.token.id}`,
			webhooks: '/dashboard/settings/integrations/webhooks',
			webhook: `/dashboard/settings/integrations/webhooks/${webhook.id}`,
			profile: '/dashboard/profile',
			'api-channel': `/dashboard/settings/channels/${channel.id}`,
			'api-channel-create': '/dashboard/settings/channels/create?kind=api',
		}
		for (const width of shots ? [390, 1440] : [390]) {
			for (const javaScript of shots ? [true, false] : [true]) {
				const page = await screen(browser, baseURL!, owner.token, { width, javaScript })
				for (const [name, address] of Object.entries(screens)) {
					await page.goto(`/${locale}${address}`)
					await expect(page.locator('h1')).toBeVisible()
					if (javaScript) await waitForHydration(page)
					if (shots) await page.screenshot({ path: path.join(shots, `${name}-${locale}-${width}-${javaScript ? 'js' : 'nojs'}.png`), fullPage: true })
					// Nothing wider than the screen: no sideways scrolling at 390 px.
					expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width)
					// axe runs in the page: with JavaScript only.
					if (javaScript) await expectAccessible(page)
					// The API channel's callback secret, rolled: shown once.
					if (name === 'api-channel') {
						await page.getByRole('button', { name: locale === 'ar-eg' ? 'تجديد السر' : 'Roll the secret' }).click()
						await expect(page.getByTestId('webhook-secret')).toBeVisible()
						if (shots)
							await page.screenshot({ path: path.join(shots, `api-channel-rolled-${locale}-${width}-${javaScript ? 'js' : 'nojs'}.png`), fullPage: true })
						expect(await page.evaluate(() => document.documentElement.scrollWidth), `the rolled secret at ${width} px`).toBeLessThanOrEqual(width)
						if (javaScript) await expectAccessible(page, 'main')
					}
				}
				await page.context().close()
			}
		}
	})
}
