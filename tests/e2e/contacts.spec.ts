import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import { type APIRequestContext, type Page } from '@playwright/test'
import { createWorkspace, registerUser, signIn, uniqueEmail } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'
import { expectAccessible } from './accessibility.ts'

const rows = (page: Page) => page.locator('tbody tr')

test('contacts: create, edit, import a CSV, search, label in bulk, filter and export back', async ({ page, context, request, baseURL }) => {
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'Contacts Co')
	await signIn(context, baseURL!, owner.token)

	await page.goto('/en-us/dashboard/settings/labels')
	await waitForHydration(page)
	await page.getByLabel('Title').fill('vip client')
	await page.getByRole('button', { name: 'Create the label' }).click()
	// The rule is also the field's help: the refusal is the field marked invalid (before it, what is typed next may be replaced by the reply).
	await expect(page.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true')
	await page.getByLabel('Title').fill('vip')
	await page.getByRole('button', { name: 'Create the label' }).click()
	await expect(page.getByText('Label vip created')).toBeVisible()

	await page.goto('/en-us/dashboard/contacts')
	await expect(page.getByText('No contacts yet.')).toBeVisible()
	await page.getByRole('link', { name: 'New contact' }).first().click()
	await expect(page).toHaveURL('/en-us/dashboard/contacts/itsForm')
	await waitForHydration(page)
	await page.getByLabel('Name', { exact: true }).fill('Élodie Durand')
	await page.getByLabel('E-mail', { exact: true }).fill('Elodie@Example.test')
	await page.getByLabel('Phone', { exact: true }).fill('06 12 34 56 78')
	await page.getByLabel('Country of a local number', { exact: true }).selectOption('FR')
	await page.getByLabel('Company').fill('Durand SARL')
	await page.getByLabel('Custom attributes').fill('plan: Pro')
	await page.getByLabel('vip').check()
	await page.getByRole('button', { name: 'Add the contact' }).click()
	await expect(page.getByText('Élodie Durand added')).toBeVisible()
	const panel = page.getByRole('complementary', { name: 'Élodie Durand' })
	await expect(panel).toContainText('elodie@example.test')
	await expect(panel).toContainText('+33612345678')
	await expect(panel).toContainText('plan')
	await expect(panel).toContainText('vip')

	await panel.getByRole('link', { name: 'Edit' }).click()
	await expect(page.getByLabel('Company')).toHaveValue('Durand SARL')
	await page.getByLabel('Company').fill('Durand & Fils')
	await page.getByRole('button', { name: 'Save the contact' }).click()
	await expect(page.getByRole('complementary', { name: 'Élodie Durand' })).toContainText('Durand & Fils')

	const csv = [
		'\uFEFFname,email,phone,company,labels',
		'Zoé Martin,zoe@example.test,+33 7 81 23 45 67,"Martin, Père & Fils",',
		'محمد علي,mohamed@example.test,+20 10 1234 5678,شركة النيل,',
		'Broken Row,not-an-email,,,',
	].join('\r\n')
	await page.locator('#import-file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
	await page.getByRole('button', { name: 'Import', exact: true }).click()
	const report = page.getByRole('status').filter({ hasText: 'created' })
	await expect(report).toContainText('2 created, 0 updated, 1 refused.')
	await expect(report).toContainText('Row 4:')
	await expect(rows(page)).toHaveCount(3)
	// Another member's change reloads the page's data live; the report stays on the screen.
	const created = await request.post(`/v1/workspaces/${workspace.id}/labels`, {
		data: { title: 'later', color: '#336699' },
		headers: { Authorization: `Bearer ${owner.token}` },
	})
	expect(created.status()).toBe(201)
	await expect(page.getByLabel('Label', { exact: true }).locator('option', { hasText: 'later' })).toHaveCount(1)
	await expect(report).toContainText('2 created, 0 updated, 1 refused.')

	await page.getByRole('searchbox').fill('elodie')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(rows(page)).toHaveCount(1)
	await expect(rows(page).first()).toContainText('Élodie Durand')
	await page.getByRole('searchbox').fill('محمد')
	await page.getByRole('button', { name: 'Search' }).click()
	await expect(rows(page)).toHaveCount(1)
	await expect(rows(page).first()).toContainText('شركة النيل')
	await page.getByRole('link', { name: 'Clear the filters' }).click()
	await expect(rows(page)).toHaveCount(3)

	await page.getByRole('checkbox', { name: 'Select Zoé Martin' }).check()
	await page.getByRole('checkbox', { name: 'Select محمد علي' }).check()
	await page.getByLabel('With the ticked contacts:').selectOption('label')
	// The label is chosen: a new page offers the first by title, 'later' here, not 'vip'.
	await page.getByLabel('Label to add or remove').selectOption({ label: 'vip' })
	await page.getByRole('button', { name: 'Apply' }).click()
	await expect(page.getByText('Label added to 2 contacts')).toBeVisible()

	await page.getByLabel('Label', { exact: true }).selectOption({ label: 'vip' })
	await page.getByRole('button', { name: 'Search' }).click()
	// The unfiltered list has 3 rows too: the count is read once the filter is in the address.
	await expect(page).toHaveURL(/[?&]label=/)
	await expect(rows(page)).toHaveCount(3)
	// Sorted by name: Latin and Arabic names alike.
	await page.getByRole('link', { name: 'Name' }).click()
	await expect(page.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending')

	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()])
	const exported = await fs.readFile((await download.path())!, 'utf8')
	expect(exported.startsWith('\uFEFFname,email,phone,company,labels,notes,created_at')).toBe(true)
	expect(exported).toContain('"Martin, Père & Fils"')
	expect(exported).toContain('محمد علي,mohamed@example.test,+201012345678')
	expect(exported.trim().split('\n')).toHaveLength(4)
})

