import zlib from 'node:zlib'
import { sql } from 'kysely'
import { type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { documentUpdate, photoUpdate, startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { inboundText, startWhatsAppFake, type WhatsAppFake } from '../fakes/whatsapp.ts'
import { customerMessage, type MetaFake, pageWebhook, startMetaFake } from '../fakes/meta.ts'
import { metaFakePort, telegramFakePort, whatsappFakePort } from '../../playwright.config.ts'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { inboundPath } from './inbox-support.ts'
import { realtimeSdk, subscriptionCount } from './realtime-support.ts'
import { expectAccessible } from './accessibility.ts'

// A reply's status moves when the sending job has had the provider's answer and its event has reached the page: on CI's
// loaded two cores, with the other worker's accessibility checks beside it, that once took longer than the usual 10 s.
const sending = { timeout: 20_000 }

// The e2e server reaches the providers at these fakes' fixed ports: one worker runs these tests, one after another.
test.describe.configure({ mode: 'serial' })

let fake: TelegramFake
let whatsapp: WhatsAppFake
let meta: MetaFake
test.beforeAll(async () => {
	fake = await startTelegramFake(telegramFakePort)
	whatsapp = await startWhatsAppFake(whatsappFakePort)
	meta = await startMetaFake(metaFakePort)
})
test.afterAll(async () => {
	// Those that started, when one of them could not.
	await Promise.all([fake?.close(), whatsapp?.close(), meta?.close()])
})

/** The create page with one kind chosen, hydrated, and that kind's connect form on it. */
async function connectForm(page: Page, kind: string) {
	await page.goto(`/en-us/dashboard/settings/channels/create?kind=${kind}`)
	await waitForHydration(page)
	return page.locator(`#${kind}-form`)
}

/** Fills a form's fields by their labels, then presses its button. */
async function submit(form: Locator, fields: Record<string, string>, button: string) {
	for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value)
	await form.getByRole('button', { name: button }).click()
}

test('an admin connects a Telegram bot; a customer’s message arrives live and the reply reaches Telegram', async ({ page, context, request, baseURL }) => {
	test.slow()
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'Telegram Co')
	await signIn(context, baseURL!, owner.token)
	const bot = fake.addBot({ username: 'telegram_co_bot' })
	const sdk = realtimeSdk(baseURL!)

	await page.goto('/en-us/dashboard/settings/channels/create?kind=telegram')
	await waitForHydration(page)
	const form = page.locator('#telegram-form')
	await form.getByLabel('Name').fill('Telegram support')
	await form.getByLabel('Bot token', { exact: true }).fill('123456789:AAHthis-token-is-unknown-to-telegram')
	await form.getByRole('button', { name: 'Connect the bot' }).click()
	await expect(form.getByText('The provider does not accept this token')).toBeVisible()
	await expect(form.getByLabel('Name')).toHaveValue('Telegram support')
	await expect(form.getByLabel('Bot token', { exact: true })).toHaveValue('')
	await expectAccessible(page, '#telegram-form')

	await form.getByLabel('Bot token', { exact: true }).fill(bot.token)
	await form.getByRole('button', { name: 'Connect the bot' }).click()
	await expect(page).toHaveURL('/en-us/dashboard/settings/channels')
	await expect(page.getByText('Channel Telegram support created')).toBeVisible()
	expect(fake.webhookOf(bot.token)?.url).toMatch(/\/webhooks\/telegram\/[0-9a-f-]{36}$/)

	await page.goto('/en-us/dashboard/conversations')
	await waitForHydration(page)
	await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(1)
	await expect(
		(await fake.postUpdate(bot.token, textUpdate({ id: 777_001, firstName: 'Samir', lastName: 'Aziz' }, 'Is my parcel on its way?'), { origin: baseURL }))
			.status,
	).toBe(200)
	const row = page.locator('[data-pane="list"] li[data-conversation]').filter({ hasText: 'Samir Aziz' })
	await expect(row).toContainText('Is my parcel on its way?')
	await row.getByRole('link').click()
	await page.locator('#composer-body').fill('Yes, it left this morning.')
	await page.locator('#composer-body').press('Enter')
	const sent = await fake.waitFor((received) => received.path === `/bot${bot.token}/sendMessage`)
	expect(sent.body).toEqual({ chat_id: '777001', text: 'Yes, it left this morning.' })

	await expect(page.getByRole('article').filter({ hasText: 'Yes, it left this morning.' })).toContainText('Sent', sending)

	// The customer blocks the bot: the next reply fails with Telegram's reason, and is sent again once unblocked.
	fake.blockChat(777_001)
	await page.locator('#composer-body').fill('Anything else?')
	await page.locator('#composer-body').press('Enter')
	const failed = page.getByRole('article').filter({ hasText: 'Anything else?' })
	await expect(failed).toContainText('Not delivered: Forbidden: bot was blocked by the user')
	fake.unblockChat(777_001)
	await failed.getByRole('button', { name: 'Send again' }).click()
	await fake.waitFor(
		(received) =>
			received.path === `/bot${bot.token}/sendMessage` &&
			(received.body as { text: string }).text === 'Anything else?' &&
			fake.received.filter((entry) => (entry.body as { text?: string } | null)?.text === 'Anything else?').length === 2,
	)
	await expect(failed).not.toContainText('Not delivered')
})

