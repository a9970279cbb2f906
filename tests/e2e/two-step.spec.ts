import { Secret, TOTP } from 'otpauth'
import { type APIRequestContext, type Page } from '@playwright/test'
import { readOutbox } from '../support/mail.ts'
import { createWorkspace, freshIp, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { expectAccessible } from './accessibility.ts'

/** The code an authenticator app shows for `secret`, `steps` periods of 30 s from now (each code is taken once). */
function codeFor(secret: string, steps = 0): string {
	return new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })
}

/** Two-step sign-in turned on through the API, as the profile page does it; the secret and the recovery codes. */
async function turnOnByApi(request: APIRequestContext, token: string) {
	const headers = { Authorization: `Bearer ${token}` }
	const setup = (await (await request.post('/v1/auth/two-factor/setup', { headers })).json()) as { secret: string }
	const enabled = await request.post('/v1/auth/two-factor/enable', { headers, data: { code: codeFor(setup.secret) } })
	expect(enabled.ok()).toBe(true)
	return { secret: setup.secret, recoveryCodes: ((await enabled.json()) as { recoveryCodes: string[] }).recoveryCodes }
}

async function signOut(page: Page, name: string, words: { signOut: string }) {
	await page.locator('summary', { hasText: name }).click()
	await page.getByRole('button', { name: words.signOut, exact: true }).click()
}

