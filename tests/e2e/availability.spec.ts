import { type APIRequestContext, type Page } from '@playwright/test'
import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expectAccessible } from './accessibility.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { realtimeSdk, subscriptionCount } from './realtime-support.ts'

// Issue 30: the availability switch in the top bar, an agent's capacity, the workspace's assignment settings.

/** An owner with a workspace and an agent in it; the owner is signed in. */
async function teamOf(request: APIRequestContext, page: Page, baseURL: string, options: { locale?: string } = {}) {
	const owner = await registerUser(request, { name: 'Layla Owner', locale: options.locale })
	const workspace = await createWorkspace(request, owner.token, 'Switchboard')
	const invitation = await request.post(`/v1/workspaces/${workspace.id}/invitations`, {
		data: { method: 'link', role: 'agent' },
		headers: { Authorization: `Bearer ${owner.token}` },
	})
	const { code } = (await invitation.json()) as { code: string }
	const agent = await registerUser(request, { name: 'Julien Agent' })
	const accepted = await request.post('/v1/workspaces/invitations/accept', {
		data: { code, method: 'link' },
		headers: { Authorization: `Bearer ${agent.token}` },
	})
	expect(accepted.ok()).toBe(true)
	await signIn(page.context(), baseURL, owner.token)
	return { owner, agent, workspace }
}

async function availabilityOf(request: APIRequestContext, workspaceId: string, token: string) {
	const response = await request.get(`/v1/workspaces/${workspaceId}/members/me`, { headers: { Authorization: `Bearer ${token}` } })
	return ((await response.json()) as { availability: string }).availability
}

async function capacityOf(request: APIRequestContext, workspaceId: string, token: string, email: string) {
	const response = await request.get(`/v1/workspaces/${workspaceId}/members?search=${encodeURIComponent(email)}`, {
		headers: { Authorization: `Bearer ${token}` },
	})
	return ((await response.json()) as { members: Array<{ capacity: number | null }> }).members[0]?.capacity
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled, viewport: { width: 1440, height: 900 } })

		test('the top bar switches availability on every page, and the team page shows it', async ({ page, request, baseURL }) => {
			const { owner, workspace } = await teamOf(request, page, baseURL!)
			await page.goto('/en-us/dashboard/contacts')
			const bar = page.locator('#availability-bar')
			await expect(bar).toHaveValue('offline')
			await expect(page.locator('[data-availability="offline"]').first()).toBeAttached()
			if (javaScriptEnabled) {
				await waitForHydration(page)
				await expectAccessible(page, 'header')
				// No reload: what the page holds stays.
				await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true))
				await bar.selectOption('busy')
				await expect.poll(() => availabilityOf(request, workspace.id, owner.token)).toBe('busy')
				expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true)
				await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0)
			} else {
				await bar.selectOption('busy')
				await page.locator('header').getByRole('button', { name: 'Save', exact: true }).click()
				await expect(page.getByText('Availability: Busy')).toBeVisible()
				expect(await availabilityOf(request, workspace.id, owner.token)).toBe('busy')
			}
			await expect(page).toHaveURL('/en-us/dashboard/contacts')
			await expect(bar).toHaveValue('busy')
			await expect(page.locator('header [data-availability="busy"]').first()).toBeAttached()

			// The team page has no switch of its own any more; its column says it.
			await page.goto('/en-us/dashboard/team-members')
			await expect(page.locator('#availability-bar')).toHaveValue('busy')
			await expect(page.locator('#my-availability')).toHaveCount(0)
			await expect(page.locator(`tr[data-member="${owner.email}"]`)).toContainText('Busy')
		})

		test('on a phone the switch is in the account menu, its dot on the menu’s button', async ({ page, request, baseURL }) => {
			const { owner, workspace } = await teamOf(request, page, baseURL!)
			await page.setViewportSize({ width: 390, height: 844 })
			await page.goto('/en-us/dashboard')
			await expect(page.locator('#availability-bar')).toBeHidden()
			if (javaScriptEnabled) await waitForHydration(page)
			await page.locator('header > details > summary').click()
			const menu = page.locator('#availability-menu')
			await expect(menu).toBeVisible()
			await menu.selectOption('online')
			if (!javaScriptEnabled) await page.locator('header > details').getByRole('button', { name: 'Save', exact: true }).click()
			await expect.poll(() => availabilityOf(request, workspace.id, owner.token)).toBe('online')
			await expect(page.locator('header summary [data-availability="online"]')).toBeVisible()
			const width = await page.evaluate(() => document.documentElement.scrollWidth)
			expect(width).toBeLessThanOrEqual(390)
		})

		test('an owner sets an agent’s capacity; a bad one is refused beside its field, as typed; an agent may not', async ({ page, request, baseURL }) => {
			const { owner, agent, workspace } = await teamOf(request, page, baseURL!)
			await page.goto('/en-us/dashboard/settings/agents')
			const row = page.locator(`tr[data-member="${agent.email}"]`)
			const field = row.getByRole('spinbutton', { name: 'Capacity of Julien Agent' })
			await expect(field).toHaveAttribute('placeholder', 'Default: no limit')
			if (javaScriptEnabled) {
				await waitForHydration(page)
				await expectAccessible(page)
			}
			await field.fill('5')
			await row.getByRole('button', { name: 'Save the capacity of Julien Agent' }).click()
			await expect(page.getByText('Julien Agent takes at most 5 open conversations')).toBeVisible()
			await expect(field).toHaveValue('5')
			expect(await capacityOf(request, workspace.id, owner.token, agent.email)).toBe(5)

			await field.fill('1001')
			await row.getByRole('button', { name: 'Save the capacity of Julien Agent' }).click()
			await expect(row.getByRole('alert')).toHaveText('Enter a whole number from 0 to 1000, or leave it empty.')
			await expect(field).toHaveValue('1001')
			await expect(field).toHaveAttribute('aria-invalid', 'true')
			expect(await capacityOf(request, workspace.id, owner.token, agent.email)).toBe(5)

			await field.fill('')
			await row.getByRole('button', { name: 'Save the capacity of Julien Agent' }).click()
			await expect(page.getByText('Julien Agent follows the workspace’s default capacity')).toBeVisible()
			expect(await capacityOf(request, workspace.id, owner.token, agent.email)).toBeNull()

			// The agent: the page sends them away, the API refuses them.
			await signIn(page.context(), baseURL!, agent.token)
			await page.goto('/en-us/dashboard/settings/agents')
			await expect(page).toHaveURL('/en-us/dashboard')
			await expect(page.getByText('Only owners and admins can invite agents.')).toBeVisible()
			const refused = await request.patch(`/v1/workspaces/${workspace.id}/members/${agent.user.id}`, {
				data: { capacity: 50 },
				headers: { Authorization: `Bearer ${agent.token}` },
			})
			expect(refused.status()).toBe(403)
			expect(await capacityOf(request, workspace.id, owner.token, agent.email)).toBeNull()
		})

		test('the workspace’s assignment settings are saved, and a bad capacity is refused with the choices kept', async ({ page, request, baseURL }) => {
			const { agent, workspace } = await teamOf(request, page, baseURL!)
			await page.goto(`/en-us/dashboard/settings/workspaces?edit=${workspace.id}`)
			const form = page.locator('form[aria-labelledby="assignment-heading"]')
			await expect(form.getByLabel('Default capacity')).toHaveValue('')
			await expect(form.getByLabel('Keep the assignee')).toBeChecked()
			if (javaScriptEnabled) {
				await waitForHydration(page)
				await expectAccessible(page)
			}
			await form.getByLabel('Default capacity').fill('1001')
			await form.getByLabel('Assign it again').check()
			await form.getByLabel('Agents see only their teams’ conversations').check()
			await form.getByRole('button', { name: 'Save the assignment settings' }).click()
			await expect(form.getByRole('alert')).toHaveText('Enter a whole number from 0 to 1000, or leave it empty.')
			await expect(form.getByLabel('Default capacity')).toHaveValue('1001')
			await expect(form.getByLabel('Assign it again')).toBeChecked()
			await expect(form.getByLabel('Agents see only their teams’ conversations')).toBeChecked()

			await form.getByLabel('Default capacity').fill('8')
			await form.getByRole('button', { name: 'Save the assignment settings' }).click()
			await expect(page.getByText('Assignment settings saved')).toBeVisible()
			await expect(form.getByLabel('Default capacity')).toHaveValue('8')
			await expect(form.getByLabel('Assign it again')).toBeChecked()
			const stored = await request.get(`/v1/workspaces/${workspace.id}`, { headers: { Authorization: `Bearer ${agent.token}` } })
			expect(await stored.json()).toMatchObject({ defaultCapacity: 8, reopenAssignment: 'reassign', agentsSeeOwnTeams: true })

			// The agents page says what an empty capacity now means.
			await page.goto('/en-us/dashboard/settings/agents')
			await expect(page.locator(`tr[data-member="${agent.email}"]`).getByRole('spinbutton', { name: 'Capacity of Julien Agent' })).toHaveAttribute(
				'placeholder',
				'Default: 8',
			)
		})
	})
}