test('an owner connects a WhatsApp number, reads what to paste into Meta’s dashboard, its messages arrive, and after 24 hours a template goes out', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	// A connection, a webhook, a live message and a reply: past 30 s on a loaded 2-core machine.
	test.slow()
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'WhatsApp Co')
	await signIn(context, baseURL!, owner.token)
	const number = whatsapp.addNumber()
	const sdk = realtimeSdk(baseURL!)
	const appSecret = 'a1b2c3d4e5f60718293a4b5c6d7e8f90'

	const form = await connectForm(page, 'whatsapp')
	await submit(
		form,
		{
			Name: 'WhatsApp sales',
			'Phone number ID': number.phoneNumberId,
			'WhatsApp Business Account ID': number.businessAccountId,
			'Access token': 'EAAGwrong-token-for-this-number',
			'App secret': appSecret,
		},
		'Connect the number',
	)
	await expect(form.getByText('The provider does not accept this token')).toBeVisible()
	await expect(form.getByLabel('Phone number ID')).toHaveValue(number.phoneNumberId)
	await submit(form, { 'Access token': number.accessToken, 'App secret': appSecret }, 'Connect the number')

	await expect(page).toHaveURL(/\/en-us\/dashboard\/settings\/channels\/[0-9a-f-]{36}$/)
	const callback = await page.getByLabel('Callback URL', { exact: true }).inputValue()
	expect(callback).toMatch(new RegExp(`^${baseURL}/webhooks/whatsapp/[0-9a-f-]{36}$`))
	const verifyToken = await page.getByLabel('Verify token', { exact: true }).inputValue()
	const handshake = await request.get(`${callback}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`)
	expect(await handshake.text()).toBe('42')

	await page.goto('/en-us/dashboard/conversations')
	await waitForHydration(page)
	await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(1)
	expect(
		(
			await whatsapp.postWebhook(
				callback,
				appSecret,
				inboundText(number.phoneNumberId, { waId: '201112223334', name: 'Hoda Sami' }, 'Do you deliver on Fridays?'),
			)
		).status,
	).toBe(200)
	const row = page.locator('[data-pane="list"] li[data-conversation]').filter({ hasText: 'Hoda Sami' })
	await expect(row).toContainText('Do you deliver on Fridays?')

	// A day later, WhatsApp takes only a template: the reply is refused with the reason, the picker sends one.
	const inbound = await inboundPath(baseURL!)
	await sql`update messages set created_at = now() - interval '25 hours' where workspace_id = ${workspace.id} and direction = 'incoming'`.execute(inbound.db)
	await inbound.close()
	await row.getByRole('link').click()
	await page.locator('#composer-body').fill('Yes, we do!')
	await page.locator('#composer-body').press('Enter')
	await expect(page.getByRole('alert').filter({ hasText: 'More than 24 hours since the customer last wrote' })).toBeVisible()
	await page.getByRole('link', { name: 'Send an approved template (WhatsApp, after 24 hours)' }).click()
	const template = page.getByRole('form', { name: 'order_update' })
	await template.getByLabel('Value 1').fill('Hoda')
	await template.getByLabel('Value 2').fill('#7')
	await template.getByRole('button', { name: 'Send this template' }).click()
	await expect(page.getByRole('log')).toContainText('Hello Hoda, your order #7 has shipped.')
	const sent = await whatsapp.waitFor((received) => (received.body as { type?: string } | null)?.type === 'template')
	expect((sent.body as { to: string }).to).toBe('201112223334')
})

