import { type Page } from '@playwright/test'
import { registerUser, signIn } from './accounts.ts'
import { expect, test } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'

// Issue 27, item 14: a support lead's phone (390 px wide), in both directions, with and without JavaScript.
const pages = [
	'',
	'/conversations',
	'/contacts',
	'/contacts/itsForm',
	'/campaign-manager',
	'/team-members',
	'/settings/agents',
	'/settings/labels',
	'/settings/channels',
	'/settings/channels/create',
	'/settings/teams',
	'/settings/workspaces',
	'/settings/workspaces/create',
	'/settings/audit-log',
	'/profile',
	'/notifications',
	'/notifications/settings',
]

/** An owner whose tables all have a row: a chat link, a contact, an invitation, a second member. */
async function fullWorkspace(page: Page, baseURL: string) {
	const request = page.request
	const { owner, workspace } = await linkChannelOf(request, { business: 'Nile Bakery Customer Care' })
	const headers = { Authorization: `Bearer ${owner.token}` }
	expect(
		(
			await request.post(`/v1/workspaces/${workspace.id}/contacts`, {
				data: { name: 'Amira Saleh', email: 'amira.saleh.long.address@example.test', company: 'Saleh & Sons Trading' },
				headers,
			})
		).status(),
	).toBe(201)
	const invitation = await request.post(`/v1/workspaces/${workspace.id}/invitations`, { data: { method: 'link', role: 'agent', maxUses: 10 }, headers })
	expect(invitation.status()).toBe(201)
	const { code } = (await invitation.json()) as { code: string }
	const agent = await registerUser(request, { name: 'Julien Martin-Delacroix' })
	expect(
		(await request.post('/v1/workspaces/invitations/accept', { data: { code, method: 'link' }, headers: { Authorization: `Bearer ${agent.token}` } })).ok(),
	).toBe(true)
	const team = await request.post(`/v1/workspaces/${workspace.id}/teams`, {
		data: { name: 'Customer care and returns', description: 'Orders, refunds and deliveries across the Nile delta', userIds: [agent.user.id] },
		headers,
	})
	expect(team.status()).toBe(201)
	await signIn(page.context(), baseURL, owner.token)
	return { owner, workspace }
}

for (const javaScriptEnabled of [true, false]) {
	test.describe(`on a 390 px phone, ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
		test.use({ viewport: { width: 390, height: 844 }, javaScriptEnabled })

		test('no dashboard page is wider than the screen, and the top bar is one row', async ({ page, baseURL }) => {
			test.slow()
			await fullWorkspace(page, baseURL!)
			for (const locale of ['en-us', 'ar-eg']) {
				for (const path of pages) {
					await page.goto(`/${locale}/dashboard${path}`)
					const width = await page.evaluate(() => document.documentElement.scrollWidth)
					expect(width, `${locale}${path}`).toBeLessThanOrEqual(390)
					// One row: the menu, the workspace, the account menu (about 57 px; three rows were 165).
					const header = await page.locator('header').first().boundingBox()
					expect(header!.height, `${locale}${path}`).toBeLessThan(70)
				}
			}
		})

		test('language, appearance and sign-out are in the account menu', async ({ page, baseURL }) => {
			await fullWorkspace(page, baseURL!)
			await page.goto('/ar-eg/dashboard/contacts')
			const header = page.locator('header').first()
			await expect(header.getByRole('button', { name: 'English' })).toBeHidden()
			await header.locator('summary', { hasText: 'Sam Tester' }).click()
			await expect(header.getByRole('button', { name: 'تسجيل الخروج' })).toBeVisible()
			await header.getByRole('button', { name: 'English' }).click()
			await expect(page).toHaveURL(/\/en-us\/dashboard\/contacts$/)
			await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
		})

		test('tables are lists whose rows say what each value is, with their actions in sight', async ({ page, baseURL }) => {
			await fullWorkspace(page, baseURL!)
			await page.goto('/en-us/dashboard/team-members')
			const member = page.locator('tr', { hasText: 'Julien Martin-Delacroix' })
			const role = member.locator('td[data-label="Role"]')
			await expect(role).toBeVisible()
			// Each cell starts with its column's name, the header row is not shown.
			expect(await role.evaluate((cell) => getComputedStyle(cell, '::before').content)).toBe('"Role"')
			await expect(page.getByRole('columnheader', { name: 'E-mail address' })).not.toBeInViewport()
			for (const action of [
				member.getByRole('button', { name: 'Save the role of Julien Martin-Delacroix' }),
				member.getByRole('link', { name: /Remove Julien Martin-Delacroix/ }),
			]) {
				const box = (await action.boundingBox())!
				expect(box.x).toBeGreaterThanOrEqual(0)
				expect(box.x + box.width).toBeLessThanOrEqual(390)
			}
			await page.goto('/en-us/dashboard/settings/channels')
			const edit = page.getByRole('link', { name: 'Edit Website' })
			const box = (await edit.boundingBox())!
			expect(box.x + box.width).toBeLessThanOrEqual(390)
		})
	})
}