test.describe('contacts without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('search, bulk actions with a confirmation, and the detail panel work with plain forms', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request)
		const workspace = await createWorkspace(request, owner.token, 'Plain Forms')
		const auth = { Authorization: `Bearer ${owner.token}` }
		for (const name of ['Amira Saleh', 'Bruno Petit', 'Chen Wei']) {
			expect((await request.post(`/v1/workspaces/${workspace.id}/contacts`, { data: { name }, headers: auth })).status()).toBe(201)
		}
		await signIn(context, baseURL!, owner.token)
		await page.goto('/ar-eg/dashboard/contacts')
		await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
		await expect(rows(page)).toHaveCount(3)
		await page.getByRole('searchbox').fill('bruno')
		await page.getByRole('button', { name: 'بحث' }).click()
		await expect(rows(page)).toHaveCount(1)

		await page.goto('/ar-eg/dashboard/contacts')
		await page.getByRole('link', { name: 'Chen Wei' }).click()
		await expect(page.getByRole('complementary', { name: 'Chen Wei' })).toBeVisible()

		await page.getByRole('checkbox', { name: 'تحديد Amira Saleh' }).check()
		await page.getByRole('checkbox', { name: 'تحديد Bruno Petit' }).check()
		await page.getByLabel('مع جهات الاتصال المحددة:').selectOption('delete')
		await page.getByRole('button', { name: 'تطبيق' }).click()
		const confirm = page.getByRole('alertdialog')
		// Arabic's dual: two contacts are جهتَا اتصال, not 2 جهة اتصال.
		await expect(confirm).toContainText('حذف جهتَي اتصال (2) نهائيًا؟')
		await confirm.getByRole('button', { name: 'حذف' }).click()
		await expect(page.getByText('تم حذف جهتَي اتصال (2)')).toBeVisible()
		await expect(rows(page)).toHaveCount(1)

		// An import with a label the owner's file creates; the label is then deleted with a confirmation.
		const csv = 'name,labels\nليلى حسن,عملاء_مميزون\n'
		await page.locator('#import-file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
		await page.getByRole('button', { name: 'استيراد', exact: true }).click()
		await expect(page.getByRole('status').filter({ hasText: 'تم إنشاء 1' })).toBeVisible()
		await page.goto('/ar-eg/dashboard/settings/labels')
		await expect(page.locator('tbody tr')).toContainText(['عملاء_مميزون'])
		await page.getByRole('link', { name: 'حذف التصنيف عملاء_مميزون؟' }).click()
		await page.getByRole('alertdialog').getByRole('button', { name: 'حذف' }).click()
		await expect(page.getByText('تم حذف التصنيف عملاء_مميزون')).toBeVisible()
		await expect(page.getByText('لا توجد تصنيفات بعد.')).toBeVisible()
	})
})

