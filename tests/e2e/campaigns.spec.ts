import AxeBuilder from '@axe-core/playwright'
import { type APIRequestContext, type Page } from '@playwright/test'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { telegramFakePort } from '../../playwright.config.ts'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// The e2e server reaches Telegram at this fake's fixed port: one worker runs these tests, one after another.
test.describe.configure({ mode: 'serial' })

let fake: TelegramFake
test.beforeAll(async () => {
	fake = await startTelegramFake(telegramFakePort)
})
test.afterAll(async () => {
	await fake.close()
})

let nextChat = 915_000_001

/**
 * A workspace with a Telegram channel and customers who wrote to it (so they have an identity
 * there): `labelled` of them carry a label "vip", the others none.
 */
async function workspaceWithCustomers(request: APIRequestContext, baseURL: string, token: string, name: string, customers: Array<{ name: string; vip: boolean }>) {
	const workspace = await createWorkspace(request, token, name)
	const auth = { Authorization: `Bearer ${token}` }
	const bot = fake.addBot()
	const channel = await request.post(`/v1/workspaces/${workspace.id}/channels`, { data: { kind: 'telegram', name: 'Telegram news', credentials: { botToken: bot.token } }, headers: auth })
	expect(channel.status()).toBe(201)
	const label = await request.post(`/v1/workspaces/${workspace.id}/labels`, { data: { title: 'vip', color: '#aa3355' }, headers: auth })
	const labelId = ((await label.json()) as { id: string }).id
	const chats: number[] = []
	for (const customer of customers) {
		const chat = nextChat++
		chats.push(chat)
		const [firstName, lastName] = customer.name.split(' ')
		expect((await fake.postUpdate(bot.token, textUpdate({ id: chat, firstName: firstName!, lastName }, 'Hello'), { origin: baseURL })).status).toBe(200)
	}
	// The webhooks are jobs: wait for every contact, then label the VIPs.
	await expect
		.poll(async () => ((await (await request.get(`/v1/workspaces/${workspace.id}/contacts?limit=100`, { headers: auth })).json()) as { contacts: unknown[] }).contacts.length)
		.toBe(customers.length)
	const { contacts } = (await (await request.get(`/v1/workspaces/${workspace.id}/contacts?limit=100`, { headers: auth })).json()) as { contacts: Array<{ id: string; name: string }> }
	for (const contact of contacts) {
		if (customers.find((customer) => customer.name === contact.name)?.vip) {
			expect((await request.patch(`/v1/workspaces/${workspace.id}/contacts/${contact.id}`, { data: { labelIds: [labelId] }, headers: auth })).status()).toBe(200)
		}
	}
	return { workspace, bot, chats }
}

const sentTexts = (token: string) => fake.received.filter((received) => received.path === `/bot${token}/sendMessage`).map((received) => received.body as { chat_id: string; text: string })

async function noSeriousViolation(page: Page) {
	const results = await new AxeBuilder({ page }).include('main').analyze()
	expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([])
}

