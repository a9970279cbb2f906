import crypto from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { type APIRequestContext, type Page } from '@playwright/test'
import { registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'
import { inviteAndAccept, isSameDocument, markDocument } from './realtime-support.ts'

async function expectAccessible(page: Page) {
	const results = await new AxeBuilder({ page }).analyze()
	const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
	expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([])
}

/** A visitor of the link page writes, through the API as the page's form would (a visitor token of their own). */
async function visitorWrites(request: APIRequestContext, slug: string, body: string) {
	const token = crypto.randomBytes(32).toString('base64url')
	const response = await request.post(`/v1/link/${slug}/messages`, { data: { body }, headers: { 'X-Visitor-Token': token } })
	if (!response.ok()) throw new Error(`visitor failed: ${response.status()} ${await response.text()}`)
}

/** A workspace with a link channel and activity today: three conversations, one answered and resolved. */
async function busyWorkspace(request: APIRequestContext, business?: string) {
	const link = await linkChannelOf(request, { business })
	for (const body of ['Where is my order?', 'Do you ship abroad?', 'Hello?']) await visitorWrites(request, link.slug, body)
	const conversations = await link.conversations()
	const first = conversations.find((conversation) => conversation.lastMessage?.excerpt === 'Where is my order?')!
	await link.write(first.number, 'text', 'It ships today.')
	const resolved = await request.patch(`/v1/workspaces/${link.workspace.id}/conversations/${first.number}`, { data: { status: 'resolved' }, headers: { Authorization: `Bearer ${link.owner.token}` } })
	if (!resolved.ok()) throw new Error(`resolve failed: ${resolved.status()} ${await resolved.text()}`)
	return link
}

const figure = (page: Page, key: string) => page.locator(`[data-figure="${key}"]`)

test.describe('reports with JavaScript', () => {
	test.slow()

	test('in English: figures against the previous period, four named charts with their tables, filters applied on change, CSV, open now live', async ({ page, context, request, baseURL }) => {
		const link = await busyWorkspace(request)
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/en-us/dashboard')
		await waitForHydration(page)

		// The checklist stays above the reports until its three steps are done (one member, no contact yet… the visitors are contacts).
		await expect(page.getByRole('heading', { name: /Getting started/ })).toBeVisible()
		await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toBeVisible()
		await expect(figure(page, 'opened')).toContainText('3')
		await expect(figure(page, 'resolved')).toContainText('1')
		await expect(figure(page, 'openNow')).toContainText('2')
		await expect(figure(page, 'messagesIn')).toContainText('3')
		await expect(figure(page, 'messagesOut')).toContainText('1')
		await expect(figure(page, 'firstResponseMedian')).toContainText(/sec|min/)

		for (const name of ['Conversations per day', 'First response per day (median)', 'Conversations by channel', 'Incoming messages by weekday and hour']) {
			await expect(page.getByRole('img', { name })).toBeVisible()
		}
		await expect(page.locator('svg[data-chart="chart-channels"]')).toContainText('Website')

		// The numbers behind a chart, as a table.
		const conversations = page.getByRole('region', { name: 'Conversations per day' })
		await conversations.getByText('Show the numbers as a table').click()
		const table = conversations.getByRole('table', { name: 'Conversations per day' })
		await expect(table).toBeVisible()
		await expect(table.getByRole('row')).toHaveCount(8)
		await expect(page.getByRole('table', { name: 'By agent' }).getByRole('row', { name: /Sam Tester/ })).toBeVisible()
		await expectAccessible(page)

		// Each CSV link streams the API's CSV.
		const exportLink = page.getByRole('region', { name: 'Conversations by channel' }).getByRole('link', { name: /Download as CSV/ })
		const csv = await page.request.get((await exportLink.getAttribute('href'))!)
		expect(csv.status()).toBe(200)
		expect(csv.headers()['content-type']).toMatch(/^text\/csv/)
		expect(csv.headers()['content-disposition']).toMatch(/^attachment/)
		expect(await csv.text()).toContain('Website')

		// A filter applies as soon as it changes.
		await page.getByLabel('Period').selectOption('today')
		await expect(page).toHaveURL(/preset=today/)
		await expect(figure(page, 'opened')).toContainText('3')

		// Open now is live: a new conversation arrives without a reload.
		await markDocument(page)
		await visitorWrites(request, link.slug, 'One more thing')
		await expect(figure(page, 'openNow')).toContainText('3')
		expect(await isSameDocument(page)).toBe(true)
	})

	test('in Arabic: mirrored, translated, the days running from the right', async ({ page, context, request, baseURL }) => {
		const link = await busyWorkspace(request, 'متجر النيل')
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/ar-eg/dashboard')
		await waitForHydration(page)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('heading', { level: 2, name: 'التقارير' })).toBeVisible()
		await expect(figure(page, 'opened')).toContainText('٣')
		await expect(page.getByRole('img', { name: 'المحادثات في كل يوم' })).toBeVisible()
		await expect(page.getByRole('img', { name: 'الرسائل الواردة حسب اليوم والساعة' })).toBeVisible()
		// The first day's bar stands to the right of the last day's.
		const bars = page.locator('svg[data-chart="chart-conversations"] rect[data-series="opened"]')
		const [first, last] = [await bars.first().boundingBox(), await bars.last().boundingBox()]
		expect(first!.x).toBeGreaterThan(last!.x)
		await expectAccessible(page)
	})

	test('an agent sees their own work: no agent filter, their own row', async ({ page, context, request, baseURL }) => {
		const link = await busyWorkspace(request)
		const agent = await registerUser(request, { name: 'Ada Agent' })
		await inviteAndAccept(request, link.workspace.id, link.owner.token, agent.token)
		await signIn(context, baseURL!, agent.token)
		await page.goto('/en-us/dashboard')
		await waitForHydration(page)
		await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toBeVisible()
		await expect(page.getByLabel('Agent')).toHaveCount(0)
		const agents = page.getByRole('table', { name: 'By agent' })
		await expect(agents.getByRole('row', { name: /Ada Agent/ })).toBeVisible()
		await expect(agents.getByRole('row', { name: /Sam Tester/ })).toHaveCount(0)
	})
})