test.describe('a contact’s ratings without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('the panel shows the average, the count and the latest ratings, comments in their own direction, each linking to its conversation', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const link = await linkChannelOf(request)
		const headers = { Authorization: `Bearer ${link.owner.token}` }
		const workspacePath = `/v1/workspaces/${link.workspace.id}`
		expect((await request.patch(`${workspacePath}/channels/${link.channelId}`, { data: { csatEnabled: true }, headers })).ok()).toBe(true)
		const visitor = { 'X-Visitor-Token': crypto.randomBytes(32).toString('base64url') }
		for (const [body, rating, comment] of [
			['Where is my parcel?', 2, 'Too slow this time.'],
			['And the invoice?', 4, 'سريع ولطيف'],
		] as const) {
			expect((await request.post(`/v1/link/${link.slug}/messages`, { data: { body }, headers: visitor })).ok()).toBe(true)
			const [conversation] = await link.conversations()
			expect((await request.patch(`${workspacePath}/conversations/${conversation!.number}`, { data: { status: 'resolved' }, headers })).ok()).toBe(true)
			expect((await request.post(`/v1/link/${link.slug}/satisfaction`, { data: { rating, comment }, headers: visitor })).ok()).toBe(true)
		}
		const [conversation] = await link.conversations()
		await signIn(context, baseURL!, link.owner.token)
		await page.goto(`/ar-eg/dashboard/contacts?contact=${conversation!.contact.id}`)
		const ratings = page.getByRole('region', { name: 'رضا العملاء' })
		// Arabic's dual, in the page's own digits.
		await expect(ratings).toContainText('متوسط ٣ من ٥، من تقييمين (٢)')
		await expect(ratings.getByRole('listitem')).toHaveCount(2)
		await expect(ratings.getByRole('listitem').first()).toContainText('٤ من ٥')
		await expect(ratings.getByText('سريع ولطيف')).toHaveAttribute('dir', 'auto')
		await expect(ratings.getByText('Too slow this time.')).toHaveAttribute('dir', 'auto')
		await ratings
			.getByRole('link', { name: `المحادثة رقم ${conversation!.number}` })
			.first()
			.click()
		await expect(page).toHaveURL(new RegExp(`/ar-eg/dashboard/conversations\\?conversation=${conversation!.number}$`))
		await expect(page.getByRole('complementary').getByRole('region', { name: 'رضا العملاء' })).toContainText('من تقييمين')
	})
})

for (const locale of ['en-us', 'ar-eg'] as const) {
	test(`contact pages are accessible (${locale})`, async ({ page, context, request, baseURL }) => {
		// axe walks every element of several pages: about 13 s alone, more beside another worker.
		test.slow()
		const owner = await registerUser(request)
		const workspace = await createWorkspace(request, owner.token)
		const created = await request.post(`/v1/workspaces/${workspace.id}/contacts`, {
			data: { name: 'سارة', email: 'sara@example.test' },
			headers: { Authorization: `Bearer ${owner.token}` },
		})
		const { id } = (await created.json()) as { id: string }
		await signIn(context, baseURL!, owner.token)
		for (const path of ['/contacts', `/contacts?contact=${id}`, '/contacts/itsForm', `/contacts/itsForm?id=${id}`, '/settings/labels']) {
			await page.goto(`/${locale}/dashboard${path}`)
			await waitForHydration(page)
			await expectAccessible(page)
		}
	})
}