test('an admin connects a Messenger page, pastes what Meta needs, a signed message arrives live and the reply reaches the Send API', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	// A connection, a webhook, a live message and a reply: past 30 s on a loaded 2-core machine.
	test.slow()
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'Messenger Co')
	await signIn(context, baseURL!, owner.token)
	const facebookPage = meta.addPage({ name: 'Messenger Co Page' })
	const sdk = realtimeSdk(baseURL!)
	const appSecret = '9f8e7d6c5b4a39281706f5e4d3c2b1a0'

	const form = await connectForm(page, 'messenger')
	await submit(
		form,
		{ Name: 'Messenger support', 'Page ID': facebookPage.pageId, 'Page access token': 'EAABwrong-token-for-this-page', 'App secret': appSecret },
		'Connect the page',
	)
	await expect(form.getByText('The provider does not accept this token')).toBeVisible()
	await expect(form.getByLabel('Page ID')).toHaveValue(facebookPage.pageId)
	await expect(form.getByLabel('Page access token')).toHaveValue('')
	await expectAccessible(page, '#messenger-form')
	await submit(form, { 'Page access token': facebookPage.accessToken, 'App secret': appSecret }, 'Connect the page')

	await expect(page).toHaveURL(/\/en-us\/dashboard\/settings\/channels\/[0-9a-f-]{36}$/)
	await expect(page.getByText('Messenger › Settings › Webhooks')).toBeVisible()
	await expect(page.getByRole('region', { name: 'Messenger' })).toContainText('Messenger Co Page')
	const callback = await page.getByLabel('Callback URL', { exact: true }).inputValue()
	expect(callback).toMatch(new RegExp(`^${baseURL}/webhooks/messenger/[0-9a-f-]{36}$`))
	const verifyToken = await page.getByLabel('Verify token', { exact: true }).inputValue()
	expect(await (await request.get(`${callback}?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=77`)).text()).toBe('77')

	await page.goto('/en-us/dashboard/conversations')
	await waitForHydration(page)
	await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(1)
	const psid = '6543210987654321'
	expect(
		(
			await meta.postWebhook(
				callback,
				appSecret,
				pageWebhook('page', facebookPage.pageId, customerMessage(facebookPage.pageId, psid, 'Are you open on Saturday?')),
			)
		).status,
	).toBe(200)
	const row = page.locator('[data-pane="list"] li[data-conversation]').filter({ hasText: 'Are you open on Saturday?' })
	await expect(row).toBeVisible()
	await row.getByRole('link').click()
	await page.locator('#composer-body').fill('Yes, from ten to six.')
	await page.locator('#composer-body').press('Enter')
	const sent = await meta.waitFor((received) => received.method === 'POST' && received.path.endsWith(`/${facebookPage.pageId}/messages`))
	expect(sent.body).toEqual({ recipient: { id: psid }, messaging_type: 'RESPONSE', message: { text: 'Yes, from ten to six.' } })
	await expect(page.getByRole('article').filter({ hasText: 'Yes, from ten to six.' })).toContainText('Sent', sending)
})

/** A real PNG of one colour (so that the browser has something to decode). */
function png(width: number, height: number): Buffer {
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
		const length = Buffer.alloc(4)
		length.writeUInt32BE(data.length)
		const crc = Buffer.alloc(4)
		crc.writeUInt32BE(zlib.crc32(body))
		return Buffer.concat([length, body, crc])
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(width, 0)
	header.writeUInt32BE(height, 4)
	header.set([8, 2, 0, 0, 0], 8)
	const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x2b, 0x6c, 0xb0]))])
	const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', pixels),
		chunk('IEND', Buffer.alloc(0)),
	])
}

