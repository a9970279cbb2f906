import { type Locator, type Page } from '@playwright/test'
import { signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { busyInbox, inboundPath, type BusyInbox } from './inbox-support.ts'

// A support lead's first day (issue 27): what she found in the inbox, each seen as she saw it.

// Each test first fills a day's inbox (two accounts, fourteen customers) through the API.
test.describe.configure({ timeout: 90_000 })

const rows = (page: Page) => page.locator('[data-pane="list"] li[data-conversation]')
const row = (page: Page, number: number) => page.locator(`[data-pane="list"] li[data-conversation="${number}"]`)
const composer = (page: Page) => page.locator('#composer-body')

type Box = { left: number; right: number; top: number; bottom: number }

/** The panel of the open `<details>` menu whose button says `label`, once it is open. */
async function openMenu(page: Page, label: string): Promise<Locator> {
	const menu = page.locator('details', { has: page.locator('summary', { hasText: label }) }).first()
	await menu.locator('summary').click()
	await expect(menu).toHaveAttribute('open', '')
	return menu.locator(':scope > div')
}

async function boxOf(locator: Locator): Promise<Box> {
	return locator.evaluate((element) => {
		const { left, right, top, bottom } = element.getBoundingClientRect()
		return { left, right, top, bottom }
	})
}

/** The panel and every one of its buttons lie inside the window, from edge to edge. */
async function expectInsideWindow(page: Page, panel: Locator) {
	const width = await page.evaluate(() => document.documentElement.clientWidth)
	for (const target of [panel, ...(await panel.getByRole('button').all())]) {
		const box = await boxOf(target)
		expect(box.left, await target.innerText()).toBeGreaterThanOrEqual(0)
		expect(box.right, await target.innerText()).toBeLessThanOrEqual(width)
	}
}

/** Where a piece of text starts and ends on the screen, inside `element` (its first occurrence). */
async function textBox(element: Locator, text: string): Promise<Box> {
	return element.evaluate((root, wanted) => {
		const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			const at = node.textContent!.indexOf(wanted)
			if (at < 0) continue
			const range = document.createRange()
			range.setStart(node, at)
			range.setEnd(node, at + wanted.length)
			const { left, right, top, bottom } = range.getBoundingClientRect()
			return { left, right, top, bottom }
		}
		throw new Error(`no "${wanted}" in ${root.textContent}`)
	}, text)
}

let inbox: BusyInbox
let inbound: Awaited<ReturnType<typeof inboundPath>>

async function signedIn(page: Page, request: Parameters<typeof busyInbox>[1], baseURL: string, locale: 'en-us' | 'ar-eg') {
	inbound = await inboundPath(baseURL)
	inbox = await busyInbox(inbound, request, { locale, owner: locale === 'ar-eg' ? 'أمينة' : 'Olga Owner' })
	await signIn(page.context(), baseURL, inbox.owner.token)
}

test.afterEach(async () => {
	await inbound?.close()
})

