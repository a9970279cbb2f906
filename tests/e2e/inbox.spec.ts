import { type Page } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { customerWrites, inboundPath, linkChannel } from './inbox-support.ts'
import { inviteAndAccept, isSameDocument, markDocument, realtimeSdk, subscriptionCount, watchConsole } from './realtime-support.ts'
import { expectAccessible } from './accessibility.ts'

const rows = (page: Page) => page.locator('[data-pane="list"] li[data-conversation]')
const thread = (page: Page) => page.getByRole('log')
const composer = (page: Page) => page.locator('#composer-body')

/** An owner with a workspace, a link channel and a customer's first message in it. */
async function inboxWithCustomer(request: Parameters<typeof registerUser>[0], baseURL: string, options: { owner?: string; locale?: string } = {}) {
	const inbound = await inboundPath(baseURL)
	const owner = await registerUser(request, { name: options.owner ?? 'Olga Owner', locale: options.locale })
	const workspace = await createWorkspace(request, owner.token, 'Inbox Co')
	const channel = await linkChannel(inbound.db, workspace.id)
	await customerWrites(inbound, channel, 'Nadia Customer', 'Hello, my order is late')
	return { inbound, owner, workspace, channel }
}

test.describe('the inbox', () => {
	test('a customer’s messages arrive live; the agent assigns, replies, notes and resolves from the keyboard', async ({ page, context, request, baseURL }) => {
		test.slow()
		const sdk = realtimeSdk(baseURL!)
		const { inbound, owner, workspace, channel } = await inboxWithCustomer(request, baseURL!)
		await signIn(context, baseURL!, owner.token)
		await page.goto('/en-us/dashboard/conversations')
		await waitForHydration(page)
		await expect(rows(page)).toHaveCount(1)
		await expect(rows(page).first()).toContainText('Nadia Customer')
		await expect(rows(page).first()).toContainText('Hello, my order is late')
		await expect(page.getByRole('link', { name: /^Open/ })).toContainText('1')
		await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(1)
		await markDocument(page)

		// A new conversation appears at the top without a reload.
		await customerWrites(inbound, channel, 'Karim Buyer', 'Do you ship to Cairo?')
		await expect(rows(page)).toHaveCount(2)
		await expect(rows(page).first()).toContainText('Karim Buyer')

		await rows(page).filter({ hasText: 'Nadia Customer' }).getByRole('link').click()
		await expect(page).toHaveURL(/conversation=1/)
		await expect(thread(page)).toContainText('Hello, my order is late')
		await expect(page.getByRole('article', { name: 'Message from Nadia Customer' })).toHaveCount(1)

		// A message in the open conversation shows in the thread and brings it back to the top.
		await customerWrites(inbound, channel, 'Nadia Customer', 'Any news?')
		await expect(thread(page)).toContainText('Any news?')
		await expect(rows(page).first()).toContainText('Nadia Customer')
		expect(await isSameDocument(page)).toBe(true)

		await page.getByRole('button', { name: 'Assign to me' }).click()
		await expect(page.locator('header').getByText('Assigned to Olga Owner')).toBeVisible()
		await expect(page.getByRole('link', { name: /^Mine/ })).toContainText('1')

		// Enter sends, Shift+Enter is a new line; the field empties once sent.
		await composer(page).fill('It ships today.')
		await composer(page).press('Shift+Enter')
		await composer(page).pressSequentially('Tracking follows.')
		await composer(page).press('Enter')
		const reply = page.getByRole('article', { name: 'Reply by Olga Owner' })
		await expect(reply).toContainText('It ships today.\nTracking follows.')
		await expect(composer(page)).toHaveValue('')

		// `/` at the start of a line offers the canned responses.
		const canned = await request.post(`/v1/workspaces/${workspace.id}/canned-responses`, {
			data: { shortCode: 'thanks', content: 'Thank you for waiting!' },
			headers: { Authorization: `Bearer ${owner.token}` },
		})
		expect(canned.status()).toBe(201)
		await composer(page).pressSequentially('/than')
		await expect(page.getByRole('listbox', { name: 'Canned responses' }).getByRole('option')).toHaveCount(1)
		await composer(page).press('Enter')
		await expect(composer(page)).toHaveValue('Thank you for waiting!')
		await composer(page).fill('')

		// `n` opens the note tab (not while typing); @ offers the members.
		await thread(page).focus()
		await page.keyboard.press('n')
		await expect(page.getByRole('radio', { name: 'Private note' })).toBeChecked()
		await expect(composer(page)).toBeFocused()
		await composer(page).pressSequentially('Ask @Olg')
		await page
			.getByRole('listbox', { name: 'Members' })
			.getByRole('option', { name: /Olga Owner/ })
			.click()
		await composer(page).pressSequentially('to check the warehouse')
		await composer(page).press('Enter')
		const note = page.getByRole('article', { name: 'Private note by Olga Owner' })
		await expect(note).toContainText('Private note')
		await expect(note).toContainText('Ask @Olga Owner to check the warehouse')

		// A draft survives a reload, per conversation.
		await page.getByRole('radio', { name: 'Reply' }).check()
		await composer(page).fill('A draft for later')
		await page.reload()
		await waitForHydration(page)
		await expect(composer(page)).toHaveValue('A draft for later')
		await composer(page).fill('')

		// j and k walk the list; ? lists the shortcuts; e resolves.
		await thread(page).focus()
		await page.keyboard.press('j')
		await expect(page).toHaveURL(/conversation=2/)
		await expect(thread(page)).toContainText('Do you ship to Cairo?')
		await page.keyboard.press('k')
		await expect(page).toHaveURL(/conversation=1/)
		await page.keyboard.press('?')
		await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
		await page.keyboard.press('Escape')
		await expect(page.getByRole('dialog')).toBeHidden()
		await page.keyboard.press('e')
		await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible()
		await expect(rows(page)).toHaveCount(1)
		await page.getByRole('link', { name: /^Resolved/ }).click()
		await expect(rows(page).first()).toContainText('Nadia Customer')
		await inbound.close()
	})

	test('two agents on one conversation see each other viewing and typing', async ({ page, context, browser, request, baseURL }) => {
		test.slow()
		const { inbound, owner, workspace } = await inboxWithCustomer(request, baseURL!)
		const member = await registerUser(request, { name: 'Mina Member' })
		await inviteAndAccept(request, workspace.id, owner.token, member.token)
		await signIn(context, baseURL!, owner.token)
		const memberContext = await browser.newContext({ baseURL })
		await signIn(memberContext, baseURL!, member.token)
		const memberPage = await memberContext.newPage()
		const memberProblems = watchConsole(memberPage)
		await Promise.all([page.goto('/en-us/dashboard/conversations?conversation=1'), memberPage.goto('/en-us/dashboard/conversations?conversation=1')])
		await Promise.all([waitForHydration(page), waitForHydration(memberPage)])

		await expect(memberPage.getByText('Also viewing: Olga Owner')).toBeVisible()
		await expect(page.getByText('Also viewing: Mina Member')).toBeVisible()
		await composer(page).pressSequentially('Looking into it')
		await expect(memberPage.getByText('Typing: Olga Owner…')).toBeVisible()

		// Viewing is being on the conversation's presence channel: leaving it is what the others see.
		await memberPage.goto('/en-us/dashboard/contacts')
		await waitForHydration(memberPage)
		await expect(page.getByText('Also viewing: Mina Member')).toHaveCount(0)
		// Assigned to a teammate: they hear of it wherever they are in the dashboard.
		await page.locator('header summary', { hasText: 'Assign' }).click()
		await page.getByRole('form', { name: 'Assignee' }).getByRole('button', { name: 'Mina Member' }).click()
		await expect(page.locator('header').getByText('Assigned to Mina Member')).toBeVisible()
		await expect(memberPage.getByText(/^Conversation #1 with .+ was assigned to you$/)).toBeVisible()
		await memberContext.close()
		expect(memberProblems, 'console errors of the second browser').toEqual([])
		await inbound.close()
	})

	test('another workspace’s agent sees nothing of it', async ({ page, context, request, baseURL }) => {
		const { inbound, workspace } = await inboxWithCustomer(request, baseURL!)
		const outsider = await registerUser(request, { name: 'Otto Outsider' })
		await createWorkspace(request, outsider.token, 'Elsewhere')
		await signIn(context, baseURL!, outsider.token)
		// Reached by a link inside the app, the inbox loads its words before it shows.
		await page.goto('/en-us/dashboard/contacts')
		await waitForHydration(page)
		await page.getByRole('link', { name: 'Conversations', exact: true }).click()
		await expect(page.getByText('No open conversations. Well done!')).toBeVisible()
		await page.goto('/en-us/dashboard/conversations?conversation=1')
		await expect(page.getByText('This conversation does not exist in this workspace.')).toBeVisible()
		await expect(page.getByText('Hello, my order is late')).toHaveCount(0)
		const foreign = await request.get(`/v1/workspaces/${workspace.id}/conversations/1`, { headers: { Authorization: `Bearer ${outsider.token}` } })
		expect(foreign.status()).toBe(404)
		await inbound.close()
	})

	test('the inbox’s words are served to browsers apart from every page’s, the API’s own namespaces not at all', async ({ request }) => {
		const inbox = await request.get('/_i18n/ar-eg/inbox.json')
		expect(inbox.status()).toBe(200)
		expect(((await inbox.json()) as { ui: { title: string } }).ui.title).toBe('المحادثات')
		expect((await request.get('/_i18n/ar-eg/mail.json')).status()).toBe(404)
		expect((await request.get('/_i18n/de-de/inbox.json')).status()).toBe(404)
	})

	for (const locale of ['en-us', 'ar-eg'] as const) {
		test(`the inbox is accessible (${locale})`, async ({ page, context, request, baseURL }) => {
			test.slow()
			const { inbound, owner } = await inboxWithCustomer(request, baseURL!, { locale })
			await signIn(context, baseURL!, owner.token)
			for (const path of ['/conversations', '/conversations?conversation=1']) {
				await page.goto(`/${locale}/dashboard${path}`)
				await waitForHydration(page)
				await expectAccessible(page)
			}
			await inbound.close()
		})
	}
})

test.describe('the inbox without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('in Arabic: open, assign, reply, note, snooze, resolve and bulk actions are plain forms', async ({ page, context, request, baseURL }) => {
		test.slow()
		const { inbound, owner, channel } = await inboxWithCustomer(request, baseURL!, { owner: 'أمينة', locale: 'ar-eg' })
		await customerWrites(inbound, channel, 'كريم', 'عندي سؤال عن الطلب')
		await signIn(context, baseURL!, owner.token)
		await page.goto('/ar-eg/dashboard/conversations')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(rows(page)).toHaveCount(2)

		await rows(page).filter({ hasText: 'Nadia Customer' }).getByRole('link').click()
		await expect(thread(page)).toContainText('Hello, my order is late')

		await page.getByRole('button', { name: 'أسندها ليّا' }).click()
		await expect(page.locator('header').getByText('مسندة لـ أمينة')).toBeVisible()

		// An empty reply is refused beside the field, not sent.
		await page.getByRole('button', { name: 'ابعت' }).click()
		await expect(page.locator('#composer-error')).toBeVisible()

		await composer(page).fill('هنشحنه النهارده')
		await page.getByRole('button', { name: 'ابعت' }).click()
		await expect(page.getByRole('article', { name: 'رد من أمينة' })).toContainText('هنشحنه النهارده')

		// The kind is a radio button: without JavaScript the form says which one it sends by CSS alone.
		await page.getByRole('radio', { name: 'ملاحظة خاصة' }).check()
		await composer(page).fill('العميل مستعجل')
		await page.getByRole('button', { name: 'ضيف الملاحظة' }).click()
		const note = page.getByRole('article', { name: 'ملاحظة خاصة من أمينة' })
		await expect(note).toContainText('العميل مستعجل')

		await page.getByText('أجّل', { exact: true }).first().click()
		await page.getByRole('button', { name: 'لمدة ساعة' }).click()
		await expect(page.locator('header').getByText('مؤجّلة')).toBeVisible()
		await page.getByRole('button', { name: 'افتحها تاني' }).click()
		await page.getByRole('button', { name: 'اتحلّت' }).click()
		await expect(page.getByRole('button', { name: 'افتحها تاني' })).toBeVisible()

		await page.goto('/ar-eg/dashboard/conversations?status=resolved')
		await expect(rows(page)).toHaveCount(1)
		await page.goto('/ar-eg/dashboard/conversations')
		await rows(page).first().getByRole('checkbox').check()
		await page.getByLabel('مع المحادثات المحددة:').selectOption('status:pending')
		await page.getByRole('button', { name: 'تطبيق' }).click()
		await expect(page.getByText('محادثات اتحدّثت: 1')).toBeVisible()
		await expect(rows(page)).toHaveCount(0)
		await inbound.close()
	})
})
