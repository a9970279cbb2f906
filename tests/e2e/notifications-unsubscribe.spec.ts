import { type APIRequestContext } from '@playwright/test'
import { unsubscribeToken } from '#api/notifications/unsubscribe-token.ts'
import { expectAccessible } from './accessibility.ts'
import { createWorkspace, e2eSessionSecret, registerUser } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

const words = {
	'en-us': {
		title: 'Stop notification e-mails',
		kinds: ['A conversation assigned to me', 'A mention in a private note'],
		submit: 'Stop these e-mails',
		done: /Done: you will no longer get these e-mails from/,
		settings: 'Your notification settings',
		invalid: 'This unsubscribe link is not valid. Choose which e-mails you get in your notification settings.',
	},
	'ar-eg': {
		title: 'إيقاف رسائل الإشعارات بالبريد',
		kinds: ['محادثة أُسندت إليّ', 'إشارة إليّ في ملاحظة خاصة'],
		submit: 'أوقف هذه الرسائل',
		done: /تم: لن تصلك هذه الرسائل من/,
		settings: 'إعدادات الإشعارات',
		invalid: 'رابط إلغاء الاشتراك هذا غير صالح. اختر الرسائل التي تصلك من إعدادات الإشعارات.',
	},
} as const

/** A token for a new owner's workspace, signed as the server signs a mail's links. */
async function newLink(request: APIRequestContext, locale: Locale, secret = e2eSessionSecret) {
	const owner = await registerUser(request, { locale })
	const workspace = await createWorkspace(request, owner.token, locale === 'ar-eg' ? 'دعم Acme' : 'Acme Support')
	const token = unsubscribeToken(secret, { userId: owner.user.id, workspaceId: workspace.id, kinds: ['assigned', 'mentioned'] })
	return { workspace, address: `/${locale}/notifications/unsubscribe?token=${encodeURIComponent(token)}` }
}

type Locale = keyof typeof words

// The page a mail's "stop these e-mails" link opens: no sign-in, a plain form, so no JavaScript either.
test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	for (const locale of ['en-us', 'ar-eg'] as const) {
		const w = words[locale]
		test(`a mail's link shows what it turns off, and its button turns it off (${locale}, no JavaScript)`, async ({ page, request }) => {
			const { workspace, address } = await newLink(request, locale)
			const response = await page.goto(address)
			expect(response?.status()).toBe(200)
			await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar-eg' ? 'rtl' : 'ltr')
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(w.title)
			await expect(page.locator('bdi', { hasText: workspace.name })).toBeVisible()
			await expect(page.getByRole('listitem')).toHaveText([...w.kinds])

			await page.getByRole('button', { name: w.submit }).click()
			await expect(page.getByRole('status')).toHaveText(w.done)
			await expect(page.getByRole('button', { name: w.submit })).toHaveCount(0)
			await expect(page.getByRole('link', { name: w.settings })).toHaveAttribute('href', `/${locale}/dashboard/notifications/settings`)
		})

		test(`a forged link says so beside a way to the settings (${locale}, no JavaScript)`, async ({ page, request }) => {
			const { address } = await newLink(request, locale, 'not-the-server-secret-0123456789abcdef')
			const response = await page.goto(address)
			expect(response?.status()).toBe(400)
			await expect(page.getByRole('alert')).toHaveText(w.invalid)
			await expect(page.getByRole('button', { name: w.submit })).toHaveCount(0)
			await expect(page.getByRole('link', { name: w.settings })).toBeVisible()
		})
	}
})

// axe runs in the page: with JavaScript, on the page before and after the click, and on a refused link.
test.describe('accessibility', () => {
	for (const locale of ['en-us', 'ar-eg'] as const) {
		test(`the unsubscribe page, asked, done and refused, passes axe (${locale})`, async ({ page, request }) => {
			const w = words[locale]
			const { address } = await newLink(request, locale)
			await page.goto(address)
			await waitForHydration(page)
			await expectAccessible(page)
			await page.getByRole('button', { name: w.submit }).click()
			await expect(page.getByRole('status')).toHaveText(w.done)
			await expectAccessible(page)
			await page.goto((await newLink(request, locale, 'not-the-server-secret-0123456789abcdef')).address)
			await expect(page.getByRole('alert')).toHaveText(w.invalid)
			await expectAccessible(page)
		})
	}
})
