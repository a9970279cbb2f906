import { type Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures.ts'
import { signIn } from './accounts.ts'
import { endsOnTheRight } from './bidi-support.ts'
import { agentOnVisitorChannel, agentTypesUntilShown, linkChannelOf } from './link-support.ts'
import { isSameDocument, markDocument, realtimeSdk, subscriptionCount } from './realtime-support.ts'
import { expectAccessible } from './accessibility.ts'

// A reply's status moves when the sending job has had the provider's answer and its event has reached the page: on CI's
// loaded two cores, with the other worker's accessibility checks beside it, that once took longer than the usual 10 s.
const sending = { timeout: 20_000 }

const thread = (page: Page) => page.locator('ol li')
// A link whose team is never open, with an away reply's words (shown on the page, not sent).
const closedWithAway = (text: string) => ({
	businessHours: { days: [[], [], [], [], [], [], []], holidays: [] },
	autoReplies: { away: { enabled: false, text, translations: {} } },
})

test.describe('the link page with JavaScript', () => {
	test.slow()

	test('a visitor writes, the inbox has it, a reply arrives live, a note never does, typing shows both ways', async ({ browser, request, baseURL }) => {
		const link = await linkChannelOf(request, { settings: { greeting: 'Hello! Ask us anything.', askName: true } })
		// The visitor has no account: a browser of their own.
		const visitor = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '10.200.0.1' } })
		const page = await visitor.newPage()
		await page.goto(`/en-us/c/${link.slug}`)
		await waitForHydration(page)
		await expect(page.getByRole('heading', { level: 1, name: 'Acme Support' })).toBeVisible()
		await expect(page.getByText('Hello! Ask us anything.')).toBeVisible()
		await expect(page.getByText('No messages yet: say hello!')).toBeVisible()
		await expectAccessible(page)

		await page.getByLabel('Your name').fill('Nadia Visitor')
		await page.getByLabel('Your message').fill('Hello! <b>not bold</b> see https://example.com/order/42.')
		await page.getByRole('button', { name: 'Send' }).click()
		await expect(thread(page)).toHaveCount(1)
		await expect(thread(page).first()).toContainText('Hello! <b>not bold</b> see https://example.com/order/42.')
		const link42 = thread(page).first().getByRole('link', { name: 'https://example.com/order/42' })
		await expect(link42).toHaveAttribute('href', 'https://example.com/order/42')
		await expect(link42).toHaveAttribute('rel', 'noopener noreferrer nofollow')
		await expect(link42).toHaveAttribute('target', '_blank')
		await expect(page.getByLabel('Your message')).toHaveValue('')
		// The pre-chat form asks once.
		await expect(page.getByLabel('Your name')).toHaveCount(0)

		const cookie = (await visitor.cookies()).find((entry) => entry.name === 'crm-visitor')
		expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false })
		expect(cookie?.value.length).toBeGreaterThanOrEqual(43)

		const [conversation] = await link.conversations()
		expect(conversation).toMatchObject({
			contact: { name: 'Nadia Visitor' },
			lastMessage: { excerpt: 'Hello! <b>not bold</b> see https://example.com/order/42.' },
		})

		await markDocument(page)
		const agent = await agentOnVisitorChannel(baseURL!, conversation!.id)
		try {
			await link.write(conversation!.number, 'note', 'Private: a VIP, be quick')
			await link.write(conversation!.number, 'text', 'Hi Nadia, your order ships today.')
			await expect(thread(page).last()).toContainText('Hi Nadia, your order ships today.')
			await expect(page.getByText('Private: a VIP, be quick')).toHaveCount(0)
			expect(await isSameDocument(page)).toBe(true)

			// The agent types: the visitor sees it; the visitor types: the agent hears it.
			await agentTypesUntilShown(agent, page.getByRole('status').filter({ hasText: 'Acme Support is typing…' }))
			const heard = new Promise<unknown>((resolve) => agent.channel.bind('client-typing', resolve))
			await page.getByLabel('Your message').pressSequentially('Thanks')
			expect(await heard).toMatchObject({ typing: true, from: 'visitor' })

			await page.getByLabel('Your message').press('Enter')
			await expect(thread(page)).toHaveCount(3)
			await expect(thread(page).last()).toContainText('Thanks')
		} finally {
			agent.close()
			await visitor.close()
		}
	})

	test('the rating form shows live once the team resolves; it goes when the visitor writes again or the team reopens; answered, it thanks', async ({
		browser,
		request,
		baseURL,
	}) => {
		const link = await linkChannelOf(request)
		const headers = { Authorization: `Bearer ${link.owner.token}` }
		const workspacePath = `/v1/workspaces/${link.workspace.id}`
		expect((await request.patch(`${workspacePath}/channels/${link.channelId}`, { data: { csatEnabled: true }, headers })).ok()).toBe(true)
		const visitor = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '10.200.0.7' } })
		const page = await visitor.newPage()
		try {
			await page.goto(`/en-us/c/${link.slug}`)
			await waitForHydration(page)
			await page.getByLabel('Your message').fill('Where is my parcel?')
			await page.getByRole('button', { name: 'Send', exact: true }).click()
			await expect(thread(page)).toHaveCount(1)
			const [conversation] = await link.conversations()
			// The page listens once it has a conversation: an event before that would be missed.
			await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-visitor-${conversation!.id}`)).toBeGreaterThan(0)
			await markDocument(page)
			const setStatus = async (status: 'open' | 'resolved') => {
				const changed = await request.patch(`${workspacePath}/conversations/${conversation!.number}`, { data: { status }, headers })
				expect(changed.ok()).toBe(true)
			}
			const form = page.getByRole('heading', { name: 'How did we do?' })

			await setStatus('resolved')
			await expect(form).toBeVisible()
			// The visitor writes again instead: the conversation reopens and the survey ends.
			await page.getByLabel('Your message').fill('One more thing')
			await page.getByRole('button', { name: 'Send', exact: true }).click()
			await expect(thread(page)).toHaveCount(2)
			await expect(form).toHaveCount(0)
			// Resolved again, then reopened by the team: the form comes, then goes, without a reload.
			await setStatus('resolved')
			await expect(form).toBeVisible()
			await setStatus('open')
			await expect(form).toHaveCount(0)
			await setStatus('resolved')
			await expect(form).toBeVisible()
			await page.getByLabel('5 – Excellent').check()
			await page.getByRole('button', { name: 'Send my rating' }).click()
			await expect(page.getByText('Thank you for your rating: 5/5.')).toBeVisible()
			await expect(page.getByRole('button', { name: 'Send my rating' })).toHaveCount(0)
			expect(await isSameDocument(page)).toBe(true)
		} finally {
			await visitor.close()
		}
	})

	test('in Arabic, the page is mirrored and translated; an unknown link is a 404', async ({ page, request }) => {
		const link = await linkChannelOf(request, { business: 'متجر النيل' })
		await page.goto(`/ar-eg/c/${link.slug}`)
		await waitForHydration(page)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('heading', { level: 1, name: 'متجر النيل' })).toBeVisible()
		await expect(page).toHaveTitle('تحدث مع متجر النيل')
		await page.getByLabel('رسالتك').fill('مرحبا، هل التوصيل متاح؟')
		await page.getByRole('button', { name: 'إرسال' }).click()
		await expect(thread(page).first()).toContainText('مرحبا، هل التوصيل متاح؟')
		await expect(thread(page).first()).toContainText('أنت')
		await expectAccessible(page)

		const missing = await page.goto('/ar-eg/c/no-such-link-here')
		expect(missing?.status()).toBe(404)
	})

	test('in Arabic, what the owner and the team wrote in another language keeps its order: the greeting’s full stop, the business’s name, a reply', async ({
		browser,
		request,
		baseURL,
	}) => {
		const link = await linkChannelOf(request, {
			business: 'Acme Inc.',
			settings: { greeting: 'Hello! How can we help?' },
			changes: closedWithAway('Back at 9.'),
		})
		const visitor = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '10.200.0.3' } })
		const page = await visitor.newPage()
		await page.goto(`/ar-eg/c/${link.slug}`)
		await waitForHydration(page)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		// Each ends at its right end, as its language writes it, though the page reads from the right.
		expect(await endsOnTheRight(page.getByText('Hello! How can we help?'), 'help?')).toBe(true)
		expect(await endsOnTheRight(page.getByText('Back at 9.'), '9.')).toBe(true)
		expect(await endsOnTheRight(page.getByRole('heading', { level: 1 }), 'Inc.')).toBe(true)

		await page.getByLabel('رسالتك').fill('مرحبا')
		await page.getByRole('button', { name: 'إرسال' }).click()
		await expect(thread(page)).toHaveCount(1)
		const [conversation] = await link.conversations()
		await link.write(conversation!.number, 'text', 'See you at 9.')
		await page.reload()
		await waitForHydration(page)
		expect(await endsOnTheRight(thread(page).last().locator('p'), '9.')).toBe(true)
		const agent = await agentOnVisitorChannel(baseURL!, conversation!.id)
		try {
			const typing = page.getByRole('status').filter({ hasText: 'يكتب الآن' })
			await agentTypesUntilShown(agent, typing)
			await expect(typing).toContainText('Acme Inc. يكتب الآن…')
			expect(await endsOnTheRight(typing, 'Inc.')).toBe(true)
		} finally {
			agent.close()
			await visitor.close()
		}
	})

	test('the team’s replies are marked read while the visitor’s page is visible with them, not before; the agent’s thread shows it live', async ({
		browser,
		page,
		context,
		request,
		baseURL,
	}) => {
		const link = await linkChannelOf(request)
		const visitor = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '10.200.0.4' } })
		// The visitor's tab starts in the background: document.visibilityState says so until the test brings it forward.
		await visitor.addInitScript(() => {
			Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => ((window as { inFront?: boolean }).inFront ? 'visible' : 'hidden') })
		})
		const visitorPage = await visitor.newPage()
		await visitorPage.goto(`/en-us/c/${link.slug}`)
		await visitorPage.getByLabel('Your message').fill('Where is my parcel?')
		await visitorPage.getByRole('button', { name: 'Send' }).click()
		await expect(thread(visitorPage)).toHaveCount(1)
		const [conversation] = await link.conversations()

		await signIn(context, baseURL!, link.owner.token)
		await page.goto(`/en-us/dashboard/conversations?conversation=${conversation!.number}`)
		await waitForHydration(page)
		await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${link.workspace.id}`)).toBeGreaterThan(0)
		await link.write(conversation!.number, 'text', 'It left this morning.')
		const first = page.getByRole('article').filter({ hasText: 'It left this morning.' })
		await expect(first).toContainText('Sent', sending)

		// On the visitor's page, out of sight: still only sent.
		await expect(thread(visitorPage).last()).toContainText('It left this morning.')
		await visitorPage.waitForTimeout(1500)
		await expect(first).toContainText('Sent', sending)
		await expect(first).not.toContainText('Read')

		// The visitor looks: read, and the agent sees it without reloading.
		await markDocument(page)
		await visitorPage.evaluate(() => {
			;(window as { inFront?: boolean }).inFront = true
			document.dispatchEvent(new Event('visibilitychange'))
		})
		await expect(first).toContainText('Read')
		// A reply that comes while the visitor looks is read as soon as it is on their screen.
		await link.write(conversation!.number, 'text', 'The tracking number follows.')
		await expect(thread(visitorPage).last()).toContainText('The tracking number follows.')
		await expect(page.getByRole('article').filter({ hasText: 'The tracking number follows.' })).toContainText('Read')
		expect(await isSameDocument(page)).toBe(true)
		await visitor.close()
	})
})

