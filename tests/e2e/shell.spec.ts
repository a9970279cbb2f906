import { expect, test, waitForHydration } from './fixtures.ts'
import { expectAccessible } from './accessibility.ts'

const locales = [
	{ code: 'en-us', tag: 'en-US', dir: 'ltr', title: 'Oops! Page Not Found!', notFound: 'Page Not Found:', home: 'Back to Home', back: 'Go Back' },
	{ code: 'ar-eg', tag: 'ar-EG', dir: 'rtl', title: 'عذرًا! الصفحة غير موجودة!', notFound: 'الصفحة غير موجودة:', home: 'العودة إلى الرئيسية', back: 'رجوع' },
	{ code: 'fr-x', tag: 'fr', dir: 'ltr', title: 'Oups ! Page introuvable !', notFound: 'Page introuvable :', home: 'Retour à l’accueil', back: 'Retour' },
] as const

test.describe('locale redirects', () => {
	test('by Accept-Language, then en-us', async ({ browser, request }) => {
		const response = await request.get('/', { headers: { 'Accept-Language': 'de-DE,ar;q=0.8' }, maxRedirects: 0 })
		expect(response.headers().location).toBe('/ar-eg')
		for (const [header, expected] of [
			['fr-FR', 'fr-x'],
			['ar-EG', 'ar-eg'],
			['de-DE', 'en-us'],
		] as const) {
			// The browser's locale is what it sends as Accept-Language.
			const context = await browser.newContext({ locale: header })
			const page = await context.newPage()
			await page.goto('/')
			await expect(page).toHaveURL(new RegExp(`/${expected}$`))
			await context.close()
		}
	})

	test('the stored cookie choice wins over the browser languages', async ({ browser, baseURL }) => {
		const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Language': 'fr-FR' }, javaScriptEnabled: false })
		const page = await context.newPage()
		await page.goto('/en-us')
		await page.getByRole('button', { name: 'العربية' }).click()
		await expect(page).toHaveURL(/\/ar-eg$/)
		const cookie = (await context.cookies(baseURL)).find((c) => c.name === 'i18n_redirected')
		expect(cookie?.value).toBe('ar-eg')
		expect(cookie?.sameSite).toBe('Lax')
		// 365 days, give or take the seconds the test takes.
		expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600)
		await page.goto('/')
		await expect(page).toHaveURL(/\/ar-eg$/)
		await page.goto('/some/where?x=1')
		await expect(page).toHaveURL(/\/ar-eg\/some\/where\?x=1$/)
		await context.close()
	})
})

for (const locale of locales) {
	test.describe(`in ${locale.code}`, () => {
		test('the home page is in the language and direction of the locale', async ({ page }) => {
			await page.goto(`/${locale.code}`)
			await expect(page.locator('html')).toHaveAttribute('lang', locale.tag)
			await expect(page.locator('html')).toHaveAttribute('dir', locale.dir)
			await waitForHydration(page)
			await expectAccessible(page)
		})

		test('an unknown path is the 404 error screen', async ({ page }) => {
			const response = await page.goto(`/${locale.code}/no/such/page`)
			expect(response?.status()).toBe(404)
			await expect(page.getByText(`${locale.notFound} /${locale.code}/no/such/page`)).toBeVisible()
			await expect(page.getByRole('heading', { name: locale.title })).toBeVisible()
			await expect(page.getByText('404', { exact: true })).toBeVisible()
			await expect(page.getByRole('link', { name: locale.home })).toHaveAttribute('href', '/')
			await expect(page.getByRole('link', { name: locale.back, exact: true })).toBeVisible()
			await expectAccessible(page)
		})
	})
}

test('an unsupported locale is not found, with the exact English texts', async ({ page, request }) => {
	const response = await page.goto('/de-de/auth/login')
	expect(response?.status()).toBe(404)
	await expect(page.getByTestId('error-message')).toHaveText('Page Not Found: /de-de/auth/login')
	await expect(page.getByText("It seems like the page you're looking for does not exist or might have been removed.")).toBeVisible()
	await page.getByRole('link', { name: 'Back to Home' }).click()
	await expect(page).toHaveURL(/\/en-us$/)
	expect((await request.post('/de-de/x', { form: { a: '1' } })).status()).toBe(404)
	expect((await request.post('/en-us/no/such/page', { form: { a: '1' } })).status()).toBe(404)
})

test('Go Back returns to the previous page', async ({ page }) => {
	await page.goto('/fr-x')
	await page.goto('/fr-x/nulle-part')
	await waitForHydration(page)
	await page.getByRole('link', { name: 'Retour', exact: true }).click()
	await expect(page).toHaveURL(/\/fr-x$/)
})

test('bots get the status and a plain body', async ({ request }) => {
	const response = await request.get('/en-us/missing', { headers: { 'User-Agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } })
	expect(response.status()).toBe(404)
	expect(response.headers()['content-type']).toMatch(/^text\/plain/)
	expect(await response.text()).not.toContain('<html')
})

test('the theme is kept in a cookie and rendered by the server (no flash), with JavaScript', async ({ page, request }) => {
	await page.goto('/en-us')
	await waitForHydration(page)
	await page.getByText('Appearance').click()
	await page.getByLabel('Theme').selectOption('rose')
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'rose')
	await page.getByLabel('Mode').selectOption('dark')
	await expect(page.locator('html')).toHaveAttribute('data-mode', 'dark')
	const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Appearance saved' }).first()
	await expect(toast).toBeVisible()
	await toast.hover()
	// Each kind of toast is readable (its colours are keyed on its type): checked once it has faded in.
	for (const type of ['success', 'info', 'warning', 'error']) {
		await toast.evaluate((element, kind) => element.setAttribute('data-type', kind), type)
		await expect(async () => expectAccessible(page, '[data-sonner-toaster]')).toPass({ timeout: 5_000 })
	}
	await page.reload()
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'rose')
	// The HTML as it leaves the server already carries the theme.
	const cookies = await page.context().cookies()
	const html = await (await request.get('/en-us', { headers: { Cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') } })).text()
	expect(html).toMatch(/<html[^>]+data-theme="rose"[^>]+data-mode="dark"/)
	const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
	expect(background).not.toBe('rgb(255, 255, 255)')
})

test('theme, toast and language switcher work without JavaScript', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false })
	const page = await context.newPage()
	await page.goto('/fr-x')
	await page.getByText('Apparence').click()
	await page.getByLabel('Thème').selectOption('blue')
	await page.getByLabel('Arrondi des angles (rem)').selectOption('1')
	await page.getByRole('button', { name: 'Appliquer' }).click()
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'blue')
	await expect(page.locator('html')).toHaveAttribute('data-radius', '1')
	await expect(page.getByRole('status')).toContainText('Apparence enregistrée')
	// Flash: shown once.
	await page.reload()
	await expect(page.getByRole('status')).toHaveCount(0)
	await page.getByRole('button', { name: 'English' }).click()
	await expect(page).toHaveURL(/\/en-us$/)
	await expect(page.locator('html')).toHaveAttribute('data-theme', 'blue')
	await context.close()
})