test.describe('popovers (finding 2)', () => {
	test('on a 1440 px screen, snooze, assign and labels open inside the window, under their button, and close on Escape, outside and after their action', async ({
		page,
		request,
		baseURL,
	}) => {
		test.slow()
		await page.setViewportSize({ width: 1440, height: 900 })
		await signedIn(page, request, baseURL!, 'en-us')
		await page.goto('/en-us/dashboard/conversations?conversation=1')
		await waitForHydration(page)

		for (const label of ['Snooze', 'Assign', 'Labels']) {
			const panel = await openMenu(page, label)
			await expectInsideWindow(page, panel)
			const button = await boxOf(page.locator('summary', { hasText: label }).first())
			expect((await boxOf(panel)).top).toBeGreaterThanOrEqual(button.bottom)
			await page.keyboard.press('Escape')
			await expect(panel).toBeHidden()
			await expect(page.locator('summary', { hasText: label }).first()).toBeFocused()
		}
		// A click elsewhere closes it.
		const labels = await openMenu(page, 'Labels')
		await page.locator('aside[data-pane="contact"]').click({ position: { x: 5, y: 5 } })
		await expect(labels).toBeHidden()

		// Its own action closes it and gives the focus back to its button.
		const snooze = await openMenu(page, 'Snooze')
		await snooze.getByRole('button', { name: 'For an hour' }).click()
		await expect(page.locator('header').getByText('Snoozed', { exact: true })).toBeVisible()
		await expect(snooze).toBeHidden()
		await expect(page.locator('summary', { hasText: 'Snooze' })).toBeFocused()

		const assign = await openMenu(page, 'Assign')
		await assign.getByRole('button', { name: 'Olga Owner' }).click()
		await expect(page.locator('header').getByText('Assigned to Olga Owner')).toBeVisible()
		await expect(assign).toBeHidden()
	})

	test('on an Arabic phone, the quick snooze choices are on the screen and work', async ({ page, request, baseURL }) => {
		await page.setViewportSize({ width: 390, height: 844 })
		await signedIn(page, request, baseURL!, 'ar-eg')
		await page.goto('/ar-eg/dashboard/conversations?conversation=1')
		await waitForHydration(page)
		for (const label of ['أجّل', 'إسناد', 'التصنيفات']) {
			const panel = await openMenu(page, label)
			await expectInsideWindow(page, panel)
			await page.keyboard.press('Escape')
		}
		const snooze = await openMenu(page, 'أجّل')
		await snooze.getByRole('button', { name: 'لمدة ساعة' }).click()
		await expect(page.locator('header').getByText('مؤجّلة', { exact: true })).toBeVisible()
	})

	test.describe('without JavaScript', () => {
		test.use({ javaScriptEnabled: false })
		for (const [locale, width, snoozeLabel, hour] of [
			['ar-eg', 390, 'أجّل', 'لمدة ساعة'],
			['en-us', 1440, 'Snooze', 'For an hour'],
		] as const) {
			test(`${locale} at ${width} px: the menus open inside the screen and their choices work`, async ({ page, request, baseURL }) => {
				await page.setViewportSize({ width, height: 900 })
				await signedIn(page, request, baseURL!, locale)
				await page.goto(`/${locale}/dashboard/conversations?conversation=1`)
				const panel = await openMenu(page, snoozeLabel)
				await expectInsideWindow(page, panel)
				await panel.getByRole('button', { name: hour }).click()
				await expect(page.locator('header').getByText(locale === 'ar-eg' ? 'مؤجّلة' : 'Snoozed', { exact: true })).toBeVisible()
			})
		}
	})
})

test.describe('the composer (findings 3 and 4)', () => {
	test('a private note chosen and written before the page hydrated stays a note, with its words, and Enter adds it as a note', async ({
		page,
		request,
		baseURL,
	}) => {
		await signedIn(page, request, baseURL!, 'en-us')
		// The browser's code arrives late, as on a slow phone: the agent is quicker.
		let release!: () => void
		const released = new Promise<void>((resolve) => (release = resolve))
		await page.route(/\/assets\/entry\.client-[^/]*\.js$/, async (route) => {
			await released
			await route.continue()
		})
		await page.goto('/en-us/dashboard/conversations?conversation=1', { waitUntil: 'commit' })
		await expect(composer(page)).toBeVisible()
		expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined()
		await page.locator('form[aria-label="Write a message"] label', { hasText: 'Private note' }).click()
		await composer(page).fill('Internal: refund approved by finance')
		// Visibly a note before it is sent: its button's words and its colour.
		await expect(page.getByRole('button', { name: 'Add the note' })).toBeVisible()
		await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeHidden()
		release()
		await waitForHydration(page)
		// Whatever renders after hydration, the choice and the words stay.
		await page.waitForTimeout(300)
		await expect(page.getByRole('radio', { name: 'Private note' })).toBeChecked()
		await expect(composer(page)).toHaveValue('Internal: refund approved by finance')
		await expect(page.getByRole('button', { name: 'Add the note' })).toBeVisible()
		await composer(page).press('Enter')
		await expect(page.getByRole('article', { name: 'Private note by Olga Owner' }).filter({ hasText: 'refund approved' })).toBeVisible()
		await expect(page.getByRole('article', { name: 'Reply by Olga Owner' }).filter({ hasText: 'refund approved' })).toHaveCount(0)
	})

	test('"/" with a short code that matches nothing says so, and Enter does not send it', async ({ page, request, baseURL }) => {
		await signedIn(page, request, baseURL!, 'en-us')
		const created = await request.post(`/v1/workspaces/${inbox.workspace.id}/canned-responses`, {
			data: { shortCode: 'thanks', content: 'Thank you for waiting!' },
			headers: { Authorization: `Bearer ${inbox.owner.token}` },
		})
		expect(created.status()).toBe(201)
		await page.goto('/en-us/dashboard/conversations?conversation=6')
		await waitForHydration(page)
		await composer(page).pressSequentially('/nomatch')
		await expect(page.getByRole('status').filter({ hasText: 'No canned response matches' })).toBeVisible()
		await composer(page).press('Enter')
		await page.waitForTimeout(500)
		await expect(composer(page)).toHaveValue('/nomatch')
		const thread = await request.get(`/v1/workspaces/${inbox.workspace.id}/conversations/6/messages`, {
			headers: { Authorization: `Bearer ${inbox.owner.token}` },
		})
		expect(((await thread.json()) as { messages: Array<{ body: string }> }).messages.map((message) => message.body)).not.toContain('/nomatch')
		// A code that matches is chosen by Enter, even typed faster than the answer comes.
		await composer(page).fill('')
		await composer(page).pressSequentially('/tha')
		await composer(page).press('Enter')
		await expect(composer(page)).toHaveValue('Thank you for waiting!')
	})

	test.describe('without JavaScript', () => {
		test.use({ javaScriptEnabled: false })
		test('a refused note comes back as a note, with what was written', async ({ page, request, baseURL }) => {
			await signedIn(page, request, baseURL!, 'en-us')
			await page.goto('/en-us/dashboard/conversations?conversation=1')
			await page.getByRole('radio', { name: 'Private note' }).check()
			await composer(page).fill('   ')
			await page.getByRole('button', { name: 'Add the note' }).click()
			await expect(page.locator('#composer-error')).toBeVisible()
			await expect(page.getByRole('radio', { name: 'Private note' })).toBeChecked()
			await expect(page.getByRole('button', { name: 'Add the note' })).toBeVisible()
		})
	})
})

