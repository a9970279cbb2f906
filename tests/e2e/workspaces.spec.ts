import { type APIRequestContext } from '@playwright/test'
import { readOutbox } from '../support/mail.ts'
import { createWorkspace, mailedLink, registerUser, signIn, strongPassword, uniqueEmail } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { expectAccessible } from './accessibility.ts'

/** An invite link made through the API by the holder of `token`. */
async function inviteLink(request: APIRequestContext, token: string, workspaceId: string, role: 'agent' | 'admin' = 'agent') {
	const response = await request.post(`/v1/workspaces/${workspaceId}/invitations`, {
		data: { method: 'link', role },
		headers: { Authorization: `Bearer ${token}` },
	})
	expect(response.status()).toBe(201)
	return ((await response.json()) as { url: string }).url
}

/** The names of the workspaces the holder of `token` belongs to, and the current one's. */
async function workspaceNames(request: APIRequestContext, token: string) {
	const response = await request.get('/v1/user/workspaces', { headers: { Authorization: `Bearer ${token}` } })
	return ((await response.json()) as { workspaces: Array<{ name: string }> }).workspaces.map((workspace) => workspace.name).sort()
}

async function currentWorkspaceName(request: APIRequestContext, token: string) {
	const response = await request.get('/v1/auth/profile', { headers: { Authorization: `Bearer ${token}` } })
	return ((await response.json()) as { workspace: { name: string } | null }).workspace?.name ?? null
}

