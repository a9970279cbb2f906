import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expectAccessible } from './accessibility.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { inviteAndAccept } from './realtime-support.ts'

// Issue 33's bot tokens without JavaScript, in Arabic: created with its scopes, its secret shown once, used, revoked.
test.use({ javaScriptEnabled: false })

test('without JavaScript an owner creates a bot token in Arabic, sees it once, the API takes it, and revokes it', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	const owner = await registerUser(request, { name: 'Olga Owner' })
	const workspace = await createWorkspace(request, owner.token, 'Tokens Inc')
	await signIn(context, baseURL!, owner.token)

	await page.goto('/ar-eg/dashboard/settings/integrations')
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await expect(page.getByRole('heading', { level: 1, name: 'التكاملات' })).toBeVisible()
	await expect(page.getByRole('navigation').getByRole('link', { name: 'التكاملات', exact: true })).toBeVisible()
	await expect(page.getByRole('link', { name: 'خطافات الويب' })).toHaveAttribute('href', '/ar-eg/dashboard/settings/integrations/webhooks')
	await expect(page.getByText('لا رموز بعد.')).toBeVisible()

	// No area chosen: refused beside the form, the name kept.
	const form = page.getByRole('region', { name: 'رمز بوت جديد' })
	await form.getByLabel('الاسم').fill('بوت الطلبات')
	await form.getByRole('button', { name: 'أنشئ الرمز' }).click()
	await expect(page.getByText('اختر مجالًا واحدًا على الأقل للقراءة أو الكتابة.')).toBeVisible()
	await expect(form.getByLabel('الاسم')).toHaveValue('بوت الطلبات')

	await form.getByRole('group', { name: 'المحادثات' }).getByLabel('قراءة وكتابة').check()
	await form.getByRole('group', { name: 'جهات الاتصال' }).getByLabel('قراءة', { exact: true }).check()
	await form.getByLabel('ينتهي').selectOption('30')
	await form.getByRole('button', { name: 'أنشئ الرمز' }).click()

	// Shown this once, to copy.
	const secretField = page.getByTestId('token-secret')
	await expect(page.getByRole('heading', { name: 'رمزك الجديد' })).toBeVisible()
	const secret = await secretField.inputValue()
	expect(secret).toMatch(/^crm_bot_[A-Za-z0-9_-]{43}$/)
	const listed = page.getByTestId('access-token')
	await expect(listed).toHaveCount(1)
	await expect(listed).toContainText('بوت الطلبات')
	await expect(listed).toContainText(`…${secret.slice(-4)}`)
	await expect(listed).toContainText('المحادثات: قراءة وكتابة')
	await expect(listed).toContainText('جهات الاتصال: قراءة')

	// The API takes it within its scopes.
	const auth = { Authorization: `Bearer ${secret}` }
	expect((await request.get(`/v1/workspaces/${workspace.id}/contacts`, { headers: auth })).status()).toBe(200)
	expect((await request.post(`/v1/workspaces/${workspace.id}/contacts`, { headers: auth, data: { name: 'x' } })).status()).toBe(403)

	// Never again: the page read afresh shows the token's last characters only.
	await page.goto('/ar-eg/dashboard/settings/integrations')
	await expect(page.getByTestId('token-secret')).toHaveCount(0)
	expect(await page.content()).not.toContain(secret)
	await expect(page.getByText('آخر استخدام')).toBeVisible()

	// Renamed in place: an empty name is refused beside the field, then the new one is the bot's.
	await page.getByRole('link', { name: 'أعد تسمية الرمز بوت الطلبات' }).click()
	const renaming = page.getByRole('form', { name: 'أعد تسمية الرمز بوت الطلبات' })
	await expect(renaming.getByLabel('الاسم الجديد')).toHaveValue('بوت الطلبات')
	await renaming.getByLabel('الاسم الجديد').fill(' ')
	await renaming.getByRole('button', { name: 'احفظ الاسم' }).click()
	await expect(page.getByRole('form', { name: 'أعد تسمية الرمز بوت الطلبات' }).getByText('هذا الحقل مطلوب.')).toBeVisible()
	await page.getByRole('form', { name: 'أعد تسمية الرمز بوت الطلبات' }).getByLabel('الاسم الجديد').fill('بوت الشحن')
	await page.getByRole('button', { name: 'احفظ الاسم' }).click()
	await expect(page.getByText('أصبح اسم الرمز بوت الشحن')).toBeVisible()
	await expect(listed).toContainText('بوت الشحن')
	await expect(page.getByRole('form', { name: /أعد تسمية/ })).toHaveCount(0)

	// Revoking asks first, naming the token; cancelling keeps it.
	await page.getByRole('link', { name: 'ألغِ الرمز بوت الشحن' }).click()
	const asking = page.getByRole('alertdialog')
	await expect(asking.getByRole('heading')).toContainText('هل تلغي الرمز')
	await expect(asking.getByRole('heading')).toContainText('بوت الشحن')
	await asking.getByRole('link', { name: 'إلغاء' }).click()
	await expect(page.getByRole('alertdialog')).toHaveCount(0)
	await expect(page.getByTestId('access-token')).toHaveCount(1)
	await page.getByRole('link', { name: 'ألغِ الرمز بوت الشحن' }).click()
	await page.getByRole('alertdialog').getByRole('button', { name: 'ألغِ' }).click()
	await expect(page.getByText('أُلغي الرمز بوت الشحن')).toBeVisible()
	await expect(page.getByTestId('access-token')).toHaveCount(0)
	expect((await request.get(`/v1/workspaces/${workspace.id}/contacts`, { headers: auth })).status()).toBe(401)
})

