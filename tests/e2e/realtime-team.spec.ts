import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { inviteAndAccept, isSameDocument, markDocument, realtimeSdk, subscriptionCount, watchConsole } from './realtime-support.ts'

test.describe('realtime team page', () => {
	test('the owner changes a role and the member’s team page shows it without a reload', async ({ page, context, request, browser, baseURL }) => {
		const sdk = realtimeSdk(baseURL!)
		const owner = await registerUser(request, { name: 'Rania Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Live Roles')
		const member = await registerUser(request, { name: 'Milo Member' })
		const colleague = await registerUser(request, { name: 'Cleo Colleague' })
		for (const each of [member, colleague]) await inviteAndAccept(request, workspace.id, owner.token, each.token)

		await signIn(context, baseURL!, owner.token)
		const memberContext = await browser.newContext({ baseURL })
		const memberPage = await memberContext.newPage()
		const memberProblems = watchConsole(memberPage)
		await signIn(memberContext, baseURL!, member.token)
		await Promise.all([page.goto('/en-us/dashboard/team-members'), memberPage.goto('/en-us/dashboard/team-members')])
		await Promise.all([waitForHydration(page), waitForHydration(memberPage)])

		// The member, an agent, sees roles as text and may change none.
		const ownRow = memberPage.locator('tr', { hasText: 'Milo Member' })
		await expect(ownRow.getByRole('cell').nth(2)).toHaveText('Agent')
		await expect(memberPage.getByRole('combobox', { name: /^Role of / })).toHaveCount(0)
		const sidebar = memberPage.getByRole('complementary', { name: 'Main menu' })
		await expect(sidebar.getByRole('link', { name: 'Invitations' })).toHaveCount(0)
		// Events sent before both pages are subscribed would be missed: wait until the server counts them.
		await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(2)
		await expect(memberPage.locator('html')).toHaveAttribute('data-realtime', 'connected')
		await markDocument(memberPage)

		const row = page.locator('tr', { hasText: 'Milo Member' })
		await row.getByRole('combobox', { name: 'Role of Milo Member' }).selectOption('admin')
		await row.getByRole('button', { name: 'Save the role of Milo Member' }).click()
		await expect(page.getByText('Role of Milo Member changed')).toBeVisible()

		// The other browser: the new role, and what it allows (changing the colleague's role, the Invitations page).
		await expect(ownRow.getByRole('cell').nth(2)).toHaveText('Admin')
		await expect(memberPage.getByRole('combobox', { name: 'Role of Cleo Colleague' })).toHaveValue('agent')
		await expect(sidebar.getByRole('link', { name: 'Invitations' })).toBeVisible()
		expect(await isSameDocument(memberPage)).toBe(true)

		// And back: the member is an agent again, still on the same document.
		await page.locator('tr', { hasText: 'Milo Member' }).getByRole('combobox', { name: 'Role of Milo Member' }).selectOption('agent')
		await page.locator('tr', { hasText: 'Milo Member' }).getByRole('button', { name: 'Save the role of Milo Member' }).click()
		await expect(ownRow.getByRole('cell').nth(2)).toHaveText('Agent')
		await expect(memberPage.getByRole('combobox', { name: /^Role of / })).toHaveCount(0)
		await expect(sidebar.getByRole('link', { name: 'Invitations' })).toHaveCount(0)
		expect(await isSameDocument(memberPage)).toBe(true)

		await memberContext.close()
		expect(memberProblems, 'console errors of the second browser').toEqual([])
	})
})