// Opening a link never joins (issue 26, item 3): any site could enrol its visitors in a look-alike workspace.
for (const javaScript of [true, false]) {
	test.describe(`an invitation opened while signed in, JavaScript ${javaScript ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled: javaScript })

		test('names the workspace and the inviter, joins only on Join, and switches only when the user chooses', async ({ page, context, request, baseURL }) => {
			// Eight pages, an axe walk and API checks between them: slow beside another worker.
			test.slow()
			const owner = await registerUser(request, { name: 'Nadia Inviter' })
			const workspace = await createWorkspace(request, owner.token, 'Look Alike Co')
			const link = new URL(await inviteLink(request, owner.token, workspace.id, 'admin'))
			const member = await registerUser(request, { name: 'Sami Member' })
			await createWorkspace(request, member.token, 'Sami Home')
			await signIn(context, baseURL!, member.token)

			await page.goto(link.pathname + link.search)
			await expect(page).toHaveURL(/\/en-us\/dashboard\/invitations\/accept\?agent_invite_code=[\w-]+&agent_invite_method=link$/)
			await expect(page.getByRole('heading', { name: 'Join Look Alike Co?' })).toBeVisible()
			await expect(page.getByText('Nadia Inviter invited you to join Look Alike Co as Admin.')).toBeVisible()
			await expect(page.getByText('You are signed in as Sami Member')).toBeVisible()
			expect(await workspaceNames(request, member.token)).toEqual(['Sami Home'])
			if (javaScript) await expectAccessible(page)

			await page.getByRole('link', { name: 'Not now' }).click()
			await expect(page).toHaveURL('/en-us/dashboard')
			expect(await workspaceNames(request, member.token)).toEqual(['Sami Home'])

			// The link inside a sign-in page's redirect leads to the same question.
			await page.goto(`/en-us/auth/login?redirect=${encodeURIComponent(link.pathname + link.search)}`)
			await expect(page.getByRole('heading', { name: 'Join Look Alike Co?' })).toBeVisible()
			if (javaScript) await waitForHydration(page)
			await page.getByRole('button', { name: 'Join Look Alike Co' }).click()
			await expect(page).toHaveURL(`/en-us/dashboard/invitations/accept?joined=${workspace.id}`)
			await expect(page.getByRole('heading', { name: 'You joined Look Alike Co' })).toBeVisible()
			expect(await workspaceNames(request, member.token)).toEqual(['Look Alike Co', 'Sami Home'])
			expect(await currentWorkspaceName(request, member.token)).toBe('Sami Home')

			await page.getByRole('link', { name: 'Stay in Sami Home' }).click()
			await expect(page).toHaveURL('/en-us/dashboard')
			expect(await currentWorkspaceName(request, member.token)).toBe('Sami Home')

			await page.goBack()
			await expect(page.getByRole('heading', { name: 'You joined Look Alike Co' })).toBeVisible()
			if (javaScript) await waitForHydration(page)
			await page.getByRole('button', { name: 'Open Look Alike Co' }).click()
			await expect(page).toHaveURL('/en-us/dashboard')
			await expect(page.getByText('You are now in Look Alike Co')).toBeVisible()
			expect(await currentWorkspaceName(request, member.token)).toBe('Look Alike Co')
		})

		test('an invitation withdrawn while its page is open is refused with the reason, in Arabic from right to left', async ({
			page,
			context,
			request,
			baseURL,
		}) => {
			const owner = await registerUser(request)
			const workspace = await createWorkspace(request, owner.token, 'Closed Co')
			const link = new URL(await inviteLink(request, owner.token, workspace.id))
			const member = await registerUser(request, { locale: 'ar-eg' })
			await createWorkspace(request, member.token, 'Elsewhere')
			await signIn(context, baseURL!, member.token)
			await page.goto(`/ar-eg/dashboard/invitations/accept${link.search}`)
			await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
			await expect(page.getByRole('heading', { name: 'الانضمام إلى Closed Co؟' })).toBeVisible()
			await expect(page.locator('h1 bdi')).toHaveText('Closed Co')
			// Withdrawn while the page was open: the post says why, and nobody joins.
			const invitations = (await (
				await request.get(`/v1/workspaces/${workspace.id}/invitations`, { headers: { Authorization: `Bearer ${owner.token}` } })
			).json()) as { invitations: Array<{ id: string }> }
			await request.delete(`/v1/workspaces/${workspace.id}/invitations/${invitations.invitations[0]!.id}`, {
				headers: { Authorization: `Bearer ${owner.token}` },
			})
			if (javaScript) await waitForHydration(page)
			await page.getByRole('button', { name: 'الانضمام إلى Closed Co' }).click()
			await expect(page.getByRole('alert')).toContainText('سُحبت هذه الدعوة. اطلب دعوة جديدة من مسؤول مساحة العمل.')
			expect(await workspaceNames(request, member.token)).toEqual(['Elsewhere'])
		})
	})
}

test.describe('workspaces without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('a second workspace is created, listed and switched to with the top-bar switcher', async ({ page, context, request, baseURL }) => {
		const user = await registerUser(request)
		await createWorkspace(request, user.token, 'First shop')
		await signIn(context, baseURL!, user.token)
		await page.goto('/en-us/dashboard/settings/workspaces/create')
		await page.getByLabel('Workspace name').fill('X')
		await page.getByRole('button', { name: 'Create the workspace' }).click()
		await expect(page.getByText('The name must be 2 to 60 characters long.')).toBeVisible()
		await page.getByLabel('Workspace name').fill('Second shop')
		await page.getByRole('button', { name: 'Create the workspace' }).click()
		await expect(page).toHaveURL('/en-us/dashboard')
		await expect(page.getByRole('status').getByText('Workspace “Second shop” created')).toBeVisible()
		await expect(page.getByLabel('Current workspace')).toHaveValue(/.+/)
		await expect(page.getByLabel('Current workspace').locator('option:checked')).toHaveText('Second shop')

		await page.getByLabel('Current workspace').selectOption({ label: 'First shop' })
		await page.getByRole('button', { name: 'Switch', exact: true }).click()
		await expect(page.getByText('You are now in First shop')).toBeVisible()
		await expect(page.getByLabel('Current workspace').locator('option:checked')).toHaveText('First shop')

		await page.goto('/en-us/dashboard/settings/workspaces?search=second')
		await expect(page.getByRole('row')).toHaveCount(2)
		await page.getByRole('button', { name: 'Switch to Second shop' }).click()
		await expect(page.getByText('You are now in Second shop')).toBeVisible()
	})

	test('a new person opens an invite link, signs up, lands in the workspace as agent and cannot see settings', async ({ page, request }) => {
		const owner = await registerUser(request, { name: 'Olivia Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Invited Co')
		const link = await inviteLink(request, owner.token, workspace.id)
		const path = new URL(link).pathname + new URL(link).search
		expect(path).toMatch(/^\/en-us\/auth\/signup\?agent_invite_code=[\w-]+&agent_invite_method=link$/)

		await page.goto(path)
		await expect(page.getByText('You are invited to join Invited Co as Agent.')).toBeVisible()
		await page.getByLabel('Full name').fill('Aziz Agent')
		await page.getByLabel('E-mail address').fill(uniqueEmail('agent'))
		await page.getByLabel('Password', { exact: true }).fill(strongPassword)
		await page.getByRole('button', { name: 'Create account' }).click()
		await expect(page).toHaveURL('/en-us/dashboard')
		await expect(page.getByText('You joined Invited Co')).toBeVisible()
		expect((await page.context().cookies()).find((cookie) => cookie.name === 'crm-agent-invitation')).toBeUndefined()

		const sidebar = page.getByRole('complementary', { name: 'Main menu' })
		await expect(sidebar.getByRole('link', { name: 'Team members' })).toBeVisible()
		await expect(sidebar.getByRole('link', { name: 'Invitations' })).toHaveCount(0)
		await page.goto('/en-us/dashboard/team-members')
		await expect(page.locator('tr', { hasText: 'Aziz Agent' })).toContainText('Agent')
		await expect(page.getByRole('button', { name: /Save the role/ })).toHaveCount(0)
		// The API refuses what the sidebar hides.
		await page.goto('/en-us/dashboard/settings/agents')
		await expect(page).toHaveURL('/en-us/dashboard')
		await expect(page.getByText('Only owners and admins can invite agents.')).toBeVisible()
	})

	test('an invitation by e-mail is sent, and sent again from the list', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { name: 'Rita Resend' })
		await createWorkspace(request, owner.token, 'Resend Co')
		await signIn(context, baseURL!, owner.token)
		const address = uniqueEmail('invitee')
		await page.goto('/en-us/dashboard/settings/agents')
		await page.getByLabel('How to invite').selectOption({ label: 'E-mail invitation' })
		await page.getByLabel('Their e-mail address').fill(address)
		await page.getByRole('button', { name: 'Create the invitation' }).click()
		// An owner whose own address is not confirmed yet mails nobody: said beside the form, the address kept.
		await expect(page.getByText('Confirm your e-mail address before inviting by e-mail')).toBeVisible()
		await expect(page.getByLabel('Their e-mail address')).toHaveValue(address)
		const { link } = await mailedLink(owner.email, '/auth/verify-email')
		await page.goto(link)
		// Without JavaScript the page asks for the click that verifies.
		await page.getByRole('button', { name: 'Verify my e-mail address' }).click()
		await expect(page.getByText('Your e-mail address is verified.')).toBeVisible()
		await page.goto('/en-us/dashboard/settings/agents')
		await page.getByLabel('How to invite').selectOption({ label: 'E-mail invitation' })
		await page.getByLabel('Their e-mail address').fill(address)
		await page.getByRole('button', { name: 'Create the invitation' }).click()
		await expect(page.getByText(`Invitation sent to ${address}`)).toBeVisible()
		const mailsTo = async () => (await readOutbox(process.env.E2E_DATA_DIR!)).filter((mail) => mail.to === address)
		await expect.poll(async () => (await mailsTo()).length).toBe(1)

		await page.locator('tr', { hasText: address }).getByRole('button', { name: 'Send again' }).click()
		await expect(page.getByText(`The invitation was sent again to ${address}.`)).toBeVisible()
		await expect.poll(async () => (await mailsTo()).length).toBe(2)
		const [first, second] = await mailsTo()
		expect(second!.text).toBe(first!.text)
	})

	test('a resend refused is said beside its row, or above the list once its row no longer offers it', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { name: 'Rana Refused' })
		const workspace = await createWorkspace(request, owner.token, 'Refused Co')
		const { link } = await mailedLink(owner.email, '/auth/verify-email')
		const verified = await request.post('/v1/auth/verify-email', { data: { token: new URL(link).searchParams.get('token') } })
		expect(verified.status()).toBe(200)
		const address = uniqueEmail('refused')
		const created = await request.post(`/v1/workspaces/${workspace.id}/invitations`, {
			data: { method: 'email', role: 'agent', email: address },
			headers: { Authorization: `Bearer ${owner.token}` },
		})
		expect(created.status()).toBe(201)
		await signIn(context, baseURL!, owner.token)
		await page.goto('/en-us/dashboard/settings/agents')
		const row = page.locator('tr', { hasText: address })
		// One invitation is mailed again five times an hour at most: the sixth is refused in its row, which stays.
		for (let sent = 1; sent <= 5; sent++) {
			await row.getByRole('button', { name: 'Send again' }).click()
			await expect(page.getByText(`The invitation was sent again to ${address}.`)).toBeVisible()
		}
		await row.getByRole('button', { name: 'Send again' }).click()
		await expect(row.getByRole('alert')).toContainText('The invitation could not be sent again: Too many attempts.')
		await expect(page.getByLabel('Their e-mail address')).toBeVisible()

		// Withdrawn meanwhile (another tab): the refusal is said above the list, the row no longer offers it.
		const { id } = (await created.json()) as { id: string }
		expect((await request.delete(`/v1/workspaces/${workspace.id}/invitations/${id}`, { headers: { Authorization: `Bearer ${owner.token}` } })).status()).toBe(
			204,
		)
		await row.getByRole('button', { name: 'Send again' }).click()
		const refusal = page.getByRole('alert').filter({ hasText: 'The invitation could not be sent again' })
		await expect(refusal).toContainText('This invitation can no longer be sent: it was withdrawn, has expired or has been used.')
		await expect(row.getByRole('button', { name: 'Send again' })).toHaveCount(0)
		await expect(row).toContainText('Revoked')
	})

	test('an invalid invitation says why', async ({ page }) => {
		await page.goto('/en-us/auth/signup?agent_invite_code=not-a-real-code&agent_invite_method=link')
		await expect(page.getByRole('alert')).toContainText('This invitation cannot be used')
	})
})

test.describe('team and invitations with JavaScript', () => {
	test('an owner invites by link, copies it, and the invitee signs in through the redirect', async ({ page, context, request, baseURL, browser }) => {
		// Two browsers, and the invitee's confirmation, join and switch: slow beside another worker.
		test.slow()
		const owner = await registerUser(request)
		await createWorkspace(request, owner.token, 'Link Ltd')
		await signIn(context, baseURL!, owner.token)
		await context.grantPermissions(['clipboard-read', 'clipboard-write'])
		await page.goto('/en-us/dashboard/settings/agents')
		await waitForHydration(page)
		await page.getByRole('button', { name: 'Create the invitation' }).click()
		await expect(page.getByRole('heading', { name: 'Share this link' })).toBeVisible()
		const link = await page.getByLabel('Invite link').inputValue()
		expect(link).toContain('agent_invite_code=')
		await page.getByRole('button', { name: 'Copy the link' }).click()
		await expect(page.getByText('Link copied')).toBeVisible()
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)

		// An existing account: the invitation is kept through the sign-in page's redirect parameter,
		// and signing in leads to the page that asks before joining.
		const member = await registerUser(request, { name: 'Mia Member' })
		await createWorkspace(request, member.token, 'Mia own')
		const other = await browser.newContext()
		const invitee = await other.newPage()
		const invitePath = new URL(link).pathname + new URL(link).search
		await invitee.goto(`/en-us/auth/login?redirect=${encodeURIComponent(invitePath)}`)
		await expect(invitee.getByText('You are invited to join Link Ltd as Agent.')).toBeVisible()
		await waitForHydration(invitee)
		await invitee.getByLabel('E-mail address').fill(member.email)
		await invitee.getByLabel('Password', { exact: true }).fill(member.password)
		await invitee.getByRole('button', { name: 'Sign in', exact: true }).click()
		await expect(invitee).toHaveURL(/\/en-us\/dashboard\/invitations\/accept\?agent_invite_code=[\w-]+&agent_invite_method=link$/)
		await expect(invitee.getByText('Sam Tester invited you to join Link Ltd as Agent.')).toBeVisible()
		expect(await workspaceNames(request, member.token)).toEqual(['Mia own'])
		await invitee.getByRole('button', { name: 'Join Link Ltd' }).click()
		await expect(invitee.getByRole('heading', { name: 'You joined Link Ltd' })).toBeVisible()
		await invitee.getByRole('button', { name: 'Open Link Ltd' }).click()
		await expect(invitee).toHaveURL(/\/en-us\/dashboard$/)
		await expect(invitee.getByText('You are now in Link Ltd')).toBeVisible()
		await other.close()

		await page.goto('/en-us/dashboard/settings/agents')
		await expect(page.locator('tbody tr').first()).toContainText('1')
	})

	test('an admin changes a role, and destructive actions ask first', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { name: 'Omar Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Roles Inc')
		const admin = await registerUser(request, { name: 'Ada Admin' })
		const agent = await registerUser(request, { name: 'Abe Agent' })
		for (const [person, role] of [
			[admin, 'admin'],
			[agent, 'agent'],
		] as const) {
			const code = new URL(await inviteLink(request, owner.token, workspace.id, role)).searchParams.get('agent_invite_code')
			const accepted = await request.post('/v1/workspaces/invitations/accept', {
				data: { code, method: 'link' },
				headers: { Authorization: `Bearer ${person.token}` },
			})
			expect(accepted.status()).toBe(200)
		}
		await signIn(context, baseURL!, admin.token)
		await page.goto('/fr-x/dashboard/team-members')
		await waitForHydration(page)
		// An admin cannot touch the owner.
		await expect(page.locator('tr', { hasText: 'Omar Owner' }).getByRole('combobox')).toHaveCount(0)
		const row = page.locator('tr', { hasText: 'Abe Agent' })
		await row.getByRole('combobox').selectOption('admin')
		await row.getByRole('button', { name: 'Enregistrer le rôle de Abe Agent' }).click()
		await expect(page.getByText('Rôle de Abe Agent modifié')).toBeVisible()
		await expect(page.locator('tr', { hasText: 'Abe Agent' }).getByRole('combobox')).toHaveValue('admin')

		await page.locator('tr', { hasText: 'Abe Agent' }).getByRole('link', { name: 'Retirer Abe Agent ?' }).click()
		const dialog = page.getByRole('alertdialog')
		await expect(dialog).toContainText('Abe Agent n’aura plus accès à Roles Inc.')
		await dialog.getByRole('link', { name: 'Annuler' }).click()
		await expect(page.locator('tr', { hasText: 'Abe Agent' })).toHaveCount(1)
		await page.locator('tr', { hasText: 'Abe Agent' }).getByRole('link', { name: 'Retirer Abe Agent ?' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: 'Retirer' }).click()
		await expect(page.getByText('Abe Agent a été retiré')).toBeVisible()
		await expect(page.locator('tr', { hasText: 'Abe Agent' })).toHaveCount(0)
	})

	test('a failed list shows its toast with the server detail', async ({ page, context, request, baseURL }) => {
		const user = await registerUser(request)
		await createWorkspace(request, user.token)
		await signIn(context, baseURL!, user.token)
		await page.goto('/en-us/dashboard/settings/workspaces?page=0')
		await expect(page.getByText('Failed to load workspaces.')).toBeVisible()
		await expect(page.getByText('Must be at least 1.')).toBeVisible()
		// The same for the other lists: a refused page number is said, never a crash.
		await page.goto('/en-us/dashboard/team-members?page=abc')
		await expect(page.getByText('Failed to load the team.')).toBeVisible()
		await page.goto('/en-us/dashboard/contacts?cursor=garbage')
		await expect(page.getByText('Failed to load contacts.')).toBeVisible()
	})

	test('the page of invitations is named for what it holds, in the menu, its title and its heading, at the specification’s path, and leads to the people', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const owner = await registerUser(request)
		await createWorkspace(request, owner.token, 'Naming Co')
		await signIn(context, baseURL!, owner.token)
		await page.goto('/en-us/dashboard')
		const sidebar = page.getByRole('navigation')
		await sidebar.getByRole('link', { name: 'Invitations' }).click()
		await expect(page).toHaveURL('/en-us/dashboard/settings/agents')
		await expect(page).toHaveTitle('Invitations · CRM')
		await expect(page.getByRole('heading', { level: 1, name: 'Invitations' })).toBeVisible()
		await expect(sidebar.getByRole('link', { name: 'Agents' })).toHaveCount(0)
		await page.getByRole('link', { name: 'People who have joined are listed under Team members.' }).click()
		await expect(page).toHaveURL('/en-us/dashboard/team-members')

		await page.goto('/ar-eg/dashboard/settings/agents')
		await expect(page.getByRole('navigation').getByRole('link', { name: 'الدعوات' })).toHaveAttribute('aria-current', 'page')
		await expect(page.getByRole('heading', { level: 1, name: 'الدعوات' })).toBeVisible()
	})

	for (const locale of ['en-us', 'ar-eg'] as const) {
		test(`workspace pages are accessible (${locale})`, async ({ page, context, request, baseURL }) => {
			// axe walks every element of four pages: slow beside another worker.
			test.slow()
			const user = await registerUser(request, { locale })
			await createWorkspace(request, user.token)
			await signIn(context, baseURL!, user.token)
			for (const path of ['/team-members', '/settings/agents', '/settings/workspaces', '/settings/workspaces/create']) {
				await page.goto(`/${locale}/dashboard${path}`)
				await waitForHydration(page)
				await expectAccessible(page)
			}
		})
	}
})

// Issue 27, item 11: where the workspace's local phone numbers are from, on its settings page.
for (const javaScriptEnabled of [true, false]) {
	test(`the workspace’s country for phone numbers follows its time zone until chosen (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({
		browser,
		request,
		baseURL,
	}) => {
		const context = await browser.newContext({ javaScriptEnabled })
		const page = await context.newPage()
		const user = await registerUser(request)
		const workspace = await createWorkspace(request, user.token, 'Casablanca Desk')
		const auth = { Authorization: `Bearer ${user.token}` }
		expect((await request.patch(`/v1/workspaces/${workspace.id}`, { data: { timezone: 'Africa/Cairo' }, headers: auth })).status()).toBe(200)
		await signIn(context, baseURL!, user.token)
		await page.goto(`/ar-eg/dashboard/settings/workspaces?edit=${workspace.id}`)
		if (javaScriptEnabled) await waitForHydration(page)
		const country = page.getByLabel('دولة أرقام الهاتف', { exact: true })
		await expect(country).toHaveValue('')
		await expect(country.locator('option:checked')).toHaveText('دولة المنطقة الزمنية: مصر')
		// Found by its name in the search box: picked at once with JavaScript, read by the server without.
		// A search box with suggestions (a datalist) is a combobox.
		await page.getByRole('combobox', { name: 'ابحث عن دولة: دولة أرقام الهاتف' }).fill('المغرب')
		if (javaScriptEnabled) await expect(country).toHaveValue('MA')
		await page.getByRole('button', { name: 'حفظ التغييرات' }).click()
		await expect(page.getByText('تم حفظ Casablanca Desk')).toBeVisible()
		const saved = await request.get(`/v1/workspaces/${workspace.id}`, { headers: auth })
		expect(await saved.json()).toMatchObject({ timezone: 'Africa/Cairo', country: 'MA', countryChosen: true })
		await page.goto(`/ar-eg/dashboard/settings/workspaces?edit=${workspace.id}`)
		await expect(country).toHaveValue('MA')
		await context.close()
	})
}