test.describe('directions (finding 6)', () => {
	test('in Arabic, "#1" stays beside the name, English excerpts show their start and names keep their place', async ({ page, request, baseURL }) => {
		await page.setViewportSize({ width: 1440, height: 900 })
		await signedIn(page, request, baseURL!, 'ar-eg')
		await page.goto('/ar-eg/dashboard/conversations?conversation=2')
		await waitForHydration(page)
		// The header of إيمان درويش's conversation: "#2" reads left to right, "#" before "2".
		const title = page.locator('header h2')
		const hash = await textBox(title, '#')
		const digit = await textBox(title, '2')
		expect(hash.right).toBeLessThanOrEqual(digit.left + 1)
		// An English excerpt in the Arabic list shows its first words.
		const excerpt = row(page, 7).locator('[dir="auto"]').last()
		const start = await textBox(excerpt, 'The tracking')
		const box = await boxOf(excerpt)
		expect(start.left).toBeGreaterThanOrEqual(box.left - 1)
		expect(start.right).toBeLessThanOrEqual(box.right + 1)
		// A label's title of both directions keeps its own order: "VIP_عاجل", the Latin start first, not the Arabic end.
		const chip = row(page, 1).getByText('VIP_عاجل')
		expect((await textBox(chip, '_')).left).toBeGreaterThanOrEqual((await textBox(chip, 'P')).right - 1)
	})

	test('in English, the time after an Arabic name stays after it in the activity lines', async ({ page, request, baseURL }) => {
		await page.setViewportSize({ width: 1440, height: 900 })
		await signedIn(page, request, baseURL!, 'en-us')
		await page.goto('/en-us/dashboard/conversations?conversation=1')
		await waitForHydration(page)
		const line = page.locator('[data-kind="activity"]').filter({ hasText: 'assigned this to' })
		await expect(line).toContainText('Olga Owner assigned this to أميرة حسن')
		const name = await textBox(line, 'أميرة حسن')
		const time = await boxOf(line.locator('time'))
		expect(time.top, 'on the same line').toBeLessThan(name.bottom)
		expect(time.left).toBeGreaterThan(name.right)
		const presence = page.locator('[data-pane="thread"] header p[aria-live]')
		expect((await textBox(presence, 'أميرة حسن')).left).toBeGreaterThan((await textBox(presence, 'Assigned to')).right)
	})
})

