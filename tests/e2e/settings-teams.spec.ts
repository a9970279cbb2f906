import { type APIRequestContext, type Page } from '@playwright/test'
import { registerUser, signIn } from './accounts.ts'
import { expectAccessible } from './accessibility.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'
import { inviteAndAccept, realtimeSdk, subscriptionCount } from './realtime-support.ts'

const rows = (page: Page) => page.locator('tbody tr')

/** A workspace with its owner and two agents (Alex and Layla), and its chat link. */
async function workspaceWithAgents(request: APIRequestContext, business = 'Acme Support') {
	const link = await linkChannelOf(request, { business })
	const alex = await registerUser(request, { name: 'Alex Agent' })
	const layla = await registerUser(request, { name: 'ليلى حسن' })
	await inviteAndAccept(request, link.workspace.id, link.owner.token, alex.token)
	await inviteAndAccept(request, link.workspace.id, link.owner.token, layla.token)
	const headers = { Authorization: `Bearer ${link.owner.token}` }
	const teamsPath = `/v1/workspaces/${link.workspace.id}/teams`
	return {
		...link,
		alex,
		layla,
		async createTeam(body: Record<string, unknown>) {
			const created = await request.post(teamsPath, { data: body, headers })
			expect(created.status()).toBe(201)
			return (await created.json()) as { id: string; name: string }
		},
		async deleteTeam(teamId: string) {
			expect((await request.delete(`${teamsPath}/${teamId}`, { headers })).status()).toBe(204)
		},
		async removeMember(userId: string) {
			expect((await request.delete(`/v1/workspaces/${link.workspace.id}/members/${userId}`, { headers })).status()).toBe(204)
		},
	}
}