test.describe('reports without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('in Arabic: custom dates by a plain form post, and dates the API refuses are said in Arabic, the form keeping them', async ({ page, context, request, baseURL }) => {
		const link = await busyWorkspace(request)
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/ar-eg/dashboard')
		await expect(page.getByRole('heading', { level: 2, name: 'التقارير' })).toBeVisible()
		await expect(page.getByRole('img', { name: 'المحادثات في كل يوم' })).toBeVisible()

		const today = new Date().toISOString().slice(0, 10)
		const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10)
		await page.getByLabel('من').fill(weekAgo)
		await page.getByLabel('إلى').fill(today)
		await page.getByRole('button', { name: 'عرض هذه التواريخ' }).click()
		await expect(page).toHaveURL(/preset=custom/)
		await expect(page.getByLabel('الفترة')).toHaveValue('custom')
		await expect(page.getByRole('img', { name: 'المحادثات في كل يوم' })).toBeVisible()

		// The end before the start: the API's message, in Arabic, above the form that kept the dates.
		await page.getByLabel('من').fill(today)
		await page.getByLabel('إلى').fill(weekAgo)
		await page.getByRole('button', { name: 'عرض هذه التواريخ' }).click()
		await expect(page.getByRole('alert')).toContainText('تعذّر عرض التقرير')
		await expect(page.getByLabel('من')).toHaveValue(today)
		await expect(page.getByLabel('إلى')).toHaveValue(weekAgo)
		await expectAccessible(page)
	})

	test('in English: the period and a channel by the Apply button, then a table opened without a script', async ({ page, context, request, baseURL }) => {
		const link = await busyWorkspace(request)
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/en-us/dashboard')
		await page.getByLabel('Period').selectOption('30d')
		await page.getByLabel('Channel').selectOption({ label: 'Website' })
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(page).toHaveURL(/preset=30d/)
		await expect(page).toHaveURL(/channelId=/)
		await expect(figure(page, 'opened')).toContainText('3')
		const channels = page.getByRole('region', { name: 'Conversations by channel' })
		await channels.getByText('Show the numbers as a table').click()
		await expect(channels.getByRole('table').getByRole('row', { name: /Website/ })).toBeVisible()
		await expectAccessible(page)
	})
})