test('the list names who replied: the agent, or "You" for one\'s own (finding 7)', async ({ page, request, baseURL }) => {
	await signedIn(page, request, baseURL!, 'en-us')
	await page.goto('/en-us/dashboard/conversations')
	await expect(row(page, 4)).toContainText('أميرة حسن:')
	await expect(row(page, 4)).not.toContainText('You:')
	await expect(row(page, 3)).toContainText('You:')
	await expect(row(page, 6)).not.toContainText(':')
})

test('a snoozed conversation is resolved at once, without reopening it (finding 12)', async ({ page, request, baseURL }) => {
	await signedIn(page, request, baseURL!, 'en-us')
	await page.goto('/en-us/dashboard/conversations?status=snoozed&conversation=5')
	await waitForHydration(page)
	await expect(page.locator('header').getByText('Snoozed', { exact: true })).toBeVisible()
	await page.getByRole('button', { name: 'Resolve' }).click()
	await expect(page.locator('header').getByText('Resolved', { exact: true })).toBeVisible()
	const activities = await request.get(`/v1/workspaces/${inbox.workspace.id}/conversations/5/messages`, {
		headers: { Authorization: `Bearer ${inbox.owner.token}` },
	})
	const keys = ((await activities.json()) as { messages: Array<{ activity: { key: string } | null }> }).messages.flatMap((message) =>
		message.activity ? [message.activity.key] : [],
	)
	expect(keys).not.toContain('activity.reopened')
	expect(keys.at(-1)).toBe('activity.resolved')
})