test('a visitor sees the team’s files: a picture in place, a document as a link, served with their cookie only', async ({ browser, request }) => {
	const link = await linkChannelOf(request)
	const visitor = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '10.200.0.9' } })
	const page = await visitor.newPage()
	await page.goto(`/fr-x/c/${link.slug}`)
	await page.getByLabel('Votre message').fill('Où est la notice ?')
	await page.getByRole('button', { name: 'Envoyer' }).click()
	await expect(thread(page)).toHaveCount(1)
	const [conversation] = await link.conversations()
	// A 1×1 PNG.
	const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64')
	await link.attach(conversation!.number, 'Voici le schéma', { name: 'schéma.png', mimeType: 'image/png', buffer: pixel })
	await link.attach(conversation!.number, '', { name: 'notice.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 notice') })
	await page.reload()
	const image = page.getByRole('img', { name: 'Image : schéma.png' })
	await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1)
	const notice = thread(page).getByRole('link', { name: /notice\.pdf/ })
	const href = (await notice.getAttribute('href'))!
	expect(href).toMatch(new RegExp(`^/fr-x/c/${link.slug}/attachments/[0-9a-f-]{36}$`))
	const mine = await page.request.get(href)
	expect(mine.status()).toBe(200)
	expect(await mine.text()).toBe('%PDF-1.4 notice')
	// Without the visitor's cookie: nothing (the API asks for a visitor token).
	const other = await browser.newContext()
	expect((await other.request.get(`${new URL(page.url()).origin}${href}`)).status()).toBe(400)
	await other.close()
	await visitor.close()
})