/** A Telegram channel connected through the API, and a customer who sent it a photo with a caption, then a PDF. */
async function customerSendsFiles(request: APIRequestContext, baseURL: string, token: string, workspaceId: string, chatId: number) {
	const bot = fake.addBot()
	const created = await request.post(`/v1/workspaces/${workspaceId}/channels`, {
		data: { kind: 'telegram', name: 'Files bot', credentials: { botToken: bot.token } },
		headers: { Authorization: `Bearer ${token}` },
	})
	expect(created.status()).toBe(201)
	const customer = { id: chatId, firstName: 'Yara' }
	const photo = fake.addFile(bot.token, png(160, 120), { path: `photos/file_${chatId}.jpg` })
	expect((await fake.postUpdate(bot.token, photoUpdate(customer, photo, 'The box arrived broken'), { origin: baseURL })).status).toBe(200)
	const pdf = fake.addFile(bot.token, Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(9_091, 0x20)]), { path: `documents/file_${chatId}.pdf` })
	expect(
		(await fake.postUpdate(bot.token, documentUpdate(customer, pdf, { name: 'receipt.pdf', mimeType: 'application/pdf' }), { origin: baseURL })).status,
	).toBe(200)
	// Both are recorded by the channel's jobs, in order: the document's is the last.
	const lastExcerpt = async () =>
		(
			(await (await request.get(`/v1/workspaces/${workspaceId}/conversations?status=all`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
				conversations: Array<{ lastMessage: { excerpt: string } | null }>
			}
		).conversations[0]?.lastMessage?.excerpt
	await expect.poll(lastExcerpt, { timeout: 15_000 }).toBe('📎 receipt.pdf')
}

test('a customer’s photo shows in the thread as an image, and a document as a link with its name and size', async ({ page, context, request, baseURL }) => {
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'Files Co')
	await signIn(context, baseURL!, owner.token)
	await customerSendsFiles(request, baseURL!, owner.token, workspace.id, 778_001)

	await page.goto('/en-us/dashboard/conversations')
	const row = page.locator('[data-pane="list"] li[data-conversation]').filter({ hasText: 'Yara' })
	await expect(row).toContainText('📎 receipt.pdf')
	await row.getByRole('link').click()
	const photo = page.getByRole('article').filter({ hasText: 'The box arrived broken' })
	const image = photo.getByRole('img', { name: 'Image: photo.jpg' })
	await expect(image).toHaveAttribute('loading', 'lazy')
	await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(160)
	const file = page.getByRole('log').getByRole('link', { name: /receipt\.pdf/ })
	await expect(file).toContainText('(9.1 kB)')
	const answer = await page.request.get((await file.getAttribute('href'))!)
	expect(answer.status()).toBe(200)
	expect(answer.headers()['content-disposition']).toBe(`attachment; filename="receipt.pdf"; filename*=UTF-8''receipt.pdf`)
	expect((await answer.body()).subarray(0, 5).toString()).toBe('%PDF-')

	// The agent answers with a picture: it reaches Telegram by sendPhoto, with the text as its caption, and shows in the thread.
	await page.getByLabel('Attach a file').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: png(80, 60) })
	await page.locator('#composer-body').fill('Here is the return label')
	await page.getByRole('button', { name: 'Send', exact: true }).click()
	const sent = await fake.waitFor((received) => received.path.endsWith('/sendPhoto'))
	expect(sent.body).toMatchObject({ chat_id: '778001', caption: 'Here is the return label', photo: { filename: 'label.png', contentType: 'image/png' } })
	const reply = page.getByRole('article').filter({ hasText: 'Here is the return label' })
	await expect(reply).toContainText('Sent', sending)
	await expect
		.poll(() => reply.getByRole('img', { name: 'Image: label.png' }).evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
		.toBe(80)
	await expect(page.getByLabel('Attach a file')).toHaveValue('')
	await expect(page.locator('#composer-body')).toHaveValue('')
})

