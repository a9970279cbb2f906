import { type APIRequestContext, type Page } from '@playwright/test'
import { expectAccessible } from './accessibility.ts'
import { signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { busyInbox, inboundPath, type BusyInbox } from './inbox-support.ts'
import { markDocument, isSameDocument, realtimeSdk, subscriptionCount } from './realtime-support.ts'

// A conversation's team in the inbox (issue 30): the side panel's select, the bulk action, the
// "My teams" view and the team filter with their counts, live, in English and Arabic, with and without JavaScript.

test.describe.configure({ timeout: 90_000 })

const row = (page: Page, number: number) => page.locator(`[data-pane="list"] li[data-conversation="${number}"]`)
const rows = (page: Page) => page.locator('[data-pane="list"] li[data-conversation]')
const tab = (page: Page, name: RegExp) => page.locator('[data-pane="list"] nav').getByRole('link', { name })
const sidebarLink = (page: Page, name: string) => page.locator('#sidebar').getByRole('link', { name: new RegExp(`^${name} \\d+$`) })

type Teams = { billing: string; shipping: string }

let inbound: Awaited<ReturnType<typeof inboundPath>>
let inbox: BusyInbox
let teams: Teams

/** The busy inbox, with two teams made through the API: Billing (the owner and the teammate) and the teammate's Shipping team, in Arabic. */
async function teamInbox(request: APIRequestContext, baseURL: string, locale: 'en-us' | 'ar-eg') {
	inbound = await inboundPath(baseURL)
	inbox = await busyInbox(inbound, request, { locale, owner: locale === 'ar-eg' ? 'أمينة' : 'Olga Owner' })
	const create = async (name: string, userIds: string[]) => {
		const response = await request.post(`/v1/workspaces/${inbox.workspace.id}/teams`, {
			data: { name, userIds },
			headers: { Authorization: `Bearer ${inbox.owner.token}` },
		})
		if (!response.ok()) throw new Error(`team failed: ${response.status()} ${await response.text()}`)
		return ((await response.json()) as { id: string }).id
	}
	teams = { billing: await create('Billing', [inbox.owner.user.id, inbox.teammate.user.id]), shipping: await create('الشحن', [inbox.teammate.user.id]) }
}

test.afterEach(async () => {
	await inbound?.close()
})

/** Moves the open conversation to `team` from the side panel (on a phone, the contact pane). */
async function moveFromPanel(page: Page, team: string, labels = { panel: 'Contact details', team: 'Team', move: 'Move' }) {
	const panel = page.locator('aside[data-pane="contact"]')
	if (!(await panel.isVisible())) await page.getByRole('link', { name: labels.panel }).click()
	await panel.getByLabel(labels.team, { exact: true }).selectOption({ label: team })
	await panel.getByRole('button', { name: labels.move }).click()
}

for (const javaScript of [true, false]) {
	test.describe(javaScript ? 'with JavaScript' : 'without JavaScript', () => {
		test.use({ javaScriptEnabled: javaScript })

		test('the side panel moves a conversation to a team and out; its row, its header and its thread say so; a team deleted meanwhile is gone or refused', async ({
			page,
			request,
			baseURL,
		}) => {
			await page.setViewportSize({ width: 1440, height: 900 })
			await teamInbox(request, baseURL!, 'en-us')
			await signIn(page.context(), baseURL!, inbox.owner.token)
			await page.goto('/en-us/dashboard/conversations?conversation=3')
			if (javaScript) await waitForHydration(page)
			const panel = page.locator('aside[data-pane="contact"]')
			await expect(panel.getByLabel('Team', { exact: true })).toHaveValue('')

			await moveFromPanel(page, 'Billing')
			await expect(page.getByRole('log')).toContainText('Olga Owner moved the conversation to team Billing')
			await expect(page.locator('header').getByText('Team Billing')).toBeVisible()
			await expect(row(page, 3)).toContainText('Team Billing')
			await expect(panel.getByLabel('Team', { exact: true })).toHaveValue(teams.billing)
			await expect(sidebarLink(page, 'My teams')).toHaveText('My teams 1')
			// axe runs as a script in the page: with JavaScript only.
			if (javaScript) await expectAccessible(page)

			await moveFromPanel(page, 'No team')
			await expect(page.getByRole('log')).toContainText('Olga Owner removed it from its team')
			await expect(row(page, 3)).not.toContainText('Team Billing')
			await expect(sidebarLink(page, 'My teams')).toHaveText('My teams 0')

			// A team deleted while the page is open: with JavaScript the page reloads and no longer offers it; without, it
			// is refused (the API's 422, said in a toast) and nothing changes.
			await page.goto('/en-us/dashboard/conversations?conversation=3')
			// An event sent before the page is subscribed would be missed: wait until the server counts it.
			if (javaScript) await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${inbox.workspace.id}`)).toBe(1)
			const gone = await request.delete(`/v1/workspaces/${inbox.workspace.id}/teams/${teams.shipping}`, {
				headers: { Authorization: `Bearer ${inbox.owner.token}` },
			})
			expect(gone.status()).toBe(204)
			if (javaScript) await expect(panel.getByRole('option', { name: 'الشحن' })).toHaveCount(0)
			else {
				await moveFromPanel(page, 'الشحن')
				await expect(page.getByText('Choose a team of this workspace.')).toBeVisible()
				await expect(row(page, 3)).not.toContainText('Team')
			}
		})

		test('the bulk actions move the ticked conversations to a team; “My teams” and the team filter list them with their counts', async ({
			page,
			request,
			baseURL,
		}) => {
			await page.setViewportSize({ width: 390, height: 844 })
			await teamInbox(request, baseURL!, 'en-us')
			await signIn(page.context(), baseURL!, inbox.owner.token)
			await page.goto('/en-us/dashboard/conversations')
			if (javaScript) await waitForHydration(page)
			for (const number of [6, 7]) await row(page, number).getByRole('checkbox').check()
			await page.getByLabel('With the ticked conversations:').selectOption({ label: 'Billing' })
			await page.getByRole('button', { name: 'Apply', exact: true }).click()
			await expect(page.getByText('Conversations updated: 2')).toBeVisible()
			for (const number of [6, 7]) await expect(row(page, number)).toContainText('Team Billing')

			// "My teams" in the sidebar (a drawer on a phone): the owner's team's open conversations.
			await page.goto('/en-us/dashboard/conversations#sidebar')
			await expect(sidebarLink(page, 'My teams')).toHaveText('My teams 2')
			await sidebarLink(page, 'My teams').click()
			await expect(page).toHaveURL(/team=mine/)
			await expect(rows(page)).toHaveCount(2)
			await expect(tab(page, /^Open/)).toHaveText('Open 2')

			// The team filter, by its name, from the filters' form.
			await page.goto('/en-us/dashboard/conversations?status=all')
			if (javaScript) await waitForHydration(page)
			await page.locator('summary', { hasText: 'Filters' }).click()
			await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Billing' })
			await page.getByRole('button', { name: 'Filter', exact: true }).click()
			await expect(page).toHaveURL(new RegExp(`team=${teams.billing}`))
			await expect(rows(page)).toHaveCount(2)
			await expect(page.locator('summary', { hasText: 'Filters' })).toContainText('1')
			await page.locator('summary', { hasText: 'Filters' }).click()
			await page.getByLabel('Team', { exact: true }).selectOption({ label: 'الشحن' })
			await page.getByRole('button', { name: 'Filter', exact: true }).click()
			await expect(page.getByText('No conversation matches these filters.')).toBeVisible()
			// axe runs as a script in the page: with JavaScript only.
			if (javaScript) await expectAccessible(page)
		})
	})
}

test('a conversation moved to my team by a teammate in another session enters my “My teams” view and its counts, without a data request', async ({
	page,
	browser,
	request,
	baseURL,
}) => {
	test.slow()
	await page.setViewportSize({ width: 1440, height: 900 })
	await teamInbox(request, baseURL!, 'en-us')
	await signIn(page.context(), baseURL!, inbox.owner.token)
	await page.goto('/en-us/dashboard/conversations?team=mine')
	await waitForHydration(page)
	await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${inbox.workspace.id}`)).toBe(1)
	await expect(rows(page)).toHaveCount(0)
	await expect(tab(page, /^Open/)).toHaveText('Open 0')
	await expect(sidebarLink(page, 'My teams')).toHaveText('My teams 0')
	const data: string[] = []
	page.on('request', (sent) => {
		if (new URL(sent.url()).pathname.endsWith('.data')) data.push(sent.url())
	})
	await markDocument(page)

	const teammate = await browser.newContext()
	try {
		await signIn(teammate, baseURL!, inbox.teammate.token)
		const other = await teammate.newPage()
		await other.setViewportSize({ width: 1440, height: 900 })
		await other.goto('/ar-eg/dashboard/conversations?conversation=4')
		await waitForHydration(other)
		await moveFromPanel(other, 'Billing', { panel: 'بيانات جهة الاتصال', team: 'الفريق', move: 'نقل' })
		await expect(other.getByRole('log')).toContainText('نقل أميرة حسن المحادثة إلى فريق Billing')

		await expect(row(page, 4)).toContainText('Team Billing')
		await expect(tab(page, /^Open/)).toHaveText('Open 1')
		await expect(sidebarLink(page, 'My teams')).toHaveText('My teams 1')

		// Moved to the teammate's other team, it leaves the owner's view and its counts.
		await moveFromPanel(other, 'الشحن', { panel: 'بيانات جهة الاتصال', team: 'الفريق', move: 'نقل' })
		await expect(row(page, 4)).toHaveCount(0)
		await expect(tab(page, /^Open/)).toHaveText('Open 0')
		await expect(sidebarLink(page, 'My teams')).toHaveText('My teams 0')
	} finally {
		await teammate.close()
	}
	expect(data).toEqual([])
	expect(await isSameDocument(page)).toBe(true)
})

test('with the workspace’s rule on, an agent’s inbox holds their teams’ conversations and their own, and follows one moved into their team', async ({
	page,
	request,
	baseURL,
}) => {
	test.slow()
	await teamInbox(request, baseURL!, 'en-us')
	const owner = { headers: { Authorization: `Bearer ${inbox.owner.token}` } }
	expect((await request.patch(`/v1/workspaces/${inbox.workspace.id}`, { data: { agentsSeeOwnTeams: true }, ...owner })).ok()).toBe(true)
	await page.setViewportSize({ width: 1440, height: 900 })
	await signIn(page.context(), baseURL!, inbox.teammate.token)
	await page.goto('/ar-eg/dashboard/conversations?status=all')
	await waitForHydration(page)
	// The two assigned to them, no team's yet; the sidebar counts nobody's among their teams' only.
	await expect(rows(page)).toHaveCount(2)
	await expect(row(page, 1)).toBeVisible()
	await expect(row(page, 2)).toBeVisible()
	await expect(sidebarLink(page, 'من غير مسؤول')).toHaveText('من غير مسؤول 0')
	// Their page may not hear the workspace's channel; it is told on its own.
	const sdk = realtimeSdk(baseURL!)
	await expect.poll(() => subscriptionCount(sdk, encodeURIComponent(`#server-to-user-${inbox.teammate.user.id}`))).toBe(1)
	expect(await subscriptionCount(sdk, `private-workspace-${inbox.workspace.id}`)).toBe(0)
	const moved = await request.patch(`/v1/workspaces/${inbox.workspace.id}/conversations/4`, { data: { teamId: teams.shipping }, ...owner })
	expect(moved.ok()).toBe(true)
	await expect(row(page, 4)).toBeVisible()
	await expect(rows(page)).toHaveCount(3)
	// A conversation of no team of theirs is one that does not exist.
	await page.goto('/ar-eg/dashboard/conversations?status=all&conversation=5')
	await expect(rows(page)).toHaveCount(3)
	await expect(page.getByRole('log')).toHaveCount(0)
})

test('in Arabic on a phone, the side panel’s team, “My teams” and the filter read right to left', async ({ page, request, baseURL }) => {
	await page.setViewportSize({ width: 390, height: 844 })
	await teamInbox(request, baseURL!, 'ar-eg')
	await signIn(page.context(), baseURL!, inbox.owner.token)
	await page.goto('/ar-eg/dashboard/conversations?conversation=2&pane=contact')
	await waitForHydration(page)
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await moveFromPanel(page, 'Billing', { panel: 'بيانات جهة الاتصال', team: 'الفريق', move: 'نقل' })
	await expect(page.locator('aside[data-pane="contact"]').getByLabel('الفريق', { exact: true })).toHaveValue(teams.billing)
	await page.getByRole('link', { name: 'رجوع للمحادثة' }).click()
	await expect(page.getByRole('log')).toContainText('نقل أمينة المحادثة إلى فريق Billing')
	await expectAccessible(page)

	await page.goto('/ar-eg/dashboard/conversations#sidebar')
	await expect(sidebarLink(page, 'فرقي')).toHaveText('فرقي 1')
	await sidebarLink(page, 'فرقي').click()
	await expect(rows(page)).toHaveCount(1)
	await expect(row(page, 2)).toContainText('فريق Billing')
	await expectAccessible(page)
})
