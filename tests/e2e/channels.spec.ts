import { type Page } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'
import { inviteAndAccept } from './realtime-support.ts'
import { expectAccessible } from './accessibility.ts'

const rows = (page: Page) => page.locator('tbody tr')
const uniqueSlug = () => `shop-${Math.random().toString(36).slice(2, 10)}`

test('an admin creates a link channel, edits it, switches it off and deletes it; the list shows its address', async ({ page, context, request, baseURL }) => {
	test.slow()
	const owner = await registerUser(request)
	await createWorkspace(request, owner.token, 'Channels Co')
	await signIn(context, baseURL!, owner.token)
	// A slug another workspace already has.
	const other = await linkChannelOf(request)

	await page.goto('/en-us/dashboard/settings/channels')
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible()
	await expect(page.getByText('No channels yet.')).toBeVisible()
	await expect(page.getByRole('navigation').getByRole('link', { name: 'Channels' })).toHaveAttribute('aria-current', 'page')
	await page.getByRole('link', { name: 'New channel' }).click()

	await expect(page).toHaveURL('/en-us/dashboard/settings/channels/create')
	await waitForHydration(page)
	// The kind first: seven links (the API channel of issue 33 too), each with a word, and no form yet.
	const kinds = page.getByRole('region', { name: 'Choose a kind' }).getByRole('link')
	await expect(kinds).toHaveCount(7)
	await expect(kinds.filter({ hasText: 'Instagram direct messages.' })).toHaveAttribute('href', '/en-us/dashboard/settings/channels/create?kind=instagram')
	await expect(page.locator('main section form')).toHaveCount(0)
	await expectAccessible(page)
	await kinds.filter({ hasText: 'Chat link' }).click()
	await expect(page).toHaveURL('/en-us/dashboard/settings/channels/create?kind=link')
	await expect(page.locator('main section form')).toHaveCount(1)

	await page.locator('#link-form').getByLabel('Name', { exact: true }).fill('Website chat')
	await page.getByLabel('Address', { exact: true }).fill(other.slug)
	await page.getByLabel('Greeting', { exact: true }).fill('Hello! How can we help?')
	await page.getByLabel("Ask for the visitor's name before the chat").check()
	await page.getByRole('button', { name: 'Create the channel' }).click()
	await expect(page.getByText(`The address “${other.slug}” is already taken. Choose another one.`)).toBeVisible()
	await expect(page.getByLabel('Greeting', { exact: true })).toHaveValue('Hello! How can we help?')

	const slug = uniqueSlug()
	await page.getByLabel('Address', { exact: true }).fill(slug)
	await page.getByRole('button', { name: 'Create the channel' }).click()
	await expect(page.getByText('Channel Website chat created')).toBeVisible()
	await expect(rows(page)).toHaveCount(1)
	const address = `${baseURL}/en-us/c/${slug}`
	await expect(rows(page).first()).toContainText('Chat link')
	await expect(rows(page).first()).toContainText('Active')
	await expect(rows(page).first().getByRole('link', { name: address })).toHaveAttribute('href', address)
	await context.grantPermissions(['clipboard-read', 'clipboard-write'])
	await page.getByRole('button', { name: 'Copy the address of Website chat' }).click()
	await expect(page.getByRole('button', { name: 'Copy the address of Website chat' })).toContainText('Copied')
	expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address)
	// Without the toast, whose entrance animation axe would catch half-transparent.
	await page.reload()
	await expectAccessible(page)

	// The page it leads to greets visitors as set.
	const visitor = await page.context().browser()!.newContext()
	const visitorPage = await visitor.newPage()
	await visitorPage.goto(address)
	await expect(visitorPage.getByText('Hello! How can we help?')).toBeVisible()
	await expect(visitorPage.getByLabel('Your name')).toBeVisible()

	await page.getByRole('link', { name: 'Edit Website chat' }).click()
	await waitForHydration(page)
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Website chat')
	await expect(page.getByRole('textbox', { name: 'Embed it on your site' })).toHaveValue(new RegExp(address))
	await page.getByLabel(/^Enabled/).uncheck()
	await page.getByRole('button', { name: 'Save the channel' }).click()
	await expect(page.getByText('Channel Website chat saved')).toBeVisible()
	await expect(rows(page).first()).toContainText('Switched off')
	expect((await visitorPage.goto(address))?.status()).toBe(404)
	await visitor.close()

	await page.getByRole('link', { name: 'Delete the channel Website chat?' }).click()
	await page.getByRole('button', { name: 'Delete' }).click()
	await expect(page.getByText('Channel Website chat deleted')).toBeVisible()
	await expect(page.getByText('No channels yet.')).toBeVisible()
})

test('in Arabic: the owner creates a channel; an agent reads the list without changing it', async ({ page, context, browser, request, baseURL }) => {
	test.slow()
	const owner = await registerUser(request, { locale: 'ar-eg' })
	const workspace = await createWorkspace(request, owner.token, 'شركة النيل')
	const agent = await registerUser(request, { locale: 'ar-eg' })
	await inviteAndAccept(request, workspace.id, owner.token, agent.token)
	await signIn(context, baseURL!, owner.token)

	await page.goto('/ar-eg/dashboard/settings/channels/create?kind=link')
	await waitForHydration(page)
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await expect(page.getByRole('heading', { level: 1, name: 'إنشاء قناة' })).toBeVisible()
	await page.locator('#link-form').getByLabel('الاسم', { exact: true }).fill('دردشة الموقع')
	await page.getByRole('button', { name: 'أنشئ القناة' }).click()
	await expect(page.getByText('تم إنشاء القناة دردشة الموقع')).toBeVisible()
	await expect(rows(page).first()).toContainText('رابط الدردشة')
	await expect(rows(page).first()).toContainText('مفعّلة')
	await expect(
		rows(page)
			.first()
			.getByRole('link', { name: new RegExp(`/ar-eg/c/chat-[0-9a-f]{6}$`) }),
	).toBeVisible()
	await page.reload()
	await expectAccessible(page)

	const agentContext = await browser.newContext()
	await signIn(agentContext, baseURL!, agent.token)
	const agentPage = await agentContext.newPage()
	await agentPage.goto('/ar-eg/dashboard/settings/channels')
	await expect(agentPage.getByText('يمكن للمالكين والمشرفين فقط إضافة القنوات أو تغييرها.')).toBeVisible()
	await expect(agentPage.locator('tbody tr')).toHaveCount(1)
	await expect(agentPage.getByRole('link', { name: 'قناة جديدة' })).toHaveCount(0)
	await expect(agentPage.getByRole('link', { name: /تعديل/ })).toHaveCount(0)
	await agentPage.goto('/ar-eg/dashboard/settings/channels/create')
	await expect(agentPage).toHaveURL('/ar-eg/dashboard/settings/channels')
	await agentContext.close()
})
