import { type BrowserContext, type Page } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

/** Chooses a theme in the appearance menu, which keeps it in a cookie (not in the profile). */
async function chooseTheme(page: Page, theme: string, javaScript: boolean) {
	// The top bar's own menu (a phone's copy sits in the account menu, hidden at this width).
	await page.locator('summary:visible', { hasText: 'Appearance' }).click()
	const menu = page.locator('form[action$="/preferences/theme"]:visible')
	await menu.getByLabel('Theme').selectOption(theme)
	if (!javaScript) await menu.getByRole('button', { name: 'Apply' }).click()
	await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
}

async function signedUp(request: Parameters<typeof registerUser>[0], context: BrowserContext, baseURL: string) {
	const user = await registerUser(request)
	await createWorkspace(request, user.token)
	await signIn(context, baseURL, user.token)
	return user
}

for (const javaScript of [true, false]) {
	test.describe(javaScript ? 'the profile with JavaScript' : 'the profile without JavaScript', () => {
		test.use({ javaScriptEnabled: javaScript })

		test('saving a new name keeps the theme in use; another theme chosen there is saved and used', async ({ page, context, request, baseURL }) => {
			const user = await signedUp(request, context, baseURL!)
			await page.goto('/en-us/dashboard/profile')
			if (javaScript) await waitForHydration(page)
			await chooseTheme(page, 'rose', javaScript)

			const details = page.getByRole('region', { name: 'Name and preferences' })
			await expect(details.getByLabel('Theme')).toHaveValue('rose')
			await details.getByLabel('Full name').fill('Samira Haddad')
			await details.getByRole('button', { name: 'Save' }).click()
			await expect(page.getByText('Profile saved')).toBeVisible()
			await expect(page.locator('html')).toHaveAttribute('data-theme', 'rose')
			await expect(details.getByLabel('Full name')).toHaveValue('Samira Haddad')
			await expect(details.getByLabel('Theme')).toHaveValue('rose')
			// The profile's own theme was not touched either.
			const profile = await request.get('/v1/auth/profile', { headers: { Authorization: `Bearer ${user.token}` } })
			expect(await profile.json()).toMatchObject({ name: 'Samira Haddad', theme: 'zinc' })

			await details.getByLabel('Theme').selectOption('green')
			await details.getByRole('button', { name: 'Save' }).click()
			await expect(page.locator('html')).toHaveAttribute('data-theme', 'green')
			const saved = await request.get('/v1/auth/profile', { headers: { Authorization: `Bearer ${user.token}` } })
			expect(await saved.json()).toMatchObject({ theme: 'green' })
		})
	})
}