test.describe('two-step sign-in, with JavaScript', () => {
	test('turned on from the profile page with the written-out secret, then signing in asks for the code', async ({ page, context, request, baseURL }) => {
		const user = await registerUser(request, { name: 'Tess Totp' })
		await createWorkspace(request, user.token, 'Totp Support')
		await signIn(context, baseURL!, user.token)

		await page.goto('/en-us/dashboard/profile')
		await waitForHydration(page)
		const section = page.locator('#two-factor')
		await section.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
		await expect(section.getByRole('img', { name: 'QR code to scan with an authenticator app' })).toBeVisible()
		const secret = (await section.getByTestId('two-factor-secret').textContent()) ?? ''
		expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/)
		await expectAccessible(page)

		// A wrong code first: refused beside the field, the QR code and the secret still there.
		const code = section.getByLabel('Code from your authenticator app')
		await code.fill(String((Number(codeFor(secret)) + 1) % 1_000_000).padStart(6, '0'))
		await section.getByRole('button', { name: 'Confirm and turn on' }).click()
		await expect(section.getByText('This code is not valid, or it was already used.', { exact: false })).toBeVisible()
		await expect(section.getByTestId('two-factor-secret')).toHaveText(secret)
		await expect(code).toHaveAttribute('autocomplete', 'one-time-code')
		await expect(code).toHaveAttribute('inputmode', 'numeric')

		await code.fill(codeFor(secret))
		await section.getByRole('button', { name: 'Confirm and turn on' }).click()
		const codes = section.getByTestId('recovery-codes')
		await expect(codes).toBeVisible()
		const recoveryCodes = (await codes.inputValue()).split('\n')
		expect(recoveryCodes).toHaveLength(10)
		await expect(section.getByRole('button', { name: 'Copy the codes' })).toBeVisible()
		await expect(section.getByRole('link', { name: 'Download as a text file' })).toHaveAttribute('download', 'recovery-codes.txt')
		await expect(section.getByText(/^Two-step sign-in is on since/)).toBeVisible()
		await expect(section.getByText('10 recovery codes left.')).toBeVisible()
		// Shown once: a new visit shows neither the secret nor the codes.
		await page.reload()
		await expect(section.getByTestId('recovery-codes')).toHaveCount(0)
		await expect(section.getByTestId('two-factor-secret')).toHaveCount(0)

		await signOut(page, 'Tess Totp', { signOut: 'Sign out' })
		await expect(page).toHaveURL(/\/en-us\/auth\/login$/)
		await waitForHydration(page)
		await page.getByLabel('E-mail address', { exact: true }).fill(user.email)
		await page.getByLabel('Password', { exact: true }).fill(user.password)
		await page.getByRole('button', { name: 'Sign in', exact: true }).click()
		await expect(page).toHaveURL(/\/en-us\/auth\/login\?step=two-factor$/)
		await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible()
		// The challenge is kept from page scripts.
		expect((await context.cookies()).find((cookie) => cookie.name === 'crm-two-factor')).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
		expect((await context.cookies()).find((cookie) => cookie.name === 'crm-token')).toBeUndefined()
		await waitForHydration(page)
		const loginCode = page.getByLabel('Code from your authenticator app')
		await expect(loginCode).toHaveAttribute('autocomplete', 'one-time-code')
		await expect(loginCode).toHaveAttribute('inputmode', 'numeric')
		await expectAccessible(page)
		// The code the set-up took is spent; the next one signs in.
		await loginCode.fill(codeFor(secret, 1))
		await page.getByRole('button', { name: 'Verify' }).click()
		await expect(page).toHaveURL(/\/en-us\/dashboard$/)
		expect((await context.cookies()).find((cookie) => cookie.name === 'crm-two-factor')).toBeUndefined()

		// Turned off with the password and a recovery code; a wrong one is said beside the field.
		await page.goto('/en-us/dashboard/profile')
		await waitForHydration(page)
		await section.getByLabel('Current password').fill(user.password)
		await section.getByLabel('Code from your authenticator app, or a recovery code').fill('aaaaa-bbbbb')
		await section.getByRole('button', { name: 'Turn off' }).click()
		await expect(section.getByText('This recovery code is not valid, or it was already used.')).toBeVisible()
		await section.getByLabel('Current password').fill(user.password)
		await section.getByLabel('Code from your authenticator app, or a recovery code').fill(recoveryCodes[0]!)
		await section.getByRole('button', { name: 'Turn off' }).click()
		await expect(page.getByText('Two-step sign-in is off')).toBeVisible()
		await expect(section.getByRole('button', { name: 'Turn on two-step sign-in' })).toBeVisible()
	})

	test('a workspace that requires it sends a member without it to set it up', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { name: 'Olga Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Strict Support')
		await turnOnByApi(request, owner.token)
		// The owner requires it on the workspace settings page.
		await signIn(context, baseURL!, owner.token)
		await page.goto(`/en-us/dashboard/settings/workspaces?edit=${workspace.id}`)
		await waitForHydration(page)
		await page.getByLabel('Require two-step sign-in of every member').check()
		await page.getByRole('button', { name: 'Save', exact: true }).last().click()
		await expect(page.getByText('Two-step sign-in is now required in this workspace')).toBeVisible()

		// A member without it: every page of the workspace leads to the profile's set-up.
		const member = await registerUser(request, { name: 'Max Member' })
		const invitation = (await (
			await request.post(`/v1/workspaces/${workspace.id}/invitations`, {
				headers: { Authorization: `Bearer ${owner.token}` },
				data: { method: 'link', role: 'agent' },
			})
		).json()) as { code: string }
		const accepted = await request.post('/v1/workspaces/invitations/accept', {
			headers: { Authorization: `Bearer ${member.token}`, 'X-Forwarded-For': freshIp() },
			data: { code: invitation.code, method: 'link' },
		})
		expect(accepted.ok()).toBe(true)
		await context.clearCookies()
		await signIn(context, baseURL!, member.token)
		await page.goto('/en-us/dashboard/contacts')
		await expect(page).toHaveURL(/\/en-us\/dashboard\/profile#two-factor$/)
		await expect(page.getByText('Strict Support requires two-step sign-in: turn it on to use this workspace.')).toBeVisible()
		// Elsewhere the shell says it too, with the way to the set-up.
		await page.goto('/en-us/dashboard/settings/workspaces')
		await expect(page.getByText('Strict Support requires two-step sign-in. Turn it on in your profile to keep working there.')).toBeVisible()
		await page.getByRole('link', { name: 'Set it up' }).click()
		await expect(page).toHaveURL(/\/en-us\/dashboard\/profile#two-factor$/)
		await waitForHydration(page)
		await page.locator('#two-factor').getByRole('button', { name: 'Turn on two-step sign-in' }).click()
		const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? ''
		await page.getByLabel('Code from your authenticator app').fill(codeFor(secret))
		await page.getByRole('button', { name: 'Confirm and turn on' }).click()
		await expect(page.getByTestId('recovery-codes')).toBeVisible()
		await page.goto('/en-us/dashboard/contacts')
		await expect(page).toHaveURL(/\/en-us\/dashboard\/contacts$/)
	})
})