test.describe('the link page without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('in Arabic, the owner’s English greeting and away reply keep their full stop at their end', async ({ page, request }) => {
		const link = await linkChannelOf(request, {
			business: 'Acme Inc.',
			settings: { greeting: 'Hello! How can we help?' },
			changes: closedWithAway('Back at 9.'),
		})
		await page.goto(`/ar-eg/c/${link.slug}`)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		expect(await endsOnTheRight(page.getByText('Hello! How can we help?'), 'help?')).toBe(true)
		expect(await endsOnTheRight(page.getByText('Back at 9.'), '9.')).toBe(true)
		expect(await endsOnTheRight(page.getByRole('heading', { level: 1 }), 'Inc.')).toBe(true)
	})

	test('the away reply’s words show while the team is closed, in the page’s language where translated, and not once it is open', async ({ page, request }) => {
		const changes = closedWithAway('Back at 9.')
		const link = await linkChannelOf(request, {
			changes: { ...changes, autoReplies: { away: { ...changes.autoReplies.away, translations: { 'fr-x': 'De retour à 9 h.' } } } },
		})
		await page.goto(`/fr-x/c/${link.slug}`)
		await expect(page.getByText('De retour à 9 h.')).toBeVisible()
		await page.goto(`/en-us/c/${link.slug}`)
		await expect(page.getByText('Back at 9.')).toBeVisible()
		const open = await request.patch(`/v1/workspaces/${link.workspace.id}/channels/${link.channelId}`, {
			data: { businessHours: null },
			headers: { Authorization: `Bearer ${link.owner.token}` },
		})
		expect(open.status()).toBe(200)
		await page.reload()
		await expect(page.getByText('No messages yet: say hello!')).toBeVisible()
		await expect(page.getByText('Back at 9.')).toHaveCount(0)
	})

	test('a visitor writes by form posts, the page reloads with the thread and the replies', async ({ page, request }) => {
		const link = await linkChannelOf(request, { settings: { askEmail: true } })
		await page.goto(`/ar-eg/c/${link.slug}`)
		await expect(page.getByText('قبل أن نبدأ')).toBeVisible()
		await page.getByLabel('بريدك الإلكتروني').fill('layla@example')
		await page.getByLabel('رسالتك').fill('سؤال عن طلبي')
		await page.getByRole('button', { name: 'إرسال' }).click()
		await expect(page.getByText('أدخل عنوان بريد إلكتروني صالحًا.')).toBeVisible()
		// What the visitor typed stays (an address the browser lets through, which the API refuses).
		await expect(page.getByLabel('رسالتك')).toHaveValue('سؤال عن طلبي')
		// The visitor's cookie comes with the first post, refused or not, and stays theirs.
		const visitorCookie = async () => (await page.context().cookies()).find((cookie) => cookie.name === 'crm-visitor')?.value
		const first = await visitorCookie()
		expect(first).toBeTruthy()

		await page.getByLabel('بريدك الإلكتروني').fill('layla@example.com')
		await page.getByRole('button', { name: 'إرسال' }).click()
		await expect(page).toHaveURL(new RegExp(`/ar-eg/c/${link.slug}#latest$`))
		await expect(thread(page)).toHaveCount(1)
		await expect(thread(page).first()).toContainText('سؤال عن طلبي')
		expect(await visitorCookie()).toBe(first)

		const [conversation] = await link.conversations()
		expect(conversation).toMatchObject({ lastMessage: { excerpt: 'سؤال عن طلبي' } })
		await link.write(conversation!.number, 'text', 'Your order is on its way.')
		await link.write(conversation!.number, 'note', 'Never shown to the customer')

		await page.getByLabel('رسالتك').fill('Second message, in English')
		await page.getByRole('button', { name: 'إرسال' }).click()
		await expect(thread(page)).toHaveCount(3)
		await expect(thread(page).nth(1)).toContainText('Your order is on its way.')
		await expect(thread(page).nth(2)).toContainText('Second message, in English')
		await expect(page.getByText('Never shown to the customer')).toHaveCount(0)
	})

	test('a visitor rates the resolved conversation by a form post; the team’s thread has the rating, the page thanks them', async ({ page, request }) => {
		const link = await linkChannelOf(request)
		const headers = { Authorization: `Bearer ${link.owner.token}` }
		const workspacePath = `/v1/workspaces/${link.workspace.id}`
		expect((await request.patch(`${workspacePath}/channels/${link.channelId}`, { data: { csatEnabled: true }, headers })).ok()).toBe(true)
		await page.goto(`/en-us/c/${link.slug}`)
		await page.getByLabel('Your message').fill('Where is my parcel?')
		await page.getByRole('button', { name: 'Send', exact: true }).click()
		await expect(thread(page)).toHaveCount(1)
		const [conversation] = await link.conversations()
		const resolved = await request.patch(`${workspacePath}/conversations/${conversation!.number}`, { data: { status: 'resolved' }, headers })
		expect(resolved.ok()).toBe(true)

		await page.reload()
		await expect(page.getByRole('heading', { name: 'How did we do?' })).toBeVisible()
		await page.getByLabel('4 – Very good').check()
		await page.getByLabel('Anything to add? (optional)').fill('Quick and kind')
		await page.getByRole('button', { name: 'Send my rating' }).click()
		await expect(page.getByText('Thank you for your rating: 4/5.')).toBeVisible()
		await expect(page.getByRole('button', { name: 'Send my rating' })).toHaveCount(0)

		const messages = await request.get(`${workspacePath}/conversations/${conversation!.number}/messages`, { headers })
		const activities = ((await messages.json()) as { messages: Array<{ activity: { key: string } | null }> }).messages.map((message) => message.activity?.key)
		expect(activities).toEqual(expect.arrayContaining(['activity.satisfactionRated', 'activity.satisfactionCommented']))
	})
})
