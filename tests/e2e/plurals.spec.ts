import { createWorkspace, registerUser, signIn } from './accounts.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { linkChannelOf, visitorWrites } from './link-support.ts'

test.describe('counts are said with the language’s plural forms', () => {
	test.use({ javaScriptEnabled: false })

	test('the contacts in view: one, two and many, in English, French and Arabic', async ({ page, context, request, baseURL }) => {
		const owner = await registerUser(request)
		const workspace = await createWorkspace(request, owner.token)
		const add = async (name: string) =>
			expect(
				(await request.post(`/v1/workspaces/${workspace.id}/contacts`, { data: { name }, headers: { Authorization: `Bearer ${owner.token}` } })).status(),
			).toBe(201)
		await signIn(context, baseURL!, owner.token)
		const said = (locale: string) => page.goto(`/${locale}/dashboard/contacts`).then(() => page.getByText(/in this view|dans cette vue|في هذا العرض/))

		await add('Amal')
		await expect(await said('en-us')).toHaveText('1 contact in this view')
		await expect(await said('fr-x')).toHaveText('1 contact dans cette vue')
		await expect(await said('ar-eg')).toHaveText('جهة اتصال واحدة في هذا العرض (1)')
		await add('Bruno')
		await expect(await said('en-us')).toHaveText('2 contacts in this view')
		await expect(await said('ar-eg')).toHaveText('جهتا اتصال في هذا العرض (2)')
		await add('Chloé')
		await expect(await said('ar-eg')).toHaveText('3 جهات اتصال في هذا العرض')
	})

	test('a small file’s size: “29 bytes”, “29 octets”', async ({ page, context, request, baseURL }) => {
		const link = await linkChannelOf(request)
		await visitorWrites(request, link.slug, 'The form, please?')
		const [conversation] = await link.conversations()
		await link.attach(conversation!.number, 'Here it is', { name: 'form.txt', mimeType: 'text/plain', buffer: Buffer.from('a form of exactly 29 bytes...') })
		await signIn(context, baseURL!, link.owner.token)
		await page.goto(`/en-us/dashboard/conversations?conversation=${conversation!.number}`)
		await expect(page.getByRole('link', { name: /form\.txt/ })).toContainText(/\(29\sbytes\)/)
		await page.goto(`/fr-x/dashboard/conversations?conversation=${conversation!.number}`)
		await expect(page.getByRole('link', { name: /form\.txt/ })).toContainText(/\(29\soctets\)/)
	})
})

test('French relative times read “il y a 3 min”, not “-3 min”, in the page and as the browser keeps them current', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	const link = await linkChannelOf(request)
	await visitorWrites(request, link.slug, 'Bonjour ?')
	await signIn(context, baseURL!, link.owner.token)
	await page.clock.install()
	await page.goto('/fr-x/dashboard/conversations')
	await waitForHydration(page)
	const time = page.locator('[data-pane="list"] li[data-conversation] time')
	await expect(time).toHaveText('maintenant')
	await page.clock.fastForward('03:00')
	await expect(time).toHaveText(/^il y a 3\smin$/)
	await page.clock.fastForward('02:00:00')
	await expect(time).toHaveText(/^il y a 2\sh$/)
})
