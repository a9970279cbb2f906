import { type APIRequestContext } from '@playwright/test'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { telegramFakePort } from '../../playwright.config.ts'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { isSameDocument, markDocument } from './realtime-support.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { expectAccessible } from './accessibility.ts'

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
async function workspaceWithCustomers(
	request: APIRequestContext,
	baseURL: string,
	token: string,
	name: string,
	customers: Array<{ name: string; vip: boolean }>,
) {
	const workspace = await createWorkspace(request, token, name)
	const auth = { Authorization: `Bearer ${token}` }
	const bot = fake.addBot()
	const channel = await request.post(`/v1/workspaces/${workspace.id}/channels`, {
		data: { kind: 'telegram', name: 'Telegram news', credentials: { botToken: bot.token } },
		headers: auth,
	})
	expect(channel.status()).toBe(201)
	const channelId = ((await channel.json()) as { id: string }).id
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
		.poll(
			async () =>
				((await (await request.get(`/v1/workspaces/${workspace.id}/contacts?limit=100`, { headers: auth })).json()) as { contacts: unknown[] }).contacts.length,
		)
		.toBe(customers.length)
	const { contacts } = (await (await request.get(`/v1/workspaces/${workspace.id}/contacts?limit=100`, { headers: auth })).json()) as {
		contacts: Array<{ id: string; name: string }>
	}
	for (const contact of contacts) {
		if (customers.find((customer) => customer.name === contact.name)?.vip) {
			expect((await request.patch(`/v1/workspaces/${workspace.id}/contacts/${contact.id}`, { data: { labelIds: [labelId] }, headers: auth })).status()).toBe(
				200,
			)
		}
	}
	return { workspace, bot, chats, channelId, contacts }
}

/** A member of the workspace with the admin role, invited by its owner and signed up through the API. */
async function addAdmin(request: APIRequestContext, workspaceId: string, ownerToken: string) {
	const admin = await registerUser(request)
	const invited = await request.post(`/v1/workspaces/${workspaceId}/invitations`, {
		data: { method: 'link', role: 'admin' },
		headers: { Authorization: `Bearer ${ownerToken}` },
	})
	expect(invited.ok()).toBe(true)
	const { code } = (await invited.json()) as { code: string }
	const accepted = await request.post('/v1/workspaces/invitations/accept', {
		data: { code, method: 'link' },
		headers: { Authorization: `Bearer ${admin.token}` },
	})
	expect(accepted.ok()).toBe(true)
	return admin
}

/**
 * The first whole minute at least 40 s from now (the steps between choosing it and the check that it
 * is still ahead take about 15), as a `datetime-local` of the workspace's time zone reads it (minutes
 * are the form's granularity): the campaign starts 40 to 100 seconds later.
 */