test('dates are shown in the workspace’s time zone, so browsers anywhere hydrate the same page', async ({ browser, request, baseURL }) => {
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token)
	expect(
		(await request.post(`/v1/workspaces/${workspace.id}/contacts`, { data: { name: 'Kai' }, headers: { Authorization: `Bearer ${owner.token}` } })).status(),
	).toBe(201)
	// Between UTC+14 and UTC−12, one of the two is on another day than UTC at any hour.
	for (const timezoneId of ['Etc/GMT-14', 'Etc/GMT+12']) {
		const context = await browser.newContext({ timezoneId })
		await signIn(context, baseURL!, owner.token)
		const page = await context.newPage()
		const errors: string[] = []
		page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
		page.on('pageerror', (error) => errors.push(error.message))
		await page.goto('/en-us/dashboard/contacts')
		await waitForHydration(page)
		await expect(rows(page)).toHaveCount(1)
		expect(errors, timezoneId).toEqual([])
		await context.close()
	}
})

test('a chat visitor’s typed e-mail shows as a claim with the contact it names; an owner merges them after confirming, with and without JavaScript', async ({
	page,
	browser,
	request,
	baseURL,
}) => {
	const link = await linkChannelOf(request, { settings: { askEmail: true } })
	const headers = { Authorization: `Bearer ${link.owner.token}` }
	for (const javaScriptEnabled of [true, false]) {
		const email = uniqueEmail('grace')
		const customer = await request.post(`/v1/workspaces/${link.workspace.id}/contacts`, { data: { name: 'Grace Gold', email, company: 'A-99812' }, headers })
		expect(customer.status()).toBe(201)
		const token = crypto.randomBytes(32).toString('base64url')
		const written = await request.post(`/v1/link/${link.slug}/messages`, {
			data: { body: `Hello ${javaScriptEnabled}`, email },
			headers: { 'X-Visitor-Token': token },
		})
		expect(written.status()).toBe(201)
		const conversation = (await link.conversations()).find((row) => row.lastMessage?.excerpt === `Hello ${javaScriptEnabled}`)
		const visitorId = conversation?.contact.id
		expect(conversation?.contact.name).toMatch(/^Visitor /)

		// With JavaScript, the test's own page (its console is watched); without, a context of its own.
		const context = javaScriptEnabled ? page.context() : await browser.newContext({ javaScriptEnabled })
		await signIn(context, baseURL!, link.owner.token)
		const tab = javaScriptEnabled ? page : await context.newPage()
		await tab.goto(`/en-us/dashboard/contacts?contact=${visitorId}`)
		const panel = tab.getByRole('complementary', { name: conversation!.contact.name })
		await expect(panel).toContainText(`E-mail they typed${email} (not verified)`)
		await expect(panel.getByRole('region', { name: 'Possible match' })).toContainText('This e-mail belongs to Grace Gold')
		await panel.getByRole('link', { name: 'Merge into Grace Gold' }).click()
		const dialog = tab.getByRole('alertdialog', { name: `Merge ${conversation!.contact.name} into Grace Gold?` })
		await expect(dialog).toContainText('anyone can type any e-mail in a chat')
		await dialog.getByRole('button', { name: 'Merge' }).click()
		await expect(tab.getByText(`${conversation!.contact.name} merged into Grace Gold`)).toBeVisible()
		const merged = tab.getByRole('complementary', { name: 'Grace Gold' })
		await expect(merged).toContainText('A visitor of the chat link')
		await expect(merged).toContainText('A-99812')
		if (!javaScriptEnabled) await context.close()
	}
})

