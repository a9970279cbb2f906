import crypto from 'node:crypto'
import path from 'node:path'
import { type Browser, type Page } from '@playwright/test'
import { type DB } from '#api/db/database.ts'
import { type NotificationValues } from '#common/notifications.ts'
import { expectAccessible } from './accessibility.ts'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { customerWrites, inboundPath, linkChannel } from './inbox-support.ts'
import { inviteAndAccept, isSameDocument, markDocument, realtimeSdk, subscriptionCount, watchConsole } from './realtime-support.ts'

/** An owner and an agent in one workspace with a chat link and a customer's conversation (#1). */
async function teamWithConversation(request: Parameters<typeof registerUser>[0], baseURL: string, options: { agentLocale?: string; customer?: string } = {}) {
	const inbound = await inboundPath(baseURL)
	const owner = await registerUser(request, { name: 'Olga Owner' })
	const agent = await registerUser(request, { name: options.agentLocale === 'ar-eg' ? 'أميرة حسن' : 'Mina Member', locale: options.agentLocale })
	await inbound.db.updateTable('users').set({ emailVerifiedAt: new Date() }).where('id', 'in', [owner.user.id, agent.user.id]).execute()
	const workspace = await createWorkspace(request, owner.token, 'Bell Co')
	await inviteAndAccept(request, workspace.id, owner.token, agent.token)
	const channel = await linkChannel(inbound.db, workspace.id)
	await customerWrites(inbound, channel, options.customer ?? 'Nadia Customer', 'Hello, my order is late')
	return { inbound, owner, agent, workspace, channel }
}

/** The owner assigns conversation `number` to the agent, through the API (the notification is the API's). */
async function assign(request: Parameters<typeof registerUser>[0], workspaceId: string, ownerToken: string, number: number, assigneeId: string) {
	const answer = await request.patch(`/v1/workspaces/${workspaceId}/conversations/${number}`, {
		data: { assigneeId },
		headers: { Authorization: `Bearer ${ownerToken}` },
	})
	expect(answer.status(), await answer.text()).toBe(200)
}

/** Older notifications written straight into the database, a minute apart before now (paging, screenshots). */
async function olderNotifications(
	db: DB,
	member: { workspaceId: string; userId: string; conversationNumber: number },
	count: number,
	values: NotificationValues,
) {
	const conversation = await db
		.selectFrom('conversations')
		.select('id')
		.where('workspaceId', '=', member.workspaceId)
		.where('number', '=', member.conversationNumber)
		.executeTakeFirstOrThrow()
	const now = Date.now()
	await db
		.insertInto('notifications')
		.values(
			Array.from({ length: count }, (_, index) => ({
				workspaceId: member.workspaceId,
				userId: member.userId,
				kind: 'message' as const,
				conversationId: conversation.id,
				values: { ...values, number: member.conversationNumber, count: index + 1 },
				createdAt: new Date(now - (count - index + 60) * 60_000),
				readAt: index % 3 === 0 ? new Date(now - 60_000) : null,
			})),
		)
		.execute()
}

const bell = (page: Page) => page.locator('header').getByRole('button', { name: /^Notifications/ })