function aMinuteAhead(timeZone: string) {
	const at = new Date(Math.ceil((Date.now() + 40_000) / 60_000) * 60_000)
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
			.formatToParts(at)
			.map((part) => [part.type, part.value]),
	)
	return { value: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`, at }
}

const sentTexts = (token: string) =>
	fake.received.filter((received) => received.path === `/bot${token}/sendMessage`).map((received) => received.body as { chat_id: string; text: string })

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
	await expectAccessible(page, 'main')
	await page.getByRole('button', { name: 'Create the campaign' }).click()
	await expect(page.getByText('Campaign VIP preview night created')).toBeVisible()
	await expect(page.getByText('Hi Amira Fathy, you are invited to our preview night.')).toBeVisible()
	// The draft reaches whom the form counted, on its page and in the list.
	await expect(page.locator('[data-audience]')).toHaveText('2 contacts will receive it')
	const listed = page.getByRole('table', { name: 'Campaign manager' }).getByRole('row', { name: /VIP preview night/ })
	await expect(listed.getByRole('cell').nth(3)).toHaveText('2')
	await expect(listed).toContainText('0 of 2')

	// Starting asks first, with the count; going back sends nothing.
	await page.getByRole('link', { name: 'Start now' }).click()
	const confirm = page.getByRole('alertdialog', { name: 'Send to 2 contacts now?' })
	await expect(confirm).toContainText('A message sent cannot be taken back')
	await confirm.getByRole('link', { name: 'Cancel' }).click()
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(page.getByRole('heading', { name: 'VIP preview night — Draft' })).toBeVisible()
	expect(sentTexts(bot.token).filter((body) => body.text.includes('preview night'))).toEqual([])
	await page.getByRole('link', { name: 'Start now' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Send now' }).click()
	await expect(page.getByRole('heading', { name: 'VIP preview night — Completed' })).toBeVisible({ timeout: 15_000 })
	await expect(page.locator('[data-total="sent"]')).toHaveText('2')
	const sent = sentTexts(bot.token).filter((body) => body.text.includes('preview night'))
	expect(sent.map((body) => body.chat_id).sort()).toEqual([String(chats[0]), String(chats[1])])
	await expectAccessible(page, 'main')

	// Amira answers: the campaign page counts it live, and her answer is in the inbox after the campaign's message.
	expect(
		(await fake.postUpdate(bot.token, textUpdate({ id: chats[0]!, firstName: 'Amira', lastName: 'Fathy' }, 'Count me in!'), { origin: baseURL })).status,
	).toBe(200)
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

test('an admin schedules a campaign a minute ahead and watches it run live; a recipient’s reply reaches the inbox', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	// The campaign waits for its minute: 40 to 100 seconds.
	test.setTimeout(240_000)
	const owner = await registerUser(request)
	const { workspace, bot, chats, channelId } = await workspaceWithCustomers(request, baseURL!, owner.token, 'Scheduled Co', [
		{ name: 'Amira Fathy', vip: true },
		{ name: 'Bruno Lemaire', vip: true },
		{ name: 'Chen Wei', vip: false },
	])
	const admin = await addAdmin(request, workspace.id, owner.token)
	await signIn(context, baseURL!, admin.token)

	// The channel's campaign rate: refused out of its range (by the server too, past the browser's own check), then one a second.
	await page.goto(`/en-us/dashboard/settings/channels/${channelId}`)
	await waitForHydration(page)
	const rate = page.getByLabel('Campaign rate (messages a second)')
	await expect(rate).toHaveAttribute('placeholder', '30')
	await rate.evaluate((input: HTMLInputElement) => (input.form!.noValidate = true))
	await rate.fill('1001')
	await page.getByRole('button', { name: 'Save the rate' }).click()
	await expect(page.getByText('A whole number from 1 to 1000, or empty for the default.')).toBeVisible()
	await expect(rate).toHaveValue('1001')
	await rate.fill('1')
	await page.getByRole('button', { name: 'Save the rate' }).click()
	await expect(page.getByText('Campaign rate of Telegram news saved')).toBeVisible()
	await expect(page.getByLabel('Campaign rate (messages a second)')).toHaveValue('1')

	// The audience is counted as the labels change, with no button pressed.
	await page.goto('/en-us/dashboard/campaign-manager?new')
	await waitForHydration(page)
	const count = page.getByRole('status').filter({ hasText: 'will receive it' })
	await expect(count).toContainText('3 contacts will receive it')
	const labelsIn = page.getByRole('group', { name: 'Contacts with any of these labels (none: everyone)', exact: true })
	const labelsOut = page.getByRole('group', { name: 'Minus contacts with any of these labels', exact: true })
	await labelsIn.getByLabel('vip').check()
	await expect(count).toContainText('2 contacts will receive it')
	await expect(count).toContainText('Amira Fathy, Bruno Lemaire')
	await labelsOut.getByLabel('vip').check()
	await expect(count).toContainText('0 contacts will receive it')
	await labelsOut.getByLabel('vip').uncheck()
	await expect(count).toContainText('2 contacts will receive it')

	await page.getByLabel('Name', { exact: true }).fill('VIP evening')
	await page.getByLabel('Message', { exact: true }).fill('Hi {{name}}, see you this evening?')
	const { timezone } = (await (await request.get(`/v1/workspaces/${workspace.id}`, { headers: { Authorization: `Bearer ${admin.token}` } })).json()) as {
		timezone: string
	}
	const { value, at } = aMinuteAhead(timezone)
	await page.getByLabel('Send at (optional)').fill(value)
	await page.getByRole('button', { name: 'Create the campaign' }).click()
	await expect(page.getByText('Campaign VIP evening created')).toBeVisible()
	await page.getByRole('link', { name: 'Schedule', exact: true }).click()
	await expect(page.getByRole('alertdialog', { name: /^Send to 2 contacts at .+\?$/ })).toBeVisible()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Schedule' }).click()
	await expect(page.getByText('Campaign scheduled')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'VIP evening — Scheduled' })).toBeVisible()

	// While it waits: the preview is for the audience's first, then for any contact found by a search (it runs as one types).
	await expect(page.getByText('Hi Amira Fathy, see you this evening?')).toBeVisible()
	const chooser = page.getByLabel('Preview for', { exact: true })
	await expect(chooser.locator('option')).toHaveText(['Amira Fathy', 'Bruno Lemaire'])
	await page.getByLabel('Find a contact').fill('chen')
	await expect(page).toHaveURL(/previewSearch=chen/)
	await expect(chooser.locator('option')).toHaveText(['Amira Fathy', 'Chen Wei'])
	await chooser.selectOption({ label: 'Chen Wei' })
	await expect(page.getByText('Hi Chen Wei, see you this evening?')).toBeVisible()
	await expectAccessible(page, 'main')

	// Its minute comes: the page follows it without a reload, to the end.
	await markDocument(page)
	expect(at.getTime()).toBeGreaterThan(Date.now())
	await expect(page.getByRole('heading', { name: 'VIP evening — Completed' })).toBeVisible({ timeout: at.getTime() - Date.now() + 60_000 })
	await expect(page.locator('[data-total="sent"]')).toHaveText('2')
	expect(await isSameDocument(page)).toBe(true)
	const sent = sentTexts(bot.token).filter((body) => body.text.includes('this evening'))
	expect(sent.map((body) => body.chat_id).sort()).toEqual([String(chats[0]), String(chats[1])])
	expect(sent.map((body) => body.text).sort()).toEqual(['Hi Amira Fathy, see you this evening?', 'Hi Bruno Lemaire, see you this evening?'])

	// Bruno answers: counted live, and in the inbox after the campaign's message.
	expect(
		(await fake.postUpdate(bot.token, textUpdate({ id: chats[1]!, firstName: 'Bruno', lastName: 'Lemaire' }, 'Yes, I will come'), { origin: baseURL })).status,
	).toBe(200)
	await expect(page.locator('[data-total="replied"]')).toHaveText('1')
	expect(await isSameDocument(page)).toBe(true)
	await page.goto('/en-us/dashboard/conversations')
	const row = page.locator('[data-pane="list"] li[data-conversation]').filter({ hasText: 'Bruno Lemaire' })
	await expect(row).toContainText('Yes, I will come')
	await row.getByRole('link').click()
	await expect(page.getByRole('article').filter({ hasText: 'see you this evening' })).toBeVisible()
	await expect(page.getByRole('article').filter({ hasText: 'Yes, I will come' })).toBeVisible()
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
		await expect(page.locator('[data-audience]')).toHaveText('ستصل إلى جهة اتصال واحدة (1)')
		await page.getByRole('link', { name: 'ابدأ الآن' }).click()
		const confirm = page.getByRole('alertdialog', { name: 'هل تُرسل الحملة الآن إلى جهة اتصال واحدة (1)؟' })
		await expect(confirm).toBeVisible()
		expect(sentTexts(bot.token)).toEqual([])
		await confirm.getByRole('button', { name: 'أرسل الآن' }).click()
		// The form's answer has loaded (its toast) before any reload: a reload during that navigation finds no page (CI saw it).
		await expect(page.getByText('بدأت الحملة', { exact: true })).toBeVisible()
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

	test('an owner previews the message for a contact found by a search, sets the channel’s rate and opts a contact back in', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		test.slow()
		const owner = await registerUser(request, { locale: 'ar-eg' })
		const { workspace, bot, chats, channelId, contacts } = await workspaceWithCustomers(request, baseURL!, owner.token, 'شركة المعاينة', [
			{ name: 'Hoda Sami', vip: true },
			{ name: 'Karim Adel', vip: false },
		])
		const auth = { Authorization: `Bearer ${owner.token}` }
		const karim = contacts.find((contact) => contact.name === 'Karim Adel')!
		const optedOutAt = async () =>
			((await (await request.get(`/v1/workspaces/${workspace.id}/contacts/${karim.id}`, { headers: auth })).json()) as { optedOutAt: string | null }).optedOutAt
		// Karim writes the opt-out word: he leaves every audience.
		expect((await fake.postUpdate(bot.token, textUpdate({ id: chats[1]!, firstName: 'Karim', lastName: 'Adel' }, 'إلغاء'), { origin: baseURL })).status).toBe(
			200,
		)
		await expect.poll(optedOutAt).not.toBeNull()
		const created = await request.post(`/v1/workspaces/${workspace.id}/campaigns`, { data: { name: 'تحية', channelId, body: 'أهلًا {{name}}' }, headers: auth })
		const campaign = (await created.json()) as { id: string }
		expect((await request.patch(`/v1/workspaces/${workspace.id}/channels/${channelId}`, { data: { enabled: false }, headers: auth })).status()).toBe(200)
		await signIn(context, baseURL!, owner.token)

		await page.goto(`/ar-eg/dashboard/campaign-manager?campaign=${campaign.id}`)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByText('أهلًا Hoda Sami')).toBeVisible()

		// The channel is switched off: starting is refused, said in the confirmation, which stays.
		await page.getByRole('link', { name: 'ابدأ الآن' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: 'أرسل الآن' }).click()
		await expect(page.getByRole('alertdialog').getByRole('alert')).toHaveText('القناة متوقفة.')
		await expect(page.getByRole('heading', { name: 'تحية — مسودة' })).toBeVisible()
		await page.getByLabel('ابحث عن جهة اتصال').fill('Karim')
		await page.getByRole('button', { name: 'ابحث', exact: true }).click()
		await page.getByLabel('معاينة لـ', { exact: true }).selectOption({ label: 'Karim Adel' })
		await page.getByRole('button', { name: 'اعرض المعاينة' }).click()
		await expect(page.getByText('أهلًا Karim Adel')).toBeVisible()
		await page.getByLabel('ابحث عن جهة اتصال').fill('لا أحد')
		await page.getByRole('button', { name: 'ابحث', exact: true }).click()
		await expect(page.getByText('لا توجد جهة اتصال تطابق «لا أحد».')).toBeVisible()

		// The live count needs JavaScript; the count button answers without it.
		await page.goto('/ar-eg/dashboard/campaign-manager?new')
		await page.getByLabel('الاسم', { exact: true }).fill('عدّ')
		await page.getByRole('button', { name: 'احسب الجمهور' }).click()
		await expect(page.getByRole('status').filter({ hasText: 'Hoda Sami' })).toBeVisible()

		await page.goto(`/ar-eg/dashboard/settings/channels/${channelId}`)
		await page.getByLabel('معدل الحملات (رسائل في الثانية)').fill('12')
		await page.getByRole('button', { name: 'احفظ المعدل' }).click()
		await expect(page.getByText('تم حفظ معدل حملات Telegram news')).toBeVisible()
		await expect(page.getByLabel('معدل الحملات (رسائل في الثانية)')).toHaveValue('12')

		await page.goto(`/ar-eg/dashboard/contacts?contact=${karim.id}`)
		await expect(page.getByText('ألغى الاشتراك في الحملات في')).toBeVisible()
		await page.getByRole('link', { name: 'أعِد الاشتراك في الحملات' }).click()
		const dialog = page.getByRole('alertdialog')
		await expect(dialog).toContainText('هل تُرسل الحملات إلى Karim Adel مرة أخرى؟')
		await dialog.getByRole('button', { name: 'أعِد الاشتراك في الحملات' }).click()
		await expect(page.getByText('سيتلقى Karim Adel الحملات مرة أخرى')).toBeVisible()
		await expect(page.getByText('ألغى الاشتراك في الحملات في')).toHaveCount(0)
		expect(await optedOutAt()).toBeNull()
	})
})