test('a provider out of reach: connecting Telegram, WhatsApp or Messenger, or replacing a token, says so beside the form, keeps what was typed and asks for the secrets again', async ({
	page,
	context,
	request,
	baseURL,
	problems,
}) => {
	test.slow()
	// The form's answer carries the API's 502, which the browser notes in its console.
	problems.expected.push(/status of 502 \(Bad Gateway\)/)
	const owner = await registerUser(request)
	await createWorkspace(request, owner.token, 'Outage Co')
	await signIn(context, baseURL!, owner.token)
	const unreachable = /The provider cannot be reached right now; try again in a moment/

	// Telegram answers 502: the API's 502 is said above the form, not the error screen.
	const bot = fake.addBot()
	fake.failNext(/\/getMe$/, { status: 502, body: { ok: false, error_code: 502, description: 'Bad Gateway' } })
	const telegram = await connectForm(page, 'telegram')
	await submit(telegram, { Name: 'Telegram support', 'Bot token': bot.token }, 'Connect the bot')
	await expect(telegram.getByRole('alert')).toContainText(unreachable)
	await expect(page).toHaveURL('/en-us/dashboard/settings/channels/create?kind=telegram')
	await expect(telegram.getByLabel('Name')).toHaveValue('Telegram support')
	await expect(telegram.getByLabel('Bot token', { exact: true })).toHaveValue('')
	await expect(telegram.getByLabel('Bot token', { exact: true })).toHaveAccessibleDescription(
		/Not kept after the failed attempt, for your security: type it again\./,
	)
	// Telegram is back: the token typed again connects.
	await submit(telegram, { 'Bot token': bot.token }, 'Connect the bot')
	await expect(page).toHaveURL('/en-us/dashboard/settings/channels')
	await expect(page.getByText('Channel Telegram support created')).toBeVisible()

	// WhatsApp's Graph API fails (500): the ids stay, the secrets are asked again.
	const number = whatsapp.addNumber()
	whatsapp.failNext(new RegExp(`/${number.phoneNumberId}$`), {
		status: 500,
		body: { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1 } },
	})
	const form = await connectForm(page, 'whatsapp')
	await submit(
		form,
		{
			Name: 'WhatsApp sales',
			'Phone number ID': number.phoneNumberId,
			'WhatsApp Business Account ID': number.businessAccountId,
			'Access token': number.accessToken,
			'App secret': 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
		},
		'Connect the number',
	)
	await expect(form.getByRole('alert')).toContainText(unreachable)
	await expect(form.getByLabel('Name')).toHaveValue('WhatsApp sales')
	await expect(form.getByLabel('Phone number ID')).toHaveValue(number.phoneNumberId)
	await expect(form.getByLabel('WhatsApp Business Account ID')).toHaveValue(number.businessAccountId)
	for (const secret of ['Access token', 'App secret']) {
		await expect(form.getByLabel(secret, { exact: true })).toHaveValue('')
		await expect(form.getByLabel(secret, { exact: true })).toHaveAccessibleDescription(/Not kept after the failed attempt/)
	}

	// Meta's Graph cannot be reached at all (the fake is stopped): the same, for a Messenger page.
	const facebookPage = meta.addPage({ name: 'Outage Co Page' })
	await meta.close()
	try {
		const messenger = await connectForm(page, 'messenger')
		await submit(
			messenger,
			{
				Name: 'Messenger support',
				'Page ID': facebookPage.pageId,
				'Page access token': facebookPage.accessToken,
				'App secret': '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
			},
			'Connect the page',
		)
		await expect(messenger.getByRole('alert')).toContainText(unreachable)
		await expect(messenger.getByLabel('Name')).toHaveValue('Messenger support')
		await expect(messenger.getByLabel('Page ID')).toHaveValue(facebookPage.pageId)
		await expect(messenger.getByLabel('Page access token', { exact: true })).toHaveValue('')
	} finally {
		meta = await startMetaFake(metaFakePort)
	}

	// Replacing the Telegram bot's token while Telegram is down: said beside the credentials' form, the rest of the page as it was.
	await page.goto('/en-us/dashboard/settings/channels')
	await page.getByRole('link', { name: 'Edit Telegram support' }).click()
	await waitForHydration(page)
	const renewed = fake.addBot()
	fake.failNext(/\/getMe$/, { status: 503, body: { ok: false, error_code: 503, description: 'Service Unavailable' } })
	const credentials = page.getByRole('region', { name: 'Credentials' })
	await credentials.getByLabel('Bot token', { exact: true }).fill(renewed.token)
	await credentials.getByRole('button', { name: 'Replace the credentials' }).click()
	await expect(credentials.getByRole('alert')).toContainText(unreachable)
	await expect(credentials).toContainText('What you typed was not kept after the failed attempt, for your security: type it again.')
	await expect(page.getByRole('region', { name: 'Telegram' }).getByRole('alert')).toHaveCount(0)
	await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Telegram support')
})