test.describe('two-step sign-in, in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('turned on from the profile page, then signing in with a recovery code, which works once', async ({ page, context, request, baseURL }) => {
		const user = await registerUser(request, { locale: 'ar-eg', name: 'ريم' })
		await createWorkspace(request, user.token, 'دعم')
		await signIn(context, baseURL!, user.token)
		await page.goto('/ar-eg/dashboard/profile')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		const section = page.locator('#two-factor')
		await section.getByRole('button', { name: 'تفعيل تسجيل الدخول بخطوتين' }).click()
		await expect(section.getByRole('img', { name: 'رمز QR للمسح بتطبيق مصادقة' })).toBeVisible()
		const secret = (await section.getByTestId('two-factor-secret').textContent()) ?? ''
		// A code in the wrong shape: refused by the action, the set-up still on the page.
		await section.getByLabel('الرمز من تطبيق المصادقة').fill('12345')
		await section.getByRole('button', { name: 'التأكيد والتفعيل' }).click()
		await expect(section.getByText('أدخل الرمز المكوّن من 6 أرقام من تطبيق المصادقة.')).toBeVisible()
		await expect(section.getByTestId('two-factor-secret')).toHaveText(secret)
		await section.getByLabel('الرمز من تطبيق المصادقة').fill(codeFor(secret))
		await section.getByRole('button', { name: 'التأكيد والتفعيل' }).click()
		const recoveryCodes = (await section.getByTestId('recovery-codes').inputValue()).split('\n')
		expect(recoveryCodes).toHaveLength(10)
		await expect(section.getByText('تبقّت 10 رموز استرداد.')).toBeVisible()
		const [code] = recoveryCodes as [string]
		await page.locator('summary', { hasText: 'ريم' }).click()
		await page.getByRole('button', { name: 'تسجيل الخروج', exact: true }).click()

		const signInWith = async (recoveryCode: string) => {
			await page.goto('/ar-eg/auth/login')
			await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
			await page.getByLabel('البريد الإلكتروني', { exact: true }).fill(user.email)
			await page.getByLabel('كلمة المرور', { exact: true }).fill(user.password)
			await page.getByRole('button', { name: 'تسجيل الدخول', exact: true }).click()
			await expect(page).toHaveURL(/\/ar-eg\/auth\/login\?step=two-factor$/)
			await expect(page.getByLabel('الرمز من تطبيق المصادقة')).toHaveAttribute('autocomplete', 'one-time-code')
			await page.getByRole('link', { name: 'استخدام رمز استرداد' }).click()
			await expect(page).toHaveURL(/\/ar-eg\/auth\/login\?step=two-factor&method=recovery$/)
			await page.getByLabel('رمز الاسترداد').fill(recoveryCode)
			await page.getByRole('button', { name: 'تحقّق' }).click()
		}

		await signInWith(code)
		await expect(page).toHaveURL(/\/ar-eg\/dashboard$/)
		await page.locator('summary', { hasText: 'ريم' }).click()
		await page.getByRole('button', { name: 'تسجيل الخروج', exact: true }).click()
		await expect(page).toHaveURL(/\/ar-eg\/auth\/login$/)

		// The same code again: refused beside the field, in Arabic; still on the second step.
		await signInWith(code)
		await expect(page.getByText('رمز الاسترداد هذا غير صالح أو سبق استخدامه.')).toBeVisible()
		await expect(page.getByLabel('رمز الاسترداد')).toBeVisible()
		await page.getByLabel('رمز الاسترداد').fill(recoveryCodes[1]!)
		await page.getByRole('button', { name: 'تحقّق' }).click()
		await expect(page).toHaveURL(/\/ar-eg\/dashboard$/)
	})

	test('an owner turns off the two-step sign-in of an agent who lost their phone, after confirming; the agent is signed out and mailed', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const owner = await registerUser(request, { locale: 'ar-eg', name: 'سلمى' })
		const workspace = await createWorkspace(request, owner.token, 'دعم الهاتف')
		const agent = await registerUser(request, { name: 'Lost Phone Agent' })
		const invitation = (await (
			await request.post(`/v1/workspaces/${workspace.id}/invitations`, {
				headers: { Authorization: `Bearer ${owner.token}` },
				data: { method: 'link', role: 'agent' },
			})
		).json()) as { code: string }
		expect(
			(
				await request.post('/v1/workspaces/invitations/accept', {
					headers: { Authorization: `Bearer ${agent.token}` },
					data: { code: invitation.code, method: 'link' },
				})
			).ok(),
		).toBe(true)
		await turnOnByApi(request, agent.token)

		await signIn(context, baseURL!, owner.token)
		await page.goto('/ar-eg/dashboard/team-members')
		const row = page.locator('tr', { hasText: 'Lost Phone Agent' })
		await expect(row).toContainText('مفعّل')
		await row.getByRole('link', { name: 'هل توقف تسجيل الدخول بخطوتين لـ Lost Phone Agent؟' }).click()
		const dialog = page.getByRole('alertdialog')
		await expect(dialog).toContainText('فقط لمن فقد هاتفه ورموز الاسترداد')
		await dialog.getByRole('button', { name: 'إعادة ضبط تسجيل الدخول بخطوتين' }).click()
		await expect(page.getByText('أُوقف تسجيل الدخول بخطوتين لـ Lost Phone Agent، وأُبلغ بالبريد الإلكتروني')).toBeVisible()
		await expect(page.locator('tr', { hasText: 'Lost Phone Agent' })).toContainText('غير مفعّل')
		expect((await request.get('/v1/auth/profile', { headers: { Authorization: `Bearer ${agent.token}` } })).status()).toBe(401)
		await expect
			.poll(async () => (await readOutbox(process.env.E2E_DATA_DIR!)).filter((mail) => mail.to === agent.email).map((mail) => mail.subject))
			.toContain('Your two-step sign-in was turned off')
	})
})