test('an admin builds a campaign for a label and runs it against Telegram: each VIP receives it once', async ({ page, context, request, baseURL }) => {
	test.slow()
	const owner = await registerUser(request)
	const { bot, chats } = await workspaceWithCustomers(request, baseURL!, owner.token, 'Campaign Co', [
		{ name: 'Amira Fathy', vip: true },
		{ name: 'Bruno Lemaire', vip: true },
		{ name: 'Chen Wei', vip: false },
	])
	await signIn(context, baseURL!, owner.token)

	await page.goto('/en-us/dashboard')
	await page.getByRole('link', { name: 'Campaigns' }).click()
	await expect(page).toHaveURL('/en-us/dashboard/campaign-manager')
	await waitForHydration(page)
	await page.getByRole('link', { name: 'New campaign' }).click()
	await page.getByLabel('Name', { exact: true }).fill('VIP preview night')
	await page.getByRole('group', { name: 'Contacts with any of these labels (none: everyone)', exact: true }).getByLabel('vip').check()
	await page.getByRole('button', { name: 'Count the audience' }).click()
	await expect(page.getByRole('status').filter({ hasText: '2 contacts will receive it' })).toContainText('Amira Fathy')
	// What was typed is kept through the count.
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('VIP preview night')
	await page.getByLabel('Message', { exact: true }).fill('Hi {{name}}, you are invited to {{company | our}} preview night.')
	await noSeriousViolation(page)
	await page.getByRole('button', { name: 'Create the campaign' }).click()
	await expect(page.getByText('Campaign VIP preview night created')).toBeVisible()
	await expect(page.getByText('Hi Amira Fathy, you are invited to our preview night.')).toBeVisible()

	await page.getByRole('button', { name: 'Start now' }).click()
	await expect(page.getByRole('heading', { name: 'VIP preview night — Completed' })).toBeVisible({ timeout: 15_000 })
	await expect(page.locator('[data-total="sent"]')).toHaveText('2')
	const sent = sentTexts(bot.token).filter((body) => body.text.includes('preview night'))
	expect(sent.map((body) => body.chat_id).sort()).toEqual([String(chats[0]), String(chats[1])])
	await noSeriousViolation(page)

	// Amira answers: the campaign page counts it live, and her answer is in the inbox after the campaign's message.
	expect((await fake.postUpdate(bot.token, textUpdate({ id: chats[0]!, firstName: 'Amira', lastName: 'Fathy' }, 'Count me in!'), { origin: baseURL })).status).toBe(200)
	await expect(page.locator('[data-total="replied"]')).toHaveText('1')
	const campaignPage = page.url()
	await page.goto('/en-us/dashboard/conversations')
	const row = page.locator('[data-pane="list"] li[data-conversation]').filter({ hasText: 'Amira Fathy' })
	await expect(row).toContainText('Count me in!')
	await row.getByRole('link').click()
	await expect(page.getByRole('article').filter({ hasText: 'you are invited to our preview night' })).toBeVisible()
	await expect(page.getByRole('article').filter({ hasText: 'Count me in!' })).toBeVisible()
	await page.goto(campaignPage)

	// Filter the recipients; cancel is offered no more (the campaign is over).
	await page.getByLabel('Show').selectOption('replied')
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page).toHaveURL(/status=replied/)
	const recipients = page.getByRole('table', { name: 'Recipients' })
	await expect(recipients.locator('tbody tr')).toHaveCount(1)
	await expect(recipients).toContainText('Amira Fathy')
	await expect(page.getByRole('link', { name: 'Cancel the campaign' })).toHaveCount(0)
})

test.describe('without JavaScript, in Arabic', () => {
	test.use({ javaScriptEnabled: false })

	test('an owner creates and starts a campaign; the page is right to left', async ({ page, context, request, baseURL }) => {
		test.slow()
		const owner = await registerUser(request, { locale: 'ar-eg' })
		const { bot, chats } = await workspaceWithCustomers(request, baseURL!, owner.token, 'شركة الحملات', [
			{ name: 'Hoda Sami', vip: true },
			{ name: 'Karim Adel', vip: false },
		])
		await signIn(context, baseURL!, owner.token)
		await page.goto('/ar-eg/dashboard/campaign-manager?new')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await page.getByLabel('الاسم', { exact: true }).fill('عرض رمضان')
		await page.getByRole('group', { name: 'جهات الاتصال التي لها إحدى هذه التسميات (بلا تسمية: الجميع)', exact: true }).getByLabel('vip').check()
		await page.getByLabel('الرسالة', { exact: true }).fill('أهلًا {{name}}')
		await page.getByRole('button', { name: 'أنشئ الحملة' }).click()
		await expect(page.getByText('أُنشئت الحملة عرض رمضان')).toBeVisible()
		await page.getByRole('button', { name: 'ابدأ الآن' }).click()
		await expect.poll(() => sentTexts(bot.token).map((body) => body.chat_id)).toEqual([String(chats[0])])
		// Without JavaScript nothing is live: reloaded until the batch that sent it has also marked it completed.
		await expect
			.poll(async () => {
				await page.reload()
				return page.getByRole('heading', { name: 'عرض رمضان — مكتملة' }).count()
			})
			.toBe(1)
		expect(sentTexts(bot.token)[0]!.text).toBe('أهلًا Hoda Sami')
	})
})
