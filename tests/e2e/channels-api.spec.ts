import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test } from './fixtures.ts'

// Public addresses written as IP literals: checked as reachable without a name to resolve (the server allows no private one here).
const refusedCallback = 'http://8.8.8.8/crm-hooks'
const callback = 'https://8.8.8.8/crm-hooks'
const movedCallback = 'https://8.8.4.4/crm-hooks'

test.describe('in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('an owner creates an API channel, refused beside the callback with the name kept, sees its secret once, then moves its callback', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		test.slow()
		const owner = await registerUser(request, { locale: 'ar-eg' })
		const workspace = await createWorkspace(request, owner.token, 'متجر النيل')
		await signIn(context, baseURL!, owner.token)

		await page.goto('/ar-eg/dashboard/settings/channels/create')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await page.getByRole('link', { name: /واجهة برمجية \(API\)/ }).click()
		await expect(page).toHaveURL('/ar-eg/dashboard/settings/channels/create?kind=api')

		const form = page.locator('#api-form')
		await form.getByLabel('الاسم', { exact: true }).fill('دردشة المتجر')
		await form.getByLabel('عنوان رد الاتصال', { exact: true }).fill(refusedCallback)
		await form.getByRole('button', { name: 'إنشاء القناة' }).click()
		// The API's refusal, in Arabic, beside the field; what was typed stays.
		await expect(form.getByText('يجب أن يكون عنوان رد الاتصال عنوانًا يبدأ بـ https://.')).toBeVisible()
		await expect(form.getByLabel('عنوان رد الاتصال', { exact: true })).toHaveAttribute('aria-invalid', 'true')
		await expect(form.getByLabel('الاسم', { exact: true })).toHaveValue('دردشة المتجر')
		await expect(form.getByLabel('عنوان رد الاتصال', { exact: true })).toHaveValue(refusedCallback)

		await form.getByLabel('عنوان رد الاتصال', { exact: true }).fill(callback)
		await form.getByRole('button', { name: 'إنشاء القناة' }).click()
		await expect(page.getByText('تم إنشاء قناة الواجهة البرمجية.')).toBeVisible()
		const secret = page.getByLabel('سر التوقيع', { exact: true })
		await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9+/]+=*$/)
		await expect(secret).toHaveAttribute('dir', 'ltr')
		const shown = await secret.inputValue()

		await page.getByRole('link', { name: 'فتح إعدادات القناة' }).click()
		await expect(page).toHaveURL(/\/ar-eg\/dashboard\/settings\/channels\/[0-9a-f-]{36}$/)
		const channelId = page.url().split('/').pop()!
		// Where the integration posts, and the callback; the secret is never shown again.
		await expect(page.getByLabel('عنوان الرسائل', { exact: true })).toHaveValue(`${baseURL}/v1/workspaces/${workspace.id}/channels/${channelId}/messages`)
		await expect(page.getByLabel('عنوان رد الاتصال', { exact: true })).toHaveValue(callback)
		expect(await page.content()).not.toContain(shown)

		const callbackForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'حفظ عنوان رد الاتصال' }) })
		await callbackForm.getByLabel('عنوان رد الاتصال', { exact: true }).fill('https://10.0.0.8/hooks')
		await callbackForm.getByRole('button', { name: 'حفظ عنوان رد الاتصال' }).click()
		await expect(callbackForm.getByText('يؤدي عنوان رد الاتصال هذا إلى شبكة خاصة أو محلية، وهذا غير مسموح.')).toBeVisible()
		await expect(callbackForm.getByLabel('عنوان رد الاتصال', { exact: true })).toHaveValue('https://10.0.0.8/hooks')

		await callbackForm.getByLabel('عنوان رد الاتصال', { exact: true }).fill(movedCallback)
		await callbackForm.getByRole('button', { name: 'حفظ عنوان رد الاتصال' }).click()
		await expect(page.getByText('تم حفظ عنوان رد الاتصال لـ «دردشة المتجر».')).toBeVisible()
		await expect(page.getByLabel('عنوان رد الاتصال', { exact: true })).toHaveValue(movedCallback)

		// A new callback secret, shown once with the webhooks' words; the old one signs beside it for a day.
		await page.getByRole('button', { name: 'تجديد السر' }).click()
		const rolled = page.getByTestId('webhook-secret')
		await expect(rolled).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/)
		expect(await rolled.textContent()).not.toBe(shown)
		await expect(page.getByRole('status').filter({ has: page.getByRole('heading', { name: 'سر التوقيع' }) })).toContainText('يُوقَّع كل طلب بالسر القديم أيضًا')
		const fresh = (await rolled.textContent())!
		// Read afresh (a reload would post again).
		await page.goto(page.url())
		await expect(page.getByTestId('webhook-secret')).toHaveCount(0)
		expect(await page.content()).not.toContain(fresh)

		// The list names its kind.
		await page.goto('/ar-eg/dashboard/settings/channels')
		await expect(page.locator('tbody tr').filter({ hasText: 'دردشة المتجر' })).toContainText('واجهة برمجية (API)')
	})
})