test('an owner creates a team with members from the settings menu, renames it, switches auto-assignment and deletes it after confirming', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	test.slow()
	const workspace = await workspaceWithAgents(request)
	await signIn(context, baseURL!, workspace.owner.token)

	await page.goto('/en-us/dashboard')
	await page.getByRole('navigation').getByRole('link', { name: 'Teams', exact: true }).click()
	await expect(page).toHaveURL('/en-us/dashboard/settings/teams')
	await waitForHydration(page)
	await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible()
	await expect(page.getByText('No teams yet.')).toBeVisible()
	await expectAccessible(page)

	const form = page.getByRole('region', { name: 'New team' })
	await form.getByLabel('Name', { exact: true }).fill('Billing')
	await form.getByLabel('Description').fill('Invoices and refunds')
	await form.getByRole('switch', { name: 'Assign its new conversations automatically' }).check()
	await form.getByRole('checkbox', { name: 'Alex Agent' }).check()
	await form.getByRole('checkbox', { name: 'ليلى حسن' }).check()
	await form.getByRole('button', { name: 'Create the team' }).click()
	await expect(page.getByText('Team Billing created')).toBeVisible()
	await expect(rows(page)).toHaveCount(1)
	const billing = rows(page).filter({ hasText: 'Billing' })
	await expect(billing).toContainText('Invoices and refunds')
	await expect(billing).toContainText('2 members')
	await expect(billing).toContainText('Alex Agent')
	await expect(billing).toContainText('ليلى حسن')
	await expect(billing).toContainText('On')
	// The form is empty again, for the next team.
	await expect(form.getByLabel('Name', { exact: true })).toHaveValue('')

	// Renamed, one member fewer, auto-assignment off.
	await page.getByRole('link', { name: 'Edit Billing' }).click()
	const editing = page.getByRole('region', { name: 'Edit Billing' })
	await expect(editing.getByLabel('Name', { exact: true })).toHaveValue('Billing')
	await expect(editing.getByRole('switch')).toBeChecked()
	await editing.getByLabel('Name', { exact: true }).fill('Billing and refunds')
	await editing.getByRole('switch', { name: 'Assign its new conversations automatically' }).uncheck()
	await editing.getByRole('checkbox', { name: 'Alex Agent' }).uncheck()
	await editing.getByRole('button', { name: 'Save the team' }).click()
	await expect(page.getByText('Team Billing and refunds saved')).toBeVisible()
	const renamed = rows(page).filter({ hasText: 'Billing and refunds' })
	await expect(renamed).toContainText('1 member')
	await expect(renamed).not.toContainText('Alex Agent')
	await expect(renamed).toContainText('Off')

	// Another team cannot take its name, in any case: said beside the name, everything typed and ticked kept.
	await form.getByLabel('Name', { exact: true }).fill('BILLING AND REFUNDS')
	await form.getByLabel('Description').fill('Second line')
	await form.getByRole('switch', { name: 'Assign its new conversations automatically' }).check()
	await form.getByRole('checkbox', { name: 'Alex Agent' }).check()
	await form.getByRole('button', { name: 'Create the team' }).click()
	await expect(form.getByText('A team named “BILLING AND REFUNDS” already exists.')).toBeVisible()
	await expect(form.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
	await expect(form.getByLabel('Name', { exact: true })).toHaveValue('BILLING AND REFUNDS')
	await expect(form.getByLabel('Description')).toHaveValue('Second line')
	await expect(form.getByRole('switch')).toBeChecked()
	await expect(form.getByRole('checkbox', { name: 'Alex Agent' })).toBeChecked()
	await expect(form.getByRole('checkbox', { name: 'ليلى حسن' })).not.toBeChecked()
	await expect(rows(page)).toHaveCount(1)

	await form.getByLabel('Name', { exact: true }).fill('Night shift')
	await form.getByRole('button', { name: 'Create the team' }).click()
	await expect(page.getByText('Team Night shift created')).toBeVisible()
	await expect(rows(page)).toHaveCount(2)

	// Deleting asks first.
	await page.getByRole('link', { name: 'Delete the team Night shift?' }).click()
	const dialog = page.getByRole('alertdialog', { name: 'Delete the team Night shift?' })
	await expect(dialog).toContainText('its channels and conversations are left without a team')
	await dialog.getByRole('link', { name: 'Cancel' }).click()
	await expect(rows(page)).toHaveCount(2)
	await page.getByRole('link', { name: 'Delete the team Night shift?' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
	await expect(page.getByText('Team Night shift deleted')).toBeVisible()
	await expect(rows(page)).toHaveCount(1)
})

test('the list follows what another manager does, live; a channel sends its new conversations to a team chosen on its page', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	test.slow()
	const workspace = await workspaceWithAgents(request)
	await signIn(context, baseURL!, workspace.owner.token)
	await page.goto('/en-us/dashboard/settings/teams')
	await waitForHydration(page)
	await expect(page.getByText('No teams yet.')).toBeVisible()
	// Events sent before the page is subscribed would be missed: wait until the server counts it.
	await expect.poll(() => subscriptionCount(realtimeSdk(baseURL!), `private-workspace-${workspace.workspace.id}`)).toBe(1)
	const support = await workspace.createTeam({ name: 'Support', userIds: [workspace.layla.user.id] })
	await expect(rows(page).filter({ hasText: 'Support' })).toContainText('1 member')
	const sales = await workspace.createTeam({ name: 'Sales' })
	await expect(rows(page)).toHaveCount(2)
	await workspace.deleteTeam(sales.id)
	await expect(rows(page)).toHaveCount(1)

	// Right to left, its form open on the team.
	await page.goto(`/ar-eg/dashboard/settings/teams?edit=${support.id}`)
	await waitForHydration(page)
	await expect(page.getByRole('region', { name: 'تعديل Support' }).getByRole('checkbox', { name: 'ليلى حسن' })).toBeChecked()
	await expectAccessible(page)

	await page.goto('/en-us/dashboard/settings/channels')
	await page.getByRole('link', { name: 'Edit Website' }).click()
	await waitForHydration(page)
	const teamSection = page.getByRole('region', { name: 'Team', exact: true })
	const select = teamSection.getByLabel('Team of its new conversations')
	await expect(select).toHaveValue('')
	await select.selectOption({ label: 'Support' })
	await teamSection.getByRole('button', { name: 'Save the team' }).click()
	await expect(page.getByText('Channel Website: team saved')).toBeVisible()
	await expect(select).toHaveValue(support.id)

	// A team deleted by another manager before this page heard of it (it reloads on team events, so that moment is
	// made here by an option of a team the workspace does not have): the API's refusal beside the select.
	const gone = await workspace.createTeam({ name: 'Gone soon' })
	await workspace.deleteTeam(gone.id)
	// Afresh, without the last save's toast (axe would measure it while it fades).
	await page.reload()
	await waitForHydration(page)
	await select.evaluate((element, id) => (element as HTMLSelectElement).add(new Option('Gone soon', id)), gone.id)
	await select.selectOption({ label: 'Gone soon' })
	await teamSection.getByRole('button', { name: 'Save the team' }).click()
	await expect(teamSection.getByText('This team is not one of this workspace’s teams.')).toBeVisible()
	await expectAccessible(page)
	await select.selectOption({ label: 'No team' })
	await teamSection.getByRole('button', { name: 'Save the team' }).click()
	await expect(page.getByText('Channel Website: team saved')).toBeVisible()
	await expect(select).toHaveValue('')
})

test('an agent sees the teams and their members with no controls, not even by the URL', async ({ page, context, request, baseURL }) => {
	const workspace = await workspaceWithAgents(request)
	const team = await workspace.createTeam({ name: 'Support', description: 'First line', autoAssign: true, userIds: [workspace.alex.user.id] })
	await signIn(context, baseURL!, workspace.alex.token)

	await page.goto('/en-us/dashboard')
	await page.getByRole('navigation').getByRole('link', { name: 'Teams', exact: true }).click()
	await expect(rows(page)).toHaveCount(1)
	await expect(rows(page).first()).toContainText('Alex Agent')
	await expect(rows(page).first()).toContainText('On')
	await expect(page.getByText('Only owners and admins can create, change or delete teams.')).toBeVisible()
	await expect(page.getByRole('region', { name: 'New team' })).toHaveCount(0)
	await expect(page.getByRole('link', { name: /^Edit|^Delete/ })).toHaveCount(0)
	await page.goto(`/en-us/dashboard/settings/teams?delete=${team.id}&edit=${team.id}`)
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(page.getByRole('textbox')).toHaveCount(0)
	await expectAccessible(page)
})

test.describe('in Arabic, without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('plain forms create a team right to left, refuse a taken name beside it with everything kept, edit it and delete it after confirming', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		test.slow()
		const workspace = await workspaceWithAgents(request, 'متجر النيل')
		await workspace.createTeam({ name: 'المبيعات' })
		await signIn(context, baseURL!, workspace.owner.token)
		await page.goto('/ar-eg/dashboard/settings/teams')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(page.getByRole('heading', { level: 1, name: 'الفرق' })).toBeVisible()
		const form = page.getByRole('region', { name: 'فريق جديد' })

		// Left empty: the action's check, in Arabic.
		await form.getByRole('button', { name: 'إنشاء الفريق' }).click()
		await expect(form.getByLabel('الاسم', { exact: true })).toHaveAttribute('aria-invalid', 'true')

		await form.getByLabel('الاسم', { exact: true }).fill('الدعم')
		await form.getByLabel('الوصف').fill('الرد الأول على العملاء')
		await form.getByRole('switch', { name: 'إسناد محادثاته الجديدة تلقائيًا' }).check()
		await form.getByRole('checkbox', { name: 'ليلى حسن' }).check()
		await form.getByRole('checkbox', { name: 'Alex Agent' }).check()
		await form.getByRole('button', { name: 'إنشاء الفريق' }).click()
		await expect(page.getByText('تم إنشاء الفريق الدعم')).toBeVisible()
		const created = rows(page).filter({ hasText: 'الدعم' })
		await expect(created).toContainText('عضوان')
		await expect(created).toContainText('مفعّل')
		// A Latin name keeps its own direction inside the Arabic list.
		expect(await created.locator('bdi', { hasText: 'Alex Agent' }).evaluate((element) => getComputedStyle(element).direction)).toBe('ltr')

		// The API refuses a name the workspace has: beside the field, in Arabic, with the rest kept.
		const again = page.getByRole('region', { name: 'فريق جديد' })
		await again.getByLabel('الاسم', { exact: true }).fill('المبيعات')
		await again.getByLabel('الوصف').fill('وصف آخر')
		await again.getByRole('checkbox', { name: 'Alex Agent' }).check()
		await again.getByRole('button', { name: 'إنشاء الفريق' }).click()
		const refused = page.getByRole('region', { name: 'فريق جديد' })
		await expect(refused.getByText('يوجد فريق باسم «المبيعات» بالفعل.')).toBeVisible()
		await expect(refused.getByLabel('الاسم', { exact: true })).toHaveValue('المبيعات')
		await expect(refused.getByLabel('الوصف')).toHaveValue('وصف آخر')
		await expect(refused.getByRole('checkbox', { name: 'Alex Agent' })).toBeChecked()
		await expect(refused.getByRole('switch')).not.toBeChecked()

		// Someone ticked who has left the workspace since the page was read: the API's 422 beside the members, still ticked, to untick.
		await refused.getByLabel('الاسم', { exact: true }).fill('الليل')
		await workspace.removeMember(workspace.alex.user.id)
		await refused.getByRole('button', { name: 'إنشاء الفريق' }).click()
		const stranger = page.getByRole('region', { name: 'فريق جديد' })
		await expect(stranger.getByText('لا يمكن أن ينضم إلى فرق مساحة العمل هذه إلا أعضاؤها.')).toBeVisible()
		await expect(stranger.getByLabel('الاسم', { exact: true })).toHaveValue('الليل')
		await expect(stranger.getByRole('checkbox', { name: 'شخص لم يعد في مساحة العمل' })).toBeChecked()
		await stranger.getByRole('checkbox', { name: 'شخص لم يعد في مساحة العمل' }).uncheck()
		await stranger.getByRole('button', { name: 'إنشاء الفريق' }).click()
		await expect(page.getByText('تم إنشاء الفريق الليل')).toBeVisible()

		// Alex left the workspace, and so its teams.
		await expect(rows(page).filter({ hasText: 'الدعم' })).toContainText('عضو واحد')
		await page.getByRole('link', { name: 'تعديل الدعم' }).click()
		const editing = page.getByRole('region', { name: 'تعديل الدعم' })
		await editing.getByLabel('الاسم', { exact: true }).fill('الدعم الفني')
		await editing.getByRole('switch', { name: 'إسناد محادثاته الجديدة تلقائيًا' }).uncheck()
		await editing.getByRole('button', { name: 'حفظ الفريق' }).click()
		await expect(page.getByText('تم حفظ الفريق الدعم الفني')).toBeVisible()
		await expect(rows(page).filter({ hasText: 'الدعم الفني' })).toContainText('متوقف')

		await page.getByRole('link', { name: 'حذف الفريق الدعم الفني؟' }).click()
		await expect(page.getByRole('alertdialog')).toContainText('يبقى أعضاؤه في مساحة العمل')
		await page.getByRole('alertdialog').getByRole('button', { name: 'حذف' }).click()
		await expect(page.getByText('تم حذف الفريق الدعم الفني')).toBeVisible()
		await expect(rows(page)).toHaveCount(2)
	})
})