test.describe('with JavaScript', () => {
	test.use({ javaScriptEnabled: true })

	test("an agent makes a personal token in the profile, in French; the integrations page is the managers'", async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request, { name: 'Olga Owner' })
		const workspace = await createWorkspace(request, owner.token, 'Jetons SARL')
		const agent = await registerUser(request, { name: 'Agnès Agent', locale: 'fr-x' })
		await inviteAndAccept(request, workspace.id, owner.token, agent.token)
		await signIn(context, baseURL!, agent.token)

		await page.goto('/fr-x/dashboard/settings/integrations')
		await expect(page).toHaveURL('/fr-x/dashboard')
		await expect(page.getByText('Seuls les propriétaires et les administrateurs gèrent les intégrations.')).toBeVisible()

		await page.goto('/fr-x/dashboard/profile')
		await waitForHydration(page)
		const section = page.getByRole('region', { name: 'Jetons d’accès personnels' })
		await expect(section.getByText('Aucun jeton pour l’instant.')).toBeVisible()
		const form = section.getByRole('region', { name: 'Nouveau jeton personnel' })
		await form.getByLabel('Nom').fill('Mon script')
		await form.getByRole('group', { name: 'Discussions' }).getByLabel('Lecture', { exact: true }).check()
		await form.getByRole('button', { name: 'Créer le jeton' }).click()
		const secret = await section.getByTestId('token-secret').inputValue()
		expect(secret).toMatch(/^crm_pat_[A-Za-z0-9_-]{43}$/)
		await expect(section.getByTestId('access-token')).toContainText('Discussions : Lecture')
		await expectAccessible(page)

		// It acts as the agent: reading conversations yes, managing tokens never.
		const auth = { Authorization: `Bearer ${secret}` }
		expect((await request.get(`/v1/workspaces/${workspace.id}/conversations`, { headers: auth })).status()).toBe(200)
		expect((await request.get(`/v1/workspaces/${workspace.id}/access-tokens`, { headers: auth })).status()).toBe(403)

		// Renamed in place, the new name in the list at once.
		await section.getByRole('link', { name: 'Renommer le jeton Mon script' }).click()
		const renaming = section.getByRole('form', { name: 'Renommer le jeton Mon script' })
		await renaming.getByLabel('Nouveau nom').fill('Mon script du soir')
		await expectAccessible(page)
		await renaming.getByRole('button', { name: 'Enregistrer le nom' }).click()
		await expect(page.getByText('Jeton renommé Mon script du soir')).toBeVisible()
		await expect(section.getByTestId('access-token')).toContainText('Mon script du soir')

		await section.getByRole('link', { name: 'Révoquer le jeton Mon script du soir' }).click()
		const asking = section.getByRole('alertdialog')
		await expect(asking.getByRole('heading')).toContainText('Mon script du soir')
		await expect(asking).toContainText('Tout ce qui l’utilise sera refusé dès maintenant.')
		// The page, not the rename's toast still fading in.
		await expectAccessible(page, 'main')
		await asking.getByRole('button', { name: 'Révoquer' }).click()
		await expect(page.getByText('Jeton Mon script du soir révoqué')).toBeVisible()
		await expect(section.getByTestId('access-token')).toHaveCount(0)
	})
})