test.describe('notifications', () => {
	test('the bell is live across two members: an assignment shows in its count, its menu and the title, and opening it reads it', async ({
		page,
		context,
		browser,
		request,
		baseURL,
	}) => {
		test.slow()
		const sdk = realtimeSdk(baseURL!)
		const { inbound, owner, agent } = await teamWithConversation(request, baseURL!)
		// The agent turned the sound on: each chime's tones are counted as Web Audio makes them.
		await inbound.db.updateTable('users').set({ notificationSound: true }).where('id', '=', agent.user.id).execute()
		await context.addInitScript(() => {
			const counted = window as unknown as { chimes: number }
			counted.chimes = 0
			const Original = window.AudioContext
			window.AudioContext = class extends Original {
				override createOscillator() {
					counted.chimes += 1
					return super.createOscillator()
				}
			}
		})
		const chimes = () => page.evaluate(() => (window as unknown as { chimes: number }).chimes)
		await signIn(context, baseURL!, agent.token)
		await page.goto('/en-us/dashboard/contacts')
		await waitForHydration(page)
		await expect(bell(page)).toHaveAccessibleName('Notifications')
		await expect(page).toHaveTitle(/^Contacts/)
		await expect(page.locator('html')).toHaveAttribute('data-realtime', 'connected')
		await expect.poll(() => subscriptionCount(sdk, encodeURIComponent(`#server-to-user-${agent.user.id}`))).toBeGreaterThan(0)
		await markDocument(page)
		// No sound for what was there when the page loaded.
		expect(await chimes()).toBe(0)

		// The owner, in another browser, assigns the conversation to the agent.
		const ownerContext = await browser.newContext({ baseURL })
		const ownerProblems = watchConsole(await ownerContext.newPage())
		await signIn(ownerContext, baseURL!, owner.token)
		const ownerPage = ownerContext.pages()[0]!
		await ownerPage.goto('/en-us/dashboard/conversations?conversation=1')
		await waitForHydration(ownerPage)
		await ownerPage.locator('header summary', { hasText: 'Assign' }).click()
		await ownerPage.getByRole('form', { name: 'Assignee' }).getByRole('button', { name: 'Mina Member' }).click()
		await expect(ownerPage.locator('header').getByText('Assigned to Mina Member')).toBeVisible()

		await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread')
		await expect(page).toHaveTitle(/^\(1\) Contacts/)
		await expect.poll(chimes).toBeGreaterThan(0)
		// The toast says it too, the name isolated (U+2068 … U+2069) as in every plain-text line.
		await expect(page.getByText(/^Conversation #1 with \u2068Nadia Customer\u2069 was assigned to you$/)).toBeVisible()

		await bell(page).click()
		const menu = page.getByRole('region', { name: 'Notifications', exact: true })
		await expect(menu.getByRole('link', { name: /Conversation #1 with Nadia Customer was assigned to you/ })).toBeVisible()
		await expect(menu.getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/en-us/dashboard/notifications')
		await expect(menu.getByRole('link', { name: 'Notification settings' })).toBeVisible()
		// The top bar and its menu (the toast beside it is sonner's, not this screen's).
		await expectAccessible(page, 'header')
		expect(await isSameDocument(page)).toBe(true)

		// Opened: its conversation, read, and the count and the title say so without a reload.
		await menu.getByRole('link', { name: /Conversation #1/ }).click()
		await expect(page).toHaveURL(/\/en-us\/dashboard\/conversations\?conversation=1$/)
		await expect(bell(page)).toHaveAccessibleName('Notifications')
		await expect(page).not.toHaveTitle(/^\(\d+\)/)
		expect(await isSameDocument(page)).toBe(true)
		const read = await inbound.db.selectFrom('notifications').select('readAt').where('userId', '=', agent.user.id).execute()
		expect(read.every((row) => row.readAt !== null)).toBe(true)
		await ownerContext.close()
		expect(ownerProblems, 'console errors of the owner’s browser').toEqual([])
		await inbound.close()
	})

	test.describe('without JavaScript', () => {
		test.use({ javaScriptEnabled: false })

		test('the page lists thirty, pages to older ones, opens one in its conversation and marks all read', async ({ page, context, request, baseURL }) => {
			const { inbound, owner, agent, workspace, channel } = await teamWithConversation(request, baseURL!)
			// Of another conversation (#2): opening #1 reads #1's only.
			await customerWrites(inbound, channel, 'Karim Buyer', 'Do you ship to Cairo?')
			await olderNotifications(inbound.db, { workspaceId: workspace.id, userId: agent.user.id, conversationNumber: 2 }, 34, { contact: 'Karim Buyer' })
			await assign(request, workspace.id, owner.token, 1, agent.user.id)
			await signIn(context, baseURL!, agent.token)

			// The bell is a link to the page.
			await page.goto('/en-us/dashboard/contacts')
			const link = page.locator('header').getByRole('link', { name: /^Notifications, \d+ unread$/ })
			await link.click()
			await expect(page).toHaveURL(/\/en-us\/dashboard\/notifications$/)
			await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible()
			const items = page.locator('main ol > li')
			await expect(items).toHaveCount(30)
			await expect(items.first()).toContainText('Conversation #1 with Nadia Customer was assigned to you')
			await expect(items.first()).toContainText('Unread:')

			await page.getByRole('link', { name: 'Older' }).click()
			await expect(items).toHaveCount(5)
			await page.getByRole('link', { name: 'Newest' }).click()
			await expect(items).toHaveCount(30)

			// Opened: its conversation, and read.
			await items.first().getByRole('link').click()
			await expect(page).toHaveURL(/\/en-us\/dashboard\/conversations\?conversation=1$/)
			const assigned = await inbound.db
				.selectFrom('notifications')
				.select('readAt')
				.where('userId', '=', agent.user.id)
				.where('kind', '=', 'assigned')
				.executeTakeFirstOrThrow()
			expect(assigned.readAt).not.toBeNull()

			await page.goto('/en-us/dashboard/notifications')
			await page.getByRole('button', { name: 'Mark all read' }).click()
			await expect(page.getByText('All notifications marked read')).toBeVisible()
			await expect(page.getByText('Nothing unread.')).toBeVisible()
			await expect(page.locator('header').getByRole('link', { name: 'Notifications' })).toBeVisible()
			await expect(page.locator('main ol > li', { hasText: 'Unread:' })).toHaveCount(0)
			await inbound.close()
		})

		test('a member with none sees the empty page', async ({ page, context, request, baseURL }) => {
			const owner = await registerUser(request, { name: 'Olga Owner' })
			await createWorkspace(request, owner.token, 'Quiet Co')
			await signIn(context, baseURL!, owner.token)
			await page.goto('/en-us/dashboard/notifications')
			await expect(page.getByText('No notifications yet.', { exact: false })).toBeVisible()
			await expect(page.getByRole('button', { name: 'Mark all read' })).toHaveCount(0)
		})

		test('a notification that is not the member’s is the page not found', async ({ page, context, request, baseURL }) => {
			const { inbound, owner, agent, workspace } = await teamWithConversation(request, baseURL!)
			await assign(request, workspace.id, owner.token, 1, agent.user.id)
			const theirs = await inbound.db.selectFrom('notifications').select('id').where('userId', '=', agent.user.id).executeTakeFirstOrThrow()
			await signIn(context, baseURL!, owner.token)
			const answer = await page.goto(`/en-us/dashboard/notifications/${theirs.id}`)
			expect(answer?.status()).toBe(404)
			const nonsense = await page.goto('/en-us/dashboard/notifications/not-a-number')
			expect(nonsense?.status()).toBe(404)
			await inbound.close()
		})

		test('the devices in Arabic: a device is listed, its test refused at a private address, and removed', async ({ page, context, request, baseURL }) => {
			const { inbound, agent } = await teamWithConversation(request, baseURL!, { agentLocale: 'ar-eg' })
			// What a browser's PushSubscription gives, at an address the guard refuses (the server does not allow private ones).
			const ecdh = crypto.createECDH('prime256v1')
			ecdh.generateKeys()
			await inbound.db
				.insertInto('pushSubscriptions')
				.values({
					userId: agent.user.id,
					endpoint: `https://127.0.0.1:9/push/${crypto.randomUUID()}`,
					p256dh: ecdh.getPublicKey().toString('base64url'),
					auth: crypto.randomBytes(16).toString('base64url'),
					userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
				})
				.execute()
			await signIn(context, baseURL!, agent.token)
			await page.goto('/ar-eg/dashboard/notifications/settings')
			await expect(page.getByRole('heading', { level: 2, name: 'إشعارات المتصفح' })).toBeVisible()
			const device = page.getByTestId('push-device')
			await expect(device).toHaveCount(1)
			await device.getByRole('button', { name: 'إرسال إشعار تجريبي' }).click()
			await expect(page.getByText('عنوان الإشعارات لهذا الجهاز غير مسموح به، فلم يُرسل شيء.')).toBeVisible()
			await page.getByTestId('push-device').getByRole('button', { name: 'إزالة' }).click()
			await expect(page.getByText('لم يعد الجهاز يستقبل الإشعارات.')).toBeVisible()
			await expect(page.getByTestId('push-device')).toHaveCount(0)
			await expect(page.getByText('لا يستقبل أي جهاز الإشعارات بعد.')).toBeVisible()
			expect(await inbound.db.selectFrom('pushSubscriptions').select('id').where('userId', '=', agent.user.id).execute()).toEqual([])
			await inbound.close()
		})

		test('the settings in Arabic: right to left, a change saved and kept', async ({ page, context, request, baseURL }) => {
			const { inbound, agent, workspace } = await teamWithConversation(request, baseURL!, { agentLocale: 'ar-eg' })
			await signIn(context, baseURL!, agent.token)
			await page.goto('/ar-eg/dashboard/profile')
			await page.getByRole('link', { name: 'إعدادات الإشعارات' }).click()
			await expect(page).toHaveURL(/\/ar-eg\/dashboard\/notifications\/settings$/)
			await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
			await expect(page.getByRole('heading', { level: 1, name: 'إعدادات الإشعارات' })).toBeVisible()
			// An agent is not offered a channel's disconnection (owners and admins reconnect channels).
			await expect(page.getByRole('rowheader')).toHaveCount(7)
			await expect(page.getByRole('rowheader', { name: 'انقطاع اتصال قناة' })).toHaveCount(0)
			const assignedByMail = page.getByRole('checkbox', { name: 'محادثة أُسندت إليّ البريد الإلكتروني' })
			await expect(assignedByMail).toBeChecked()
			await expect(page.getByRole('checkbox', { name: 'رسالة جديدة في محادثاتي البريد الإلكتروني' })).not.toBeChecked()

			await assignedByMail.uncheck()
			await page.getByRole('checkbox', { name: 'رسالة جديدة في محادثاتي إشعارات المتصفح' }).uncheck()
			await page.getByRole('checkbox', { name: 'تشغيل صوت عند وصول إشعار' }).check()
			await page.getByRole('button', { name: 'حفظ إعدادات الإشعارات' }).click()
			await expect(page.getByText('تم حفظ إعدادات الإشعارات')).toBeVisible()

			await page.reload()
			await expect(assignedByMail).not.toBeChecked()
			await expect(page.getByRole('checkbox', { name: 'رسالة جديدة في محادثاتي إشعارات المتصفح' })).not.toBeChecked()
			await expect(page.getByRole('checkbox', { name: 'محادثة أُسندت إليّ داخل التطبيق' })).toBeChecked()
			await expect(page.getByRole('checkbox', { name: 'تشغيل صوت عند وصول إشعار' })).toBeChecked()
			const saved = await inbound.db
				.selectFrom('notificationPreferences')
				.select(['kind', 'medium', 'enabled'])
				.where('userId', '=', agent.user.id)
				.where('workspaceId', '=', workspace.id)
				.orderBy('kind')
				.orderBy('medium')
				.execute()
			expect(saved).toEqual([
				{ kind: 'assigned', medium: 'email', enabled: false },
				{ kind: 'message', medium: 'push', enabled: false },
			])
			await inbound.close()
		})
	})

	test('the bell’s menu inside a phone’s screen, the page and the settings pass axe, in Arabic and English (SCREENSHOTS_DIR: every width and JavaScript off, photographed)', async ({
		browser,
		request,
		baseURL,
	}) => {
		test.slow()
		// To look at the screens: SCREENSHOTS_DIR=… photographs them at both widths, with and without JavaScript.
		const shots = process.env.SCREENSHOTS_DIR
		const shoot = (page: Page, name: string, fullPage = false) => (shots ? page.screenshot({ path: path.join(shots, name), fullPage }) : undefined)
		const { inbound, owner, agent, workspace } = await teamWithConversation(request, baseURL!, { customer: 'إيمان درويش' })
		await olderNotifications(inbound.db, { workspaceId: workspace.id, userId: agent.user.id, conversationNumber: 1 }, 4, { contact: 'إيمان درويش' })
		await assign(request, workspace.id, owner.token, 1, agent.user.id)
		for (const locale of ['en-us', 'ar-eg']) {
			for (const width of shots ? [390, 1440] : [390]) {
				for (const javaScript of shots ? [true, false] : [true]) {
					const name = `${locale}-${width}-${javaScript ? 'js' : 'nojs'}`
					const page = await screen(browser, baseURL!, agent.token, { width, javaScript })
					await page.goto(`/${locale}/dashboard/notifications`)
					if (javaScript) await waitForHydration(page)
					await shoot(page, `page-${name}.png`)
					// axe runs in the page: with JavaScript only.
					if (javaScript) await expectAccessible(page)
					await page.goto(`/${locale}/dashboard/notifications/settings`)
					if (javaScript) await waitForHydration(page)
					await shoot(page, `settings-${name}.png`, true)
					if (javaScript) await expectAccessible(page)
					if (javaScript) {
						await page.goto(`/${locale}/dashboard/contacts`)
						await waitForHydration(page)
						await page.locator('header [aria-expanded]').first().click()
						const menu = page.locator('header [role="region"]')
						await expect(menu).toBeVisible()
						// Inside the screen: nothing of the menu cut off at either side.
						const box = (await menu.boundingBox())!
						expect(box.x).toBeGreaterThanOrEqual(0)
						expect(box.x + box.width).toBeLessThanOrEqual(width)
						await shoot(page, `menu-${name}.png`)
						await expectAccessible(page, 'header')
					}
					await page.context().close()
				}
			}
		}
		await inbound.close()
	})
})

/** A signed-in browser of the given width, with or without JavaScript. */
async function screen(browser: Browser, baseURL: string, token: string, { width, javaScript }: { width: number; javaScript: boolean }) {
	const context = await browser.newContext({ baseURL, viewport: { width, height: 860 }, javaScriptEnabled: javaScript })
	await signIn(context, baseURL, token)
	return context.newPage()
}