test.describe('the inbox of a busy day (finding 13)', () => {
	test('at 1440 × 900 ten conversations show, the filters show their whole value, and the tabs count what the search finds', async ({
		page,
		request,
		baseURL,
	}) => {
		await page.setViewportSize({ width: 1440, height: 900 })
		await signedIn(page, request, baseURL!, 'en-us')
		await page.goto('/en-us/dashboard/conversations')
		await waitForHydration(page)
		await expect(rows(page)).toHaveCount(13)
		const visible = await rows(page).evaluateAll((items) => {
			const viewport = document.documentElement.clientHeight
			return items.filter((item) => {
				const { top, bottom } = item.getBoundingClientRect()
				let clip = { top: 0, bottom: viewport }
				for (let parent = item.parentElement; parent; parent = parent.parentElement) {
					if (getComputedStyle(parent).overflowY === 'visible') continue
					const box = parent.getBoundingClientRect()
					clip = { top: Math.max(clip.top, box.top), bottom: Math.min(clip.bottom, box.bottom) }
				}
				return top >= clip.top - 1 && bottom <= clip.bottom + 1
			}).length
		})
		expect(visible).toBeGreaterThanOrEqual(10)

		// Each filter shows its chosen value whole.
		await page.goto('/en-us/dashboard/conversations?sort=created&assignee=unassigned')
		await waitForHydration(page)
		await page.locator('summary', { hasText: 'Filters' }).click()
		for (const select of await page.locator('[data-pane="list"] details select').all()) {
			const fits = await select.evaluate((element: HTMLSelectElement) => {
				const probe = document.createElement('span')
				const style = getComputedStyle(element)
				probe.style.font = style.font
				probe.style.whiteSpace = 'pre'
				probe.textContent = element.selectedOptions[0]?.textContent ?? ''
				document.body.append(probe)
				const needed = probe.getBoundingClientRect().width
				probe.remove()
				const room = element.clientWidth - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd) - 16
				return { needed, room, text: probe.textContent }
			})
			expect(fits.room, fits.text).toBeGreaterThanOrEqual(fits.needed)
		}

		// The tabs count what the search finds.
		await page.goto('/en-us/dashboard/conversations?search=Cairo')
		await expect(page.getByRole('link', { name: /^Open/ })).toHaveText(/^Open\s*1$/)
		await expect(rows(page)).toHaveCount(1)
		await page.goto('/en-us/dashboard/conversations')
		await expect(page.getByRole('link', { name: /^Open/ })).toHaveText(/^Open\s*13$/)
	})

	test('the contact panel lists the contact’s other conversations, linking to each', async ({ page, request, baseURL }) => {
		await signedIn(page, request, baseURL!, 'en-us')
		// Nadia wrote again from another chat link: a second conversation of hers (as a merge of her contacts leaves it).
		const nadia = await inbound.db
			.selectFrom('conversations')
			.select('contactId')
			.where('workspaceId', '=', inbox.workspace.id)
			.where('number', '=', 1)
			.executeTakeFirstOrThrow()
		await inbound.db
			.updateTable('conversations')
			.set({ contactId: nadia.contactId })
			.where('workspaceId', '=', inbox.workspace.id)
			.where('number', '=', 9)
			.execute()
		await page.setViewportSize({ width: 1440, height: 900 })
		await page.goto('/en-us/dashboard/conversations?conversation=1')
		await waitForHydration(page)
		const others = page.getByRole('region', { name: 'Their conversations' })
		await expect(others.getByRole('link')).toHaveCount(1)
		await expect(others.getByRole('link')).toContainText('#9')
		await expect(others.getByRole('link')).toContainText('Open')
		await expect(others.getByRole('link')).toContainText('Website chat')
		await others.getByRole('link').click()
		await expect(page).toHaveURL(/conversation=9/)
		await expect(page.getByRole('log')).toContainText('Merci pour votre aide')
		await expect(page.getByRole('region', { name: 'Their conversations' }).getByRole('link')).toContainText('#1')
	})

	test('links in messages are clickable and safe', async ({ page, request, baseURL }) => {
		await signedIn(page, request, baseURL!, 'en-us')
		await request.post(`/v1/workspaces/${inbox.workspace.id}/conversations/1/messages`, {
			data: { kind: 'note', body: 'Not links: javascript:alert(1) <a href="https://evil.example">x</a>' },
			headers: { Authorization: `Bearer ${inbox.owner.token}` },
		})
		await page.goto('/en-us/dashboard/conversations?conversation=1')
		await waitForHydration(page)
		const link = page.getByRole('log').getByRole('link', { name: 'https://shop.example/orders/4521' })
		await expect(link).toHaveAttribute('href', 'https://shop.example/orders/4521')
		await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow')
		await expect(link).toHaveAttribute('target', '_blank')
		const note = page.getByRole('article', { name: 'Private note by Olga Owner' }).filter({ hasText: 'Not links' })
		await expect(note).toContainText('javascript:alert(1) <a href="https://evil.example">x</a>')
		await expect(note.locator('a')).toHaveCount(1)
		await expect(note.locator('a')).toHaveAttribute('href', 'https://evil.example/')
		await expect(page.getByRole('log').locator('a[href^="javascript:"]')).toHaveCount(0)
	})

	test('"select all" ticks the page, and a row unticked leaves the others', async ({ page, request, baseURL }) => {
		await signedIn(page, request, baseURL!, 'en-us')
		await page.goto('/en-us/dashboard/conversations')
		await waitForHydration(page)
		const all = page.getByRole('checkbox', { name: 'Select all 13 of this page' })
		await all.check()
		for (const box of await rows(page).getByRole('checkbox').all()) await expect(box).toBeChecked()
		await row(page, 14).getByRole('checkbox').uncheck()
		expect(await all.evaluate((element: HTMLInputElement) => element.indeterminate)).toBe(true)
		await page.getByLabel('With the ticked conversations:').selectOption('status:pending')
		await page.getByRole('button', { name: 'Apply' }).click()
		await expect(page.getByText('Conversations updated: 12')).toBeVisible()
		await expect(rows(page)).toHaveCount(1)
		await expect(rows(page)).toHaveAttribute('data-conversation', '14')
	})

	test.describe('without JavaScript', () => {
		test.use({ javaScriptEnabled: false })
		test('"select all" applies to every conversation of the page', async ({ page, request, baseURL }) => {
			await signedIn(page, request, baseURL!, 'ar-eg')
			await page.goto('/ar-eg/dashboard/conversations')
			await page.getByRole('checkbox', { name: 'تحديد الـ 13 محادثة اللي في الصفحة دي' }).check()
			await page.getByLabel('مع المحادثات المحددة:').selectOption('status:pending')
			await page.getByRole('button', { name: 'تطبيق' }).click()
			await expect(page.getByText('محادثات اتحدّثت: 13')).toBeVisible()
			await expect(rows(page)).toHaveCount(0)
		})
	})
})
