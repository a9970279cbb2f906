import { type APIRequestContext, type Page } from '@playwright/test'
import { registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf, visitorWrites } from './link-support.ts'
import { inviteAndAccept, isSameDocument, markDocument, realtimeSdk, subscriptionCount } from './realtime-support.ts'
import { expectAccessible } from './accessibility.ts'

/** A workspace with a link channel and activity today: three conversations, one answered and resolved, and an agent. */
async function busyWorkspace(request: APIRequestContext) {
	const link = await linkChannelOf(request)
	for (const body of ['Where is my order?', 'Do you ship abroad?', 'Hello?']) await visitorWrites(request, link.slug, body)
	const conversations = await link.conversations()
	const first = conversations.find((conversation) => conversation.lastMessage?.excerpt === 'Where is my order?')!
	await link.write(first.number, 'text', 'It ships today.')
	const headers = { Authorization: `Bearer ${link.owner.token}` }
	const resolved = await request.patch(`/v1/workspaces/${link.workspace.id}/conversations/${first.number}`, { data: { status: 'resolved' }, headers })
	if (!resolved.ok()) throw new Error(`resolve failed: ${resolved.status()} ${await resolved.text()}`)
	const label = await request.post(`/v1/workspaces/${link.workspace.id}/labels`, { data: { title: 'vip', color: '#aa3355' }, headers })
	if (!label.ok()) throw new Error(`label failed: ${label.status()} ${await label.text()}`)
	const agent = await registerUser(request, { name: 'Ada Agent' })
	await inviteAndAccept(request, link.workspace.id, link.owner.token, agent.token)
	// A report recomputes its workspace's stale roll-ups before reading them (decision 013): this only holds the data the tests assume.
	await expect
		.poll(
			async () => {
				const report = await request.get(`/v1/workspaces/${link.workspace.id}/reports?preset=7d`, { headers })
				const { figures } = (await report.json()) as { figures: { opened: { value: number }; resolved: { value: number } } }
				return [figures.opened.value, figures.resolved.value]
			},
			{ timeout: 20_000, intervals: [1_000] },
		)
		.toEqual([3, 1])
	return { ...link, agent, labelId: ((await label.json()) as { id: string }).id }
}

/** The days a named period covers today, as the API resolves it in the workspace's time zone. */
async function rangeOf(request: APIRequestContext, preset: string) {
	const answer = await request.get(`/v1/workspaces/${busy.workspace.id}/reports?preset=${preset}`, { headers: { Authorization: `Bearer ${busy.owner.token}` } })
	return ((await answer.json()) as { range: { from: string; to: string } }).range
}

/** A day some days before another (`YYYY-MM-DD`). */
const daysBefore = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10)

const figure = (page: Page, key: string) => page.locator(`[data-figure="${key}"]`)
/** A figure card's value alone. */
const value = (page: Page, key: string) => figure(page, key).locator('[data-value]')

let busy: Awaited<ReturnType<typeof busyWorkspace>>

// One workspace for the file's tests, which only read it.
test.beforeAll(async ({ request }) => {
	test.setTimeout(60_000)
	busy = await busyWorkspace(request)
})