// Issue 27, item 11: a Cairo team types its customers' numbers as they dial them.
async function cairoOwner(request: APIRequestContext) {
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'Cairo Desk')
	const auth = { Authorization: `Bearer ${owner.token}` }
	expect((await request.patch(`/v1/workspaces/${workspace.id}`, { data: { timezone: 'Africa/Cairo' }, headers: auth })).status()).toBe(200)
	return { owner, workspace, auth }
}

test('the contact form offers every country by name, the workspace’s first; a local number is read in it, or in a country found by its name', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	const { owner } = await cairoOwner(request)
	await signIn(context, baseURL!, owner.token)
	await page.goto('/en-us/dashboard/contacts/itsForm')
	await waitForHydration(page)
	const country = page.getByLabel('Country of a local number', { exact: true })
	await expect(country).toHaveValue('EG')
	await expect(country.locator('option:checked')).toHaveText('Egypt')
	expect(await country.locator('option').count()).toBeGreaterThan(200)
	await page.getByLabel('Name', { exact: true }).fill('Mona Adel')
	await page.getByLabel('Phone', { exact: true }).fill('010 1234 5678')
	await page.getByRole('button', { name: 'Add the contact' }).click()
	await expect(page.getByRole('complementary', { name: 'Mona Adel' })).toContainText('+201012345678')

	// The search box's suggestion picks the country at once.
	await page.getByRole('complementary', { name: 'Mona Adel' }).getByRole('link', { name: 'Edit' }).click()
	await waitForHydration(page)
	// A search box with suggestions (a datalist) is a combobox.
	await page.getByRole('combobox', { name: 'Find a country: Country of a local number' }).fill('France')
	await expect(country).toHaveValue('FR')
	await page.getByLabel('Phone', { exact: true }).fill('06 12 34 56 78')
	await page.getByRole('button', { name: 'Save the contact' }).click()
	await expect(page.getByRole('complementary', { name: 'Mona Adel' })).toContainText('+33612345678')
})

test.describe('the country picker without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('a typed country name is read by the server; an unknown one is said beside the field, with what was typed kept', async ({
		page,
		context,
		request,
		baseURL,
	}) => {
		const { owner } = await cairoOwner(request)
		await signIn(context, baseURL!, owner.token)
		await page.goto('/ar-eg/dashboard/contacts/itsForm')
		await expect(page.getByLabel('دولة الرقم المحلي', { exact: true })).toHaveValue('EG')
		await page.getByLabel('الاسم', { exact: true }).fill('Alain Roux')
		await page.getByLabel('الهاتف', { exact: true }).fill('06 12 34 56 78')
		// A search box with suggestions (a datalist) is a combobox.
		const search = page.getByRole('combobox', { name: 'ابحث عن دولة: دولة الرقم المحلي' })
		await search.fill('أتلانتس')
		await page.getByRole('button', { name: 'إضافة جهة الاتصال' }).click()
		await expect(page.getByText('لا توجد دولة باسم «أتلانتس»: اختر دولة من القائمة.')).toBeVisible()
		await expect(page.getByLabel('الاسم', { exact: true })).toHaveValue('Alain Roux')
		await expect(page.getByLabel('الهاتف', { exact: true })).toHaveValue('06 12 34 56 78')
		await search.fill('فرنسا')
		await page.getByRole('button', { name: 'إضافة جهة الاتصال' }).click()
		await expect(page.getByRole('complementary', { name: 'Alain Roux' })).toContainText('+33612345678')
	})
})