test.describe('in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('the Telegram form is mirrored, translated, and connects a bot with a plain form post', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { locale: 'ar-eg' })
		await createWorkspace(request, owner.token, 'شركة تيليجرام')
		await signIn(context, baseURL!, owner.token)
		const bot = fake.addBot()
		await page.goto('/ar-eg/dashboard/settings/channels/create')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		// The kind first, by a plain link; then its form alone.
		await page.getByRole('link', { name: /^تيليجرام/ }).click()
		await expect(page).toHaveURL('/ar-eg/dashboard/settings/channels/create?kind=telegram')
		const form = page.locator('#telegram-form')
		await expect(form.getByRole('heading', { name: 'بوت تيليجرام الخاص بك' })).toBeVisible()
		await form.getByLabel('الاسم').fill('دعم تيليجرام')
		await form.getByLabel('رمز البوت').fill('bad')
		await form.getByRole('button', { name: 'ربط البوت' }).click()
		await expect(form.getByText('رمز البوت يشبه')).toBeVisible()
		await form.getByLabel('رمز البوت').fill(bot.token)
		await form.getByRole('button', { name: 'ربط البوت' }).click()
		await expect(page).toHaveURL('/ar-eg/dashboard/settings/channels')
		await expect(page.getByRole('main')).toContainText('دعم تيليجرام')
		await expect(page.getByRole('row').filter({ hasText: 'دعم تيليجرام' })).toContainText('0 واردة · 0 صادرة')
		expect(fake.webhookOf(bot.token)).toBeDefined()

		// The token is renewed: the channel's page shows the end of the one kept and takes the new one.
		await page.getByRole('row').filter({ hasText: 'دعم تيليجرام' }).getByRole('link', { name: 'تعديل دعم تيليجرام' }).click()
		const credentials = page.getByRole('region', { name: 'بيانات الاعتماد' })
		await expect(credentials).toContainText(`المحفوظ الآن: ••••${bot.token.slice(-4)}`)
		await credentials.getByRole('button', { name: 'استبدال بيانات الاعتماد' }).click()
		await expect(page.getByRole('region', { name: 'بيانات الاعتماد' })).toContainText('اكتب قيمة جديدة واحدة على الأقل.')
		const renewed = fake.addBot()
		await page.getByRole('region', { name: 'بيانات الاعتماد' }).getByLabel('رمز البوت').fill(renewed.token)
		await page.getByRole('region', { name: 'بيانات الاعتماد' }).getByRole('button', { name: 'استبدال بيانات الاعتماد' }).click()
		await expect(page.getByRole('region', { name: 'بيانات الاعتماد' })).toContainText(`المحفوظ الآن: ••••${renewed.token.slice(-4)}`)
		expect(fake.webhookOf(renewed.token)).toBeDefined()
		expect(fake.webhookOf(bot.token)).toBeUndefined()

		// A customer writes: their contact's panel names the bot and the chat id Telegram gave them.
		await fake.postUpdate(renewed.token, textUpdate({ id: 777_002, firstName: 'سارة', lastName: 'منصور' }, 'مرحبا'), { origin: baseURL })
		const contact = page.getByRole('link', { name: 'سارة منصور' })
		await expect
			.poll(async () => {
				await page.goto('/ar-eg/dashboard/contacts')
				return contact.count()
			})
			.toBe(1)
		await contact.click()
		const identities = page.getByRole('region', { name: 'القنوات' })
		await expect(identities).toContainText('دعم تيليجرام (تيليجرام)')
		await expect(identities).toContainText('777002')
	})

	test('WhatsApp out of reach: the plain form comes back with the kind, the ids and the reason, and says the secrets must be typed again', async ({
		page,
		context,
		request,
		baseURL,
		problems,
	}) => {
		problems.expected.push(/status of 502 \(Bad Gateway\)/)
		const owner = await registerUser(request, { locale: 'ar-eg' })
		await createWorkspace(request, owner.token, 'شركة الانقطاع')
		await signIn(context, baseURL!, owner.token)
		const number = whatsapp.addNumber()
		whatsapp.failNext(new RegExp(`/${number.phoneNumberId}$`), {
			status: 503,
			body: { error: { message: 'Service temporarily unavailable', type: 'OAuthException', code: 2 } },
		})
		await page.goto('/ar-eg/dashboard/settings/channels/create?kind=whatsapp')
		const form = page.locator('#whatsapp-form')
		await form.getByLabel('الاسم').fill('مبيعات واتساب')
		await form.getByLabel('معرّف رقم الهاتف').fill(number.phoneNumberId)
		await form.getByLabel('معرّف حساب واتساب للأعمال').fill(number.businessAccountId)
		await form.getByLabel('رمز الوصول', { exact: true }).fill(number.accessToken)
		await form.getByLabel('السر الخاص بالتطبيق').fill('a1b2c3d4e5f60718293a4b5c6d7e8f90')
		await form.getByRole('button', { name: 'ربط الرقم' }).click()
		await expect(page).toHaveURL('/ar-eg/dashboard/settings/channels/create?kind=whatsapp')
		await expect(form.getByRole('alert')).toContainText('تعذّر الوصول إلى المزوّد الآن؛ حاول مرة أخرى بعد قليل')
		await expect(form.getByLabel('الاسم')).toHaveValue('مبيعات واتساب')
		await expect(form.getByLabel('معرّف رقم الهاتف')).toHaveValue(number.phoneNumberId)
		await expect(form.getByLabel('رمز الوصول', { exact: true })).toHaveValue('')
		await expect(form).toContainText('لم يُحفظ بعد المحاولة الفاشلة حفاظًا على أمانك: اكتبه مرة أخرى.')
		// Only this kind's form: the others are a link away.
		await expect(page.locator('main section form')).toHaveCount(1)
	})

	test('the Instagram form connects an account with a plain form post and shows what to paste into Meta’s dashboard', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const owner = await registerUser(request, { locale: 'ar-eg' })
		await createWorkspace(request, owner.token, 'شركة إنستجرام')
		await signIn(context, baseURL!, owner.token)
		const facebookPage = meta.addPage()
		await page.goto('/ar-eg/dashboard/settings/channels/create?kind=instagram')
		const form = page.locator('#instagram-form')
		await expect(form.getByRole('heading', { name: 'حسابك على إنستجرام' })).toBeVisible()
		await form.getByLabel('الاسم').fill('رسائل إنستجرام')
		await form.getByLabel('معرّف الصفحة').fill(facebookPage.pageId)
		await form.getByLabel('رمز وصول الصفحة').fill(facebookPage.accessToken)
		await form.getByLabel('السر الخاص بالتطبيق').fill('0123456789abcdef0123456789abcdef')
		await form.getByRole('button', { name: 'ربط الصفحة' }).click()
		await expect(page).toHaveURL(/\/ar-eg\/dashboard\/settings\/channels\/[0-9a-f-]{36}$/)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByText(`@${facebookPage.instagramUsername}`)).toBeVisible()
		await expect(page.getByLabel('رمز التحقق', { exact: true })).toHaveValue(/^[A-Za-z0-9_-]{32,}$/)
		expect(await page.getByLabel('عنوان الاستدعاء', { exact: true }).inputValue()).toMatch(/\/webhooks\/instagram\/[0-9a-f-]{36}$/)
	})

	test('a customer’s photo and document show in the right-to-left thread', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { locale: 'ar-eg' })
		const workspace = await createWorkspace(request, owner.token, 'شركة الملفات')
		await signIn(context, baseURL!, owner.token)
		await customerSendsFiles(request, baseURL!, owner.token, workspace.id, 778_002)
		await page.goto('/ar-eg/dashboard/conversations?conversation=1')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('img', { name: 'صورة: photo.jpg' })).toBeVisible()
		await expect(page.getByRole('log').getByRole('link', { name: /receipt\.pdf/ })).toBeVisible()

		// A plain form post sends a document with the reply.
		await page.getByLabel('إرفاق ملف').setInputFiles({ name: 'فاتورة.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 invoice') })
		await page.locator('#composer-body').fill('هذه الفاتورة')
		await page.locator('form[aria-label="اكتب رسالة"] button[type="submit"]').click()
		const sent = await fake.waitFor((received) => received.path.endsWith('/sendDocument'))
		expect(sent.body).toMatchObject({ chat_id: '778002', caption: 'هذه الفاتورة', document: { filename: 'فاتورة.pdf' } })
		await expect(
			page
				.getByRole('article')
				.filter({ hasText: 'هذه الفاتورة' })
				.getByRole('link', { name: /فاتورة\.pdf/ }),
		).toBeVisible()
	})
})