test.describe('reports with JavaScript', () => {
	test.slow()

	test('in English: figures against the previous period, four named charts with their tables, filters applied on change, CSV', async ({
		page,
		context,
		baseURL,
	}) => {
		const link = busy
		await signIn(context, baseURL!, link.owner.token)
		// Reached by a link from another page: the reports' own words load then.
		await page.goto('/en-us/dashboard/contacts')
		await waitForHydration(page)
		await page.getByRole('navigation').getByRole('link', { name: 'Overview' }).click()
		await expect(page).toHaveURL('/en-us/dashboard')

		// An agent invited, contacts (the visitors) and a channel: the checklist has given way to the reports.
		await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toBeVisible()
		await expect(page.getByRole('heading', { name: /Getting started/ })).toHaveCount(0)
		await expect(value(page, 'opened')).toHaveText('3')
		// Nothing in the week before: no percentage, the previous value said plainly.
		await expect(figure(page, 'opened')).toContainText('Previous period: 0')
		await expect(value(page, 'resolved')).toHaveText('1')
		await expect(value(page, 'openNow')).toHaveText('2')
		await expect(figure(page, 'openNow')).toContainText('Live, whatever the period')
		await expect(value(page, 'messagesIn')).toHaveText('3')
		await expect(value(page, 'messagesOut')).toHaveText('1')
		await expect(value(page, 'firstResponseMedian')).toHaveText(/\d+ (sec|min)/)

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
		await page.getByLabel('Period', { exact: true }).selectOption('today')
		await expect(page).toHaveURL(/preset=today/)
		await expect(value(page, 'opened')).toHaveText('3')

		// Three months are drawn by week: a row a week in the table, each naming its first and last day, and the weekly CSV.
		const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10)
		await page.goto(`/en-us/dashboard?preset=custom&from=${day(90)}&to=${day(0)}`)
		await expect(page.getByText('A range this long is drawn by week.')).toBeVisible()
		await expect(page.getByRole('img', { name: 'Conversations per week' })).toBeVisible()
		await expect(page.getByRole('img', { name: 'First response per week (median)' })).toBeVisible()
		const weekly = page.getByRole('region', { name: 'Conversations per week' })
		await weekly.getByText('Show the numbers as a table').click()
		const weeks = weekly.getByRole('table', { name: 'Conversations per week' })
		await expect(weeks.getByRole('columnheader').first()).toHaveText('Week')
		const mondays = Math.ceil((91 + ((new Date(`${day(90)}T00:00:00Z`).getUTCDay() + 6) % 7)) / 7)
		await expect(weeks.getByRole('row')).toHaveCount(mondays + 1)
		await expect(weeks.getByRole('row').nth(1)).toContainText(/ to /)
		const weeklyCsv = await page.request.get((await weekly.getByRole('link', { name: /Download as CSV/ }).getAttribute('href'))!)
		expect((await weeklyCsv.text()).split('\r\n')[0]).toBe('from,to,opened,resolved,messages_in,messages_out,first_response_median_seconds')
		await expectAccessible(page)
	})

	test('choosing a period fills From and To; typing a date makes the period custom; each applied at once', async ({ page, context, request, baseURL }) => {
		await signIn(context, baseURL!, busy.owner.token)
		const [week, month] = [await rangeOf(request, '7d'), await rangeOf(request, '30d')]
		await page.goto('/en-us/dashboard')
		await waitForHydration(page)
		const [period, from, to] = [page.getByLabel('Period', { exact: true }), page.getByLabel('From', { exact: true }), page.getByLabel('To', { exact: true })]
		await expect(from).toHaveValue(week.from)
		await expect(to).toHaveValue(week.to)

		await period.selectOption('30d')
		await expect(page).toHaveURL(/preset=30d/)
		await expect(from).toHaveValue(month.from)
		await expect(to).toHaveValue(month.to)
		await expect(period).toHaveValue('30d')

		// A week that ended three days ago: nothing opened in it.
		await from.fill(daysBefore(week.to, 10))
		await expect(period).toHaveValue('custom')
		await to.fill(daysBefore(week.to, 3))
		await expect(value(page, 'opened')).toHaveText('0')
		await expect(period).toHaveValue('custom')
		await expect(from).toHaveValue(daysBefore(week.to, 10))
		await expect(to).toHaveValue(daysBefore(week.to, 3))
	})

	test('open now is live: a new conversation shows without a reload', async ({ page, context, request, baseURL }) => {
		const link = await linkChannelOf(request)
		await visitorWrites(request, link.slug, 'Anyone there?')
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/en-us/dashboard')
		await waitForHydration(page)
		// Alone in the workspace: the checklist stays above the reports.
		await expect(page.getByRole('heading', { name: 'Getting started: 2 of 3 done' })).toBeVisible()
		await expect(value(page, 'openNow')).toHaveText('1')
		// Live once the page's socket is on the workspace's channel: what happens before that is in the page itself.
		await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${link.workspace.id}`)).toBe(1)
		await markDocument(page)
		await visitorWrites(request, link.slug, 'One more thing')
		await expect(value(page, 'openNow')).toHaveText('2')
		expect(await isSameDocument(page)).toBe(true)
	})

	test('in Arabic: mirrored, translated, the days running from the right', async ({ page, context, baseURL }) => {
		const link = busy
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/ar-eg/dashboard')
		await waitForHydration(page)
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('heading', { level: 2, name: 'التقارير' })).toBeVisible()
		await expect(value(page, 'opened')).toHaveText('٣')
		await expect(page.getByRole('img', { name: 'المحادثات في كل يوم' })).toBeVisible()
		await expect(page.getByRole('img', { name: 'الرسائل الواردة حسب اليوم والساعة' })).toBeVisible()
		// The first day's bar stands to the right of the last day's.
		const bars = page.locator('svg[data-chart="chart-conversations"] rect[data-series="opened"]')
		const [first, last] = [await bars.first().boundingBox(), await bars.last().boundingBox()]
		expect(first!.x).toBeGreaterThan(last!.x)
		await expectAccessible(page)
	})

	test('an agent sees their own work: no agent filter, their own row', async ({ page, context, baseURL }) => {
		await signIn(context, baseURL!, busy.agent.token)
		await page.goto('/en-us/dashboard')
		await waitForHydration(page)
		await expect(page.getByRole('heading', { level: 2, name: 'Reports' })).toBeVisible()
		await expect(page.getByRole('combobox', { name: 'Agent' })).toHaveCount(0)
		const agents = page.getByRole('table', { name: 'By agent' })
		await expect(agents.getByRole('row', { name: /Ada Agent/ })).toBeVisible()
		await expect(agents.getByRole('row', { name: /Sam Tester/ })).toHaveCount(0)
		await expect(figure(page, 'newContacts')).toContainText('Every channel, agent, team and label')
		await expect(figure(page, 'campaignSent')).toContainText('Every agent, team and label')

		// Another member's work, asked for by hand: the API's refusal, in words, on the page and for the CSV.
		await page.goto(`/en-us/dashboard?agentId=${busy.owner.user.id}`)
		await expect(page.getByRole('alert')).toContainText('Agents see the reports of their own work only.')
		await page.goto(`/en-us/dashboard/reports/export?table=agents&agentId=${busy.owner.user.id}`)
		await expect(page).toHaveURL(/\/en-us\/dashboard\?/)
		await expect(page.getByText('The CSV could not be downloaded')).toBeVisible()
	})
})

test.describe('reports without JavaScript', () => {
	// axe runs in the page's script: the same server HTML is checked by the tests with JavaScript above.
	test.use({ javaScriptEnabled: false })

	test('in Arabic: custom dates by a plain form post, and dates the API refuses are said in Arabic, the form keeping them', async ({
		page,
		context,
		baseURL,
	}) => {
		const link = busy
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/ar-eg/dashboard')
		await expect(page.getByRole('heading', { level: 2, name: 'التقارير' })).toBeVisible()
		await expect(page.getByRole('img', { name: 'المحادثات في كل يوم' })).toBeVisible()

		// Dates typed under the period shown ("last 7 days"), then the form's one button.
		const today = new Date().toISOString().slice(0, 10)
		const weekAgo = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10)
		await page.getByLabel('من', { exact: true }).fill(weekAgo)
		await page.getByLabel('إلى', { exact: true }).fill(today)
		await page.getByRole('button', { name: 'تطبيق' }).click()
		await expect(page.getByLabel('الفترة', { exact: true })).toHaveValue('custom')
		await expect(page.getByLabel('من', { exact: true })).toHaveValue(weekAgo)
		await expect(page.getByRole('img', { name: 'المحادثات في كل يوم' })).toBeVisible()

		// The end before the start: the API's message, in Arabic, above the form that kept the dates.
		await page.getByLabel('من', { exact: true }).fill(today)
		await page.getByLabel('إلى', { exact: true }).fill(weekAgo)
		await page.getByRole('button', { name: 'تطبيق' }).click()
		await expect(page.getByRole('alert')).toContainText('تعذّر عرض التقرير')
		await expect(page.getByLabel('من', { exact: true })).toHaveValue(today)
		await expect(page.getByLabel('إلى', { exact: true })).toHaveValue(weekAgo)
	})

	test('in English, one Apply: typed dates are a custom range, and a period chosen shows its own dates', async ({ page, context, request, baseURL }) => {
		await signIn(context, baseURL!, busy.owner.token)
		const [week, today] = [await rangeOf(request, '7d'), await rangeOf(request, 'today')]
		await page.goto('/en-us/dashboard')
		const [period, from, to] = [page.getByLabel('Period', { exact: true }), page.getByLabel('From', { exact: true }), page.getByLabel('To', { exact: true })]
		await expect(period).toHaveValue('7d')
		await expect(from).toHaveValue(week.from)

		// Dates typed under "Last 7 days", then Apply: those dates, the period now custom.
		await from.fill(daysBefore(week.to, 10))
		await to.fill(daysBefore(week.to, 3))
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(period).toHaveValue('custom')
		await expect(from).toHaveValue(daysBefore(week.to, 10))
		await expect(to).toHaveValue(daysBefore(week.to, 3))
		await expect(value(page, 'opened')).toHaveText('0')

		// A period chosen, the old dates still in their fields, then Apply: the period, its dates shown.
		await period.selectOption('today')
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(period).toHaveValue('today')
		await expect(from).toHaveValue(today.from)
		await expect(to).toHaveValue(today.to)
		await expect(value(page, 'opened')).toHaveText('3')
	})

	test('a team chosen by the Apply button, in English and Arabic: its figures, kept in the URL, and its row by team', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const headers = { Authorization: `Bearer ${busy.owner.token}` }
		const name = 'Billing'
		const created = await request.post(`/v1/workspaces/${busy.workspace.id}/teams`, { data: { name, userIds: [] }, headers })
		expect(created.ok(), await created.text()).toBe(true)
		const team = (await created.json()) as { id: string }
		const listed = await request.get(`/v1/workspaces/${busy.workspace.id}/conversations?status=all`, { headers })
		const { conversations } = (await listed.json()) as { conversations: Array<{ number: number; lastMessage: { excerpt: string } | null }> }
		const asked = conversations.find((conversation) => conversation.lastMessage?.excerpt === 'Do you ship abroad?')!
		const moved = await request.patch(`/v1/workspaces/${busy.workspace.id}/conversations/${asked.number}`, { data: { teamId: team.id }, headers })
		expect(moved.ok(), await moved.text()).toBe(true)

		await signIn(context, baseURL!, busy.owner.token)
		await page.goto('/en-us/dashboard')
		await page.getByLabel('Team', { exact: true }).selectOption({ label: name })
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(page).toHaveURL(new RegExp(`teamId=${team.id}`))
		await expect(page.getByLabel('Team', { exact: true })).toHaveValue(team.id)
		await expect(value(page, 'opened')).toHaveText('1')
		const byTeam = page.getByRole('region', { name: 'By team' })
		await expect(byTeam.getByRole('row', { name: new RegExp(name) })).toBeVisible()

		await page.goto(`/ar-eg/dashboard?teamId=${team.id}`)
		await expect(page.getByLabel('الفريق', { exact: true })).toHaveValue(team.id)
		await expect(page.getByRole('region', { name: 'حسب الفريق' }).getByRole('row', { name: new RegExp(name) })).toBeVisible()
		await page.getByLabel('الفريق', { exact: true }).selectOption({ label: 'كل الفرق' })
		await page.getByRole('button', { name: 'تطبيق' }).click()
		await expect(page).not.toHaveURL(/teamId=[0-9a-f]/)
		await expect(value(page, 'opened')).toHaveText('٣')
	})

	test('the cards that count the whole workspace say so when a filter they cannot follow is on', async ({ page, context, baseURL }) => {
		await signIn(context, baseURL!, busy.owner.token)
		const notes = page.locator('[data-unfiltered]')
		await page.goto('/en-us/dashboard')
		await expect(value(page, 'newContacts')).toBeVisible()
		await expect(notes).toHaveCount(0)

		await page.getByLabel('Label', { exact: true }).selectOption({ label: 'vip' })
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(figure(page, 'newContacts')).toContainText('Every channel, agent, team and label: a new contact belongs to none of them yet.')
		for (const key of ['campaignSent', 'campaignDelivered'])
			await expect(figure(page, key)).toContainText('Every agent, team and label: a campaign message belongs to its channel only.')
		await expect(notes).toHaveCount(3)

		// A channel alone: campaign messages follow it, new contacts do not.
		await page.goto('/en-us/dashboard')
		await page.getByLabel('Channel', { exact: true }).selectOption({ label: 'Website' })
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(figure(page, 'newContacts').locator('[data-unfiltered]')).toBeVisible()
		await expect(notes).toHaveCount(1)

		await page.goto('/ar-eg/dashboard')
		await page.getByLabel('الموظف', { exact: true }).selectOption({ label: 'Ada Agent' })
		await page.getByRole('button', { name: 'تطبيق' }).click()
		await expect(figure(page, 'campaignSent')).toContainText('كل الموظفين والفرق والوسوم: رسالة الحملة تخص قناتها فقط.')
		await expect(notes).toHaveCount(3)
	})

	test('durations in business hours by the Apply button: the cards counted in open time say so, the exports follow', async ({ page, context, baseURL }) => {
		await signIn(context, baseURL!, busy.owner.token)
		const notes = page.locator('[data-business-hours]')
		await page.goto('/en-us/dashboard')
		await expect(value(page, 'opened')).toBeVisible()
		await expect(notes).toHaveCount(0)
		await page.getByLabel('Durations counted in', { exact: true }).selectOption({ label: 'Business hours' })
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(page).toHaveURL(/hours=business/)
		await expect(notes).toHaveCount(5)
		await expect(figure(page, 'firstResponseMedian').locator('[data-business-hours]')).toHaveText(/open time only/)
		await expect(figure(page, 'queueWaitMedian').locator('[data-business-hours]')).toHaveCount(0)
		await expect(page.locator('a[href*="table=agents"]').first()).toHaveAttribute('href', /hours=business/)

		await page.goto('/ar-eg/dashboard?hours=business')
		await expect(page.getByLabel('احتساب المدد', { exact: true })).toHaveValue('business')
		await expect(figure(page, 'resolutionMedian')).toContainText('خلال ساعات العمل')
	})

	test('in English: the period and a channel by the Apply button, then a table opened without a script', async ({ page, context, baseURL }) => {
		const link = busy
		await signIn(context, baseURL!, link.owner.token)
		await page.goto('/en-us/dashboard')
		await page.getByLabel('Period', { exact: true }).selectOption('30d')
		await page.getByLabel('Channel', { exact: true }).selectOption({ label: 'Website' })
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(page).toHaveURL(/preset=30d/)
		await expect(page).toHaveURL(/channelId=/)
		await expect(value(page, 'opened')).toHaveText('3')
		const channels = page.getByRole('region', { name: 'Conversations by channel' })
		await channels.getByText('Show the numbers as a table').click()
		await expect(channels.getByRole('table').getByRole('row', { name: /Website/ })).toBeVisible()
	})
})
