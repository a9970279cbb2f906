import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { inviteAndAccept, isSameDocument, markDocument, presentUsers, realtimeSdk, subscriptionCount, watchConsole } from './realtime-support.ts'

test.describe('realtime', () => {
	test('a member who joins by invitation appears on the overview of the one already there, without a reload', async ({ page, context, request, baseURL }) => {
		const sdk = realtimeSdk(baseURL!)
		const owner = await registerUser(request, { name: 'Olga Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Live Support')
		await signIn(context, baseURL!, owner.token)
		await page.goto('/en-us/dashboard')
		await waitForHydration(page)
		await expect(page.getByText('Members in this workspace: 1')).toBeVisible()
		// Events sent before the page is subscribed would be missed: wait until the server counts it.
		await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(1)
		await expect(page.locator('html')).toHaveAttribute('data-realtime', 'connected')
		await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible()
		await markDocument(page)

		const member = await registerUser(request, { name: 'Mina Member' })
		await inviteAndAccept(request, workspace.id, owner.token, member.token)

		await expect(page.getByText('Members in this workspace: 2')).toBeVisible()
		expect(await isSameDocument(page)).toBe(true)
	})

	test('two browsers in one workspace: both online, both see a rename live, and a removed member is taken out at once', async ({
		page,
		context,
		request,
		browser,
		baseURL,
	}) => {
		const sdk = realtimeSdk(baseURL!)
		const owner = await registerUser(request, { name: 'Omar Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Two Browsers')
		const member = await registerUser(request, { name: 'Maya Member' })
		await inviteAndAccept(request, workspace.id, owner.token, member.token)

		await signIn(context, baseURL!, owner.token)
		const memberContext = await browser.newContext({ baseURL })
		const memberPage = await memberContext.newPage()
		const memberProblems = watchConsole(memberPage)
		await signIn(memberContext, baseURL!, member.token)
		await Promise.all([page.goto('/en-us/dashboard'), memberPage.goto('/en-us/dashboard')])
		await Promise.all([waitForHydration(page), waitForHydration(memberPage)])
		await expect(page.getByText('Members in this workspace: 2')).toBeVisible()

		// Both joined the presence channel as themselves.
		await expect.poll(() => presentUsers(sdk, `presence-workspace-${workspace.id}`)).toEqual([owner.user.id, member.user.id].sort())
		await expect.poll(() => subscriptionCount(sdk, `private-workspace-${workspace.id}`)).toBe(2)
		await Promise.all([markDocument(page), markDocument(memberPage)])

		const renamed = await request.patch(`/v1/workspaces/${workspace.id}`, {
			data: { name: 'Renamed Live' },
			headers: { Authorization: `Bearer ${owner.token}` },
		})
		expect(renamed.ok()).toBe(true)
		for (const each of [page, memberPage]) await expect(each.getByRole('link', { name: 'Renamed Live' })).toBeVisible()
		expect(await isSameDocument(page)).toBe(true)
		expect(await isSameDocument(memberPage)).toBe(true)

		const removed = await request.delete(`/v1/workspaces/${workspace.id}/members/${member.user.id}`, { headers: { Authorization: `Bearer ${owner.token}` } })
		expect(removed.status()).toBe(204)
		// Their only workspace is gone: the dashboard sends them to set up a new one; the owner sees one member.
		await expect(memberPage).toHaveURL(/\/en-us\/dashboard\/settings\/workspaces\/setup-workspace$/)
		await expect(page.getByText('Members in this workspace: 1')).toBeVisible()
		expect(await isSameDocument(page)).toBe(true)
		await expect.poll(() => presentUsers(sdk, `presence-workspace-${workspace.id}`)).toEqual([owner.user.id])

		await memberContext.close()
		expect(memberProblems, 'console errors of the second browser').toEqual([])
	})

	test('the web app’s endpoints take pusher-js’s form posts with the session cookie and answer as the API does', async ({ request, browser, baseURL }) => {
		const owner = await registerUser(request, { name: 'Fatima Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Endpoints')
		const outsider = await registerUser(request, { name: 'Otto Outsider' })
		const form = { socket_id: '123.456', channel_name: `private-workspace-${workspace.id}` }

		const anonymous = await request.post('/realtime/auth', { form })
		expect(anonymous.status()).toBe(401)
		expect(await anonymous.json()).toMatchObject({ statusCode: 401 })
		expect((await request.get('/realtime/auth')).status()).toBe(405)

		// A browser context's request API carries its cookies, as pusher-js's XHR does.
		const signedIn = async (token: string) => {
			const context = await browser.newContext({ baseURL })
			await signIn(context, baseURL!, token)
			return context
		}
		const ownerContext = await signedIn(owner.token)
		const signed = await ownerContext.request.post('/realtime/auth', { form })
		expect(signed.status()).toBe(200)
		expect(await signed.json()).toEqual({ auth: expect.stringMatching(/^[0-9a-f]{20}:[0-9a-f]{64}$/) })
		const user = await ownerContext.request.post('/realtime/user-auth', { form: { socket_id: '123.456' } })
		expect(user.status()).toBe(200)
		expect(JSON.parse(((await user.json()) as { user_data: string }).user_data)).toEqual({ id: owner.user.id, name: 'Fatima Owner' })

		const outsiderContext = await signedIn(outsider.token)
		const refused = await outsiderContext.request.post('/realtime/auth', { form, headers: { 'Accept-Language': 'fr' } })
		expect(refused.status()).toBe(403)
		expect(await refused.json()).toMatchObject({ statusCode: 403, message: 'Vous n’êtes pas autorisé à écouter ce canal.' })
		await Promise.all([ownerContext.close(), outsiderContext.close()])
	})
})