test('the switch follows a change made in another tab, live', async ({ page, context, request, baseURL }) => {
	const { owner, workspace } = await teamOf(request, page, baseURL!)
	await page.setViewportSize({ width: 1440, height: 900 })
	await page.goto('/en-us/dashboard')
	await waitForHydration(page)
	const other = await context.newPage()
	await other.setViewportSize({ width: 1440, height: 900 })
	await other.goto('/en-us/dashboard/contacts')
	await waitForHydration(other)
	// Events sent before both pages are subscribed would be missed: wait until the server counts them.
	await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${workspace.id}`)).toBe(2)
	await other.locator('#availability-bar').selectOption('online')
	await expect.poll(() => availabilityOf(request, workspace.id, owner.token)).toBe('online')
	await expect(page.locator('#availability-bar')).toHaveValue('online')
	await expect(page.locator('header [data-availability="online"]').first()).toBeAttached()
})

test('in Arabic the switch reads from right to left, its dot at the start', async ({ page, request, baseURL }) => {
	const { owner, workspace } = await teamOf(request, page, baseURL!, { locale: 'ar-eg' })
	await page.setViewportSize({ width: 1440, height: 900 })
	await page.goto('/ar-eg/dashboard')
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await waitForHydration(page)
	const bar = page.locator('#availability-bar')
	await expect(bar.locator('option:checked')).toHaveText('غير متصل')
	await expect(page.getByLabel('حالة تواجدك').first()).toBeAttached()
	const dot = await page.locator('header form [data-availability]').first().boundingBox()
	const select = await bar.boundingBox()
	// The start of a select is its right in Arabic.
	expect(dot!.x).toBeGreaterThan(select!.x + select!.width / 2)
	await bar.selectOption('busy')
	await expect.poll(() => availabilityOf(request, workspace.id, owner.token)).toBe('busy')
	await expect(bar.locator('option:checked')).toHaveText('مشغول')
	await expectAccessible(page)

	await page.goto(`/ar-eg/dashboard/settings/workspaces?edit=${workspace.id}`)
	await expect(page.getByRole('heading', { name: 'الإسناد' })).toBeVisible()
	await page.goto('/ar-eg/dashboard/settings/agents')
	await expect(page.getByRole('heading', { name: 'السعة' })).toBeVisible()
	await expectAccessible(page)
})
