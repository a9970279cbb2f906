import { createWorkspace, freshIp, registerUser, signIn } from './accounts.ts'
import { drawnCharacters } from './bidi-support.ts'
import { expect, test } from './fixtures.ts'

// Where a user is signed in, on the profile page, in Arabic and without JavaScript: the plain forms do it all.
test.describe('active sessions, in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('the profile lists this device and another, signs the other out after a confirmation, and its token stops working', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const user = await registerUser(request, { locale: 'ar-eg' })
		await createWorkspace(request, user.token)
		// A second sign-in, from a phone elsewhere.
		const phoneIp = freshIp()
		const phone = await request.post('/v1/auth/login', {
			data: { email: user.email, password: user.password },
			headers: {
				'X-Forwarded-For': phoneIp,
				'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
			},
		})
		expect(phone.ok()).toBe(true)
		const phoneToken = ((await phone.json()) as { access_token: string }).access_token
		await signIn(context, baseURL!, user.token)

		await page.goto('/ar-eg/dashboard/profile')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		const sessions = page.getByTestId('session')
		// Two: the session registering opened (this browser) and the phone’s.
		await expect(sessions).toHaveCount(2)
		await expect(sessions.filter({ hasText: 'هذا الجهاز' })).toHaveCount(1)
		const other = sessions.filter({ hasText: /Safari/ })
		await expect(other).toContainText(/iOS/)
		// Right to left in Arabic: the browser and system, then the separator, then the address, each in its own order.
		const drawn = await drawnCharacters(other.locator('div').first())
		const text = drawn.map((each) => each.char).join('')
		const ipAt = text.indexOf(phoneIp)
		const separator = drawn[text.lastIndexOf('·', ipAt)]!
		const address = drawn.slice(ipAt, ipAt + phoneIp.length)
		const device = drawn.slice(0, text.lastIndexOf('·', ipAt)).filter((each) => each.char.trim())
		expect(Math.max(...address.map((each) => each.right))).toBeLessThanOrEqual(separator.left + 0.5)
		expect(separator.right).toBeLessThanOrEqual(Math.min(...device.map((each) => each.left)) + 0.5)
		expect(address.map((each) => each.left)).toEqual([...address.map((each) => each.left)].sort((a, b) => a - b))
		// The dates, in the sentence that says which is which, each isolated from it.
		await expect(other.locator('div div bdi')).toHaveCount(2)

		await other.getByRole('link', { name: 'تسجيل الخروج' }).click()
		await expect(page.getByText('سيحتاج ذلك الجهاز إلى تسجيل الدخول مرة أخرى.')).toBeVisible()
		await page.getByRole('button', { name: 'تسجيل الخروج' }).click()
		await expect(sessions).toHaveCount(1)
		await expect(sessions).toContainText('هذا الجهاز')
		expect((await request.get('/v1/auth/profile', { headers: { Authorization: `Bearer ${phoneToken}` } })).status()).toBe(401)
		// This browser is still signed in.
		await page.reload()
		await expect(page).toHaveURL(/\/ar-eg\/dashboard\/profile$/)
	})
})