for (const javaScriptEnabled of [true, false]) {
	test.describe(`contacts list ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
		test.use({ javaScriptEnabled })

		test('the import reads local numbers in the workspace’s country or the one chosen, and the address stays /contacts', async ({
			page,
			context,
			request,
			baseURL,
		}) => {
			const { owner } = await cairoOwner(request)
			await signIn(context, baseURL!, owner.token)
			await page.goto('/en-us/dashboard/contacts')
			if (javaScriptEnabled) await waitForHydration(page)
			const country = page.getByLabel('Country of numbers without their code', { exact: true })
			await expect(country).toHaveValue('EG')
			const csv = 'name,phone\nنور,010 9876 5432\nAlain,06 11 22 33 44\n'
			await page.locator('#import-file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
			await page.getByRole('button', { name: 'Import', exact: true }).click()
			await expect(page.getByRole('status').filter({ hasText: 'created' })).toContainText('1 created, 0 updated, 1 refused.')
			await expect(page).toHaveURL('/en-us/dashboard/contacts')
			await page.locator('#import-file').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
			await country.selectOption({ label: 'France' })
			await page.getByRole('button', { name: 'Import', exact: true }).click()
			await expect(page.getByRole('status').filter({ hasText: 'created' })).toContainText('1 created, 0 updated, 1 refused.')
			await expect(page).toHaveURL('/en-us/dashboard/contacts')
			// The country chosen stays chosen for the next file.
			await expect(country).toHaveValue('FR')
			await expect(rows(page)).toHaveCount(2)
		})

		test('“Select all” ticks every row of the page for a bulk action', async ({ page, context, request, baseURL }) => {
			const owner = await registerUser(request)
			const workspace = await createWorkspace(request, owner.token, 'Select All')
			const auth = { Authorization: `Bearer ${owner.token}` }
			for (const name of ['Amira Saleh', 'Bruno Petit', 'Chen Wei']) {
				expect((await request.post(`/v1/workspaces/${workspace.id}/contacts`, { data: { name }, headers: auth })).status()).toBe(201)
			}
			expect((await request.post(`/v1/workspaces/${workspace.id}/labels`, { data: { title: 'vip', color: '#336699' }, headers: auth })).status()).toBe(201)
			await signIn(context, baseURL!, owner.token)
			await page.goto('/en-us/dashboard/contacts')
			if (javaScriptEnabled) {
				await waitForHydration(page)
				await page.getByRole('checkbox', { name: 'Select all' }).check()
			} else {
				// The page's own: the sidebar's link is named after the workspace, "Select All".
				await page.getByRole('main').getByRole('link', { name: 'Select all' }).click()
			}
			for (const name of ['Amira Saleh', 'Bruno Petit', 'Chen Wei']) await expect(page.getByRole('checkbox', { name: `Select ${name}` })).toBeChecked()
			await page.getByLabel('With the ticked contacts:').selectOption('label')
			await page.getByRole('button', { name: 'Apply' }).click()
			await expect(page.getByText('Label added to 3 contacts')).toBeVisible()
			await expect(page.getByRole('checkbox', { name: 'Select Chen Wei' })).not.toBeChecked()
		})
	})
}

test('at 1440 px the list shows every column, “Added” and “Last activity” too, with a contact open or not', async ({ page, context, request, baseURL }) => {
	await page.setViewportSize({ width: 1440, height: 900 })
	const owner = await registerUser(request)
	const workspace = await createWorkspace(request, owner.token, 'Wide Screen')
	const created = await request.post(`/v1/workspaces/${workspace.id}/contacts`, {
		data: {
			name: 'Bartholomew Featherstonehaugh',
			email: 'bartholomew.featherstonehaugh@example.test',
			phone: '+33 6 12 34 56 78',
			company: 'Featherstonehaugh Logistics',
		},
		headers: { Authorization: `Bearer ${owner.token}` },
	})
	const { id } = (await created.json()) as { id: string }
	await signIn(context, baseURL!, owner.token)
	for (const path of ['/en-us/dashboard/contacts', `/en-us/dashboard/contacts?contact=${id}`]) {
		await page.goto(path)
		for (const column of ['Added', 'Last activity']) await expect(page.getByRole('columnheader', { name: column })).toBeInViewport({ ratio: 1 })
	}
})
