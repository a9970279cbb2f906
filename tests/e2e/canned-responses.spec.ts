import crypto from 'node:crypto'
import { type Page } from '@playwright/test'
import { registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'
import { inviteAndAccept } from './realtime-support.ts'
import { expectAccessible } from './accessibility.ts'

const rows = (page: Page) => page.locator('tbody tr')

test('an owner creates and finds canned responses in any language, from the settings menu; a refused one keeps what was typed', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	test.slow()
	const link = await linkChannelOf(request)
	await signIn(context, baseURL!, link.owner.token)

	await page.goto('/en-us/dashboard')
	await page.getByRole('navigation').getByRole('link', { name: 'Canned responses' }).click()
	await expect(page).toHaveURL('/en-us/dashboard/settings/canned-responses')
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1, name: 'Canned responses' })).toBeVisible()
	await expect(page.getByText('No canned responses yet.')).toBeVisible()
	await expectAccessible(page)

	// Created with the `/` typed as in the composer: it is left out.
	const form = page.getByRole('region', { name: 'New canned response' })
	await form.getByLabel('Short code').fill('/thanks')
	await form.getByLabel('Text').fill('Thank you for waiting!\nWe are on it.')
	await form.getByRole('button', { name: 'Create the canned response' }).click()
	await expect(page.getByText('Canned response /thanks created')).toBeVisible()
	await expect(rows(page)).toHaveCount(1)
	await expect(rows(page).first()).toContainText('/thanks')
	await expect(rows(page).first()).toContainText('Thank you for waiting!\nWe are on it.')

	await form.getByLabel('Short code').fill('شكرا')
	await form.getByLabel('Text').fill('شكرًا لانتظارك، سنرد عليك خلال دقائق.')
	await form.getByRole('button', { name: 'Create the canned response' }).click()
	await expect(page.getByText('Canned response /شكرا created')).toBeVisible()
	await expect(rows(page)).toHaveCount(2)
	// Written right to left, whatever the page's direction.
	expect(
		await rows(page)
			.filter({ hasText: 'شكرا' })
			.locator('p')
			.evaluate((element) => getComputedStyle(element).direction),
	).toBe('rtl')

	// The browser checks the word; the API refuses a code the workspace has, in any case: said beside the field, what was typed kept.
	await form.getByLabel('Short code').fill('two words')
	await form.getByLabel('Text').fill('Anything')
	await expect(form.getByLabel('Short code')).toHaveAttribute('aria-invalid', 'true')
	await form.getByLabel('Short code').fill('THANKS')
	await form.getByRole('button', { name: 'Create the canned response' }).click()
	await expect(form.getByText('A canned response with the short code “THANKS” already exists.')).toBeVisible()
	await expect(form.getByLabel('Short code')).toHaveValue('THANKS')
	await expect(form.getByLabel('Text')).toHaveValue('Anything')

	// Search by code or text.
	await page.getByRole('searchbox', { name: 'Search by short code or text' }).fill('دقائق')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page).toHaveURL(/search=/)
	await expect(rows(page)).toHaveCount(1)
	await expect(rows(page).first()).toContainText('/شكرا')
	await page.getByRole('searchbox', { name: 'Search by short code or text' }).fill('refund')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(page.getByText('No canned response matches “refund”.')).toBeVisible()
})

