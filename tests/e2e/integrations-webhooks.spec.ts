import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test } from './fixtures.ts'

// The e2e server guards outgoing addresses as production does (no WEBHOOK_ALLOW_PRIVATE): loopback is refused,
// and an address on the Internet that this machine cannot reach takes the test event and keeps it waiting for its retry.
// Signatures, retries and their order are the API tests' (tests/api/outgoing-webhooks.test.ts), against a verifying receiver.
const unreachable = 'https://[2001:db9::1]/hooks/orders'

test.describe('outgoing webhooks, in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('an owner adds a webhook, sees its secret once, sends a test event and the delivery log shows it', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { locale: 'ar-eg', name: 'سارة' })
		await createWorkspace(request, owner.token, 'متجر النيل')
		await signIn(context, baseURL!, owner.token)

		await page.goto('/ar-eg/dashboard/settings/integrations/webhooks')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('heading', { level: 1, name: 'خطافات الويب' })).toBeVisible()
		await expect(page.getByText('لا توجد خطافات ويب بعد.')).toBeVisible()

		const form = page.getByRole('region', { name: 'إضافة خطاف ويب' })
		// A loopback address is refused beside its field, and what was typed and ticked stays.
		await form.getByLabel('العنوان (https)').fill('https://127.0.0.1/hooks/orders')
		await form.getByRole('checkbox', { name: 'تغيّر حالة محادثة' }).check()
		await form.getByRole('button', { name: 'إضافة خطاف الويب' }).click()
		await expect(page.getByText('هذا العنوان على شبكة خاصة: لا تُرسَل خطافات الويب إلا إلى عناوين على الإنترنت.')).toBeVisible()
		await expect(form.getByLabel('العنوان (https)')).toHaveValue('https://127.0.0.1/hooks/orders')
		await expect(form.getByRole('checkbox', { name: 'تغيّر حالة محادثة' })).toBeChecked()

		// No event ticked: refused too.
		await form.getByLabel('العنوان (https)').fill(unreachable)
		await form.getByRole('checkbox', { name: 'تغيّر حالة محادثة' }).uncheck()
		await form.getByRole('button', { name: 'إضافة خطاف الويب' }).click()
		await expect(page.getByText('اختر حدثًا واحدًا على الأقل.')).toBeVisible()

		await form.getByLabel('العنوان (https)').fill(unreachable)
		await form.getByRole('checkbox', { name: 'تغيّر حالة محادثة' }).check()
		await form.getByRole('checkbox', { name: 'إنشاء رسالة' }).check()
		await form.getByRole('button', { name: 'إضافة خطاف الويب' }).click()
		const secret = page.getByTestId('webhook-secret')
		await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/)
		const firstSecret = (await secret.textContent())!
		await expect(page.getByRole('row', { name: /2001:db9::1/ })).toContainText('مفعّل')

		// Shown once: the list does not show it again.
		await page.goto('/ar-eg/dashboard/settings/integrations/webhooks')
		await expect(page.getByTestId('webhook-secret')).toHaveCount(0)
		await page.getByRole('link', { name: unreachable }).click()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(unreachable)
		await expect(page.getByText('لم يُرسَل شيء بعد.')).toBeVisible()

		await page.getByRole('button', { name: 'إرسال حدث تجريبي' }).click()
		await expect(page.getByText('الحدث التجريبي في طريقه: سيظهر في السجل أدناه.')).toBeVisible()
		const row = page.getByTestId('webhook-delivery')
		await expect(row).toHaveCount(1)
		await expect(row).toContainText('حدث تجريبي')
		// Its first try is made at once; until the address answers, it waits for the next.
		await expect(async () => {
			await page.reload()
			await expect(page.getByTestId('webhook-delivery')).toContainText('المحاولة التالية')
		}).toPass({ timeout: 20_000 })
		await expect(page.getByTestId('webhook-delivery').locator('pre').first()).toContainText('"type":"webhook.test"')

		// A new secret, shown once.
		await page.getByRole('button', { name: 'تجديد السر' }).click()
		await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/)
		await expect(page.getByTestId('webhook-secret')).not.toHaveText(firstSecret)

		// The settings: turned off.
		const settings = page.getByRole('region', { name: 'الإعدادات' })
		await settings.getByRole('switch', { name: 'مفعّل' }).uncheck()
		await settings.getByRole('button', { name: 'حفظ' }).click()
		await expect(page.getByText('تم حفظ خطاف الويب.')).toBeVisible()
		await expect(settings.getByRole('switch', { name: 'مفعّل' })).not.toBeChecked()
		await expect(page.locator('p').filter({ hasText: /^متوقف$/ })).toBeVisible()
	})
})