test('an owner edits a canned response and deletes it after confirming', async ({ page, context, request, baseURL }) => {
	const link = await linkChannelOf(request)
	for (const [shortCode, content] of [
		['thanks', 'Thank you for waiting!'],
		['شكرا', 'شكرًا لانتظارك.'],
	]) {
		const created = await request.post(`/v1/workspaces/${link.workspace.id}/canned-responses`, {
			data: { shortCode, content },
			headers: { Authorization: `Bearer ${link.owner.token}` },
		})
		expect(created.status()).toBe(201)
	}
	await signIn(context, baseURL!, link.owner.token)
	await page.goto('/en-us/dashboard/settings/canned-responses')
	await waitForHydration(page)

	await page.getByRole('link', { name: 'Edit /thanks' }).click()
	const editing = page.getByRole('region', { name: 'Edit /thanks' })
	await editing.getByLabel('Text').fill('Thanks for your patience!')
	await editing.getByRole('button', { name: 'Save the canned response' }).click()
	await expect(page.getByText('Canned response /thanks saved')).toBeVisible()
	await expect(rows(page).filter({ hasText: '/thanks' })).toContainText('Thanks for your patience!')

	// Deleting asks first.
	await page.getByRole('link', { name: 'Delete the canned response /thanks?' }).click()
	const dialog = page.getByRole('alertdialog', { name: 'Delete the canned response /thanks?' })
	await expect(dialog).toContainText('Agents will no longer find it in the reply box')
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(rows(page)).toHaveCount(2)
	await page.getByRole('link', { name: 'Delete the canned response /thanks?' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
	await expect(page.getByText('Canned response /thanks deleted')).toBeVisible()
	await expect(rows(page)).toHaveCount(1)
})

test('an agent reads the canned responses with no controls, not even by the URL, and the composer offers them', async ({ page, context, request, baseURL }) => {
	test.slow()
	const link = await linkChannelOf(request)
	const written = await request.post(`/v1/link/${link.slug}/messages`, {
		data: { body: 'Is it in stock?' },
		headers: { 'X-Visitor-Token': crypto.randomBytes(32).toString('base64url') },
	})
	expect(written.ok()).toBe(true)
	const created = await request.post(`/v1/workspaces/${link.workspace.id}/canned-responses`, {
		data: { shortCode: 'شكرا', content: 'شكرًا لانتظارك، سنرد عليك خلال دقائق.' },
		headers: { Authorization: `Bearer ${link.owner.token}` },
	})
	const { id } = (await created.json()) as { id: string }
	const agent = await registerUser(request, { name: 'Alex Agent' })
	await inviteAndAccept(request, link.workspace.id, link.owner.token, agent.token)
	await signIn(context, baseURL!, agent.token)

	await page.goto('/en-us/dashboard')
	await page.getByRole('navigation').getByRole('link', { name: 'Canned responses' }).click()
	await expect(rows(page)).toHaveCount(1)
	await expect(rows(page).first()).toContainText('/شكرا')
	await expect(page.getByText('Only owners and admins can add, change or delete canned responses.')).toBeVisible()
	await expect(page.getByRole('region', { name: 'New canned response' })).toHaveCount(0)
	await expect(page.getByRole('link', { name: /^Edit|^Delete/ })).toHaveCount(0)
	await page.goto(`/en-us/dashboard/settings/canned-responses?delete=${id}&edit=${id}`)
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(page.getByRole('textbox', { name: 'Short code' })).toHaveCount(0)

	await page.goto('/en-us/dashboard/conversations?conversation=1')
	await waitForHydration(page)
	await page.locator('#composer-body').pressSequentially('/شك')
	await expect(page.getByRole('listbox', { name: 'Canned responses' }).getByRole('option')).toHaveCount(1)
	await page.locator('#composer-body').press('Enter')
	await expect(page.locator('#composer-body')).toHaveValue('شكرًا لانتظارك، سنرد عليك خلال دقائق.')
})

test.describe('in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('plain forms create a canned response, refuse a bad one beside its field with the text kept, and delete after confirming', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const link = await linkChannelOf(request, { business: 'متجر النيل' })
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/ar-eg/dashboard/settings/canned-responses')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('heading', { level: 1, name: 'الردود الجاهزة' })).toBeVisible()
		const form = page.getByRole('region', { name: 'رد جاهز جديد' })

		// The action checks what the browser did not: one word.
		await form.getByLabel('الرمز المختصر').fill('كلمتان اثنتان')
		await form.getByLabel('النص').fill('مرحبًا بك في متجر النيل!')
		await form.getByRole('button', { name: 'إنشاء الرد الجاهز' }).click()
		await expect(form.getByText('كلمة واحدة: حروف وأرقام و- و_.')).toBeVisible()
		await expect(form.getByLabel('النص')).toHaveValue('مرحبًا بك في متجر النيل!')

		await form.getByLabel('الرمز المختصر').fill('ترحيب')
		await form.getByRole('button', { name: 'إنشاء الرد الجاهز' }).click()
		await expect(page.getByText('تم إنشاء الرد الجاهز /ترحيب')).toBeVisible()
		await expect(rows(page)).toHaveCount(1)

		// The API's refusal (a code the workspace has) comes back beside the field, in Arabic.
		await page.getByRole('region', { name: 'رد جاهز جديد' }).getByLabel('الرمز المختصر').fill('ترحيب')
		await page.getByRole('region', { name: 'رد جاهز جديد' }).getByLabel('النص').fill('نص آخر')
		await page.getByRole('region', { name: 'رد جاهز جديد' }).getByRole('button', { name: 'إنشاء الرد الجاهز' }).click()
		await expect(page.getByRole('region', { name: 'رد جاهز جديد' }).getByText('يوجد رد جاهز بالرمز المختصر «ترحيب» بالفعل.')).toBeVisible()
		await expect(page.getByRole('region', { name: 'رد جاهز جديد' }).getByLabel('الرمز المختصر')).toHaveAttribute('aria-invalid', 'true')
		await expect(page.getByRole('region', { name: 'رد جاهز جديد' }).getByLabel('النص')).toHaveValue('نص آخر')

		await page.getByRole('link', { name: 'حذف الرد الجاهز /ترحيب؟' }).click()
		await expect(page.getByRole('alertdialog')).toContainText('لن يجده الوكلاء بعد الآن في خانة الرد')
		await page.getByRole('alertdialog').getByRole('button', { name: 'حذف' }).click()
		await expect(page.getByText('تم حذف الرد الجاهز /ترحيب')).toBeVisible()
		await expect(page.getByText('لا توجد ردود جاهزة بعد.')).toBeVisible()
	})
})
