import { signIn } from './accounts.ts'
import { expect, test } from './fixtures.ts'
import { linkChannelOf } from './link-support.ts'

// Issue 31: a channel's own business hours on its settings page, without JavaScript: the workspace's
// by default, its own from the same editor, a refusal beside its day with every value kept.
test.use({ javaScriptEnabled: false })

const weekdays = [[{ from: '09:00', to: '17:00' }], [{ from: '09:00', to: '17:00' }], [], [], [], [], []]

test('without JavaScript an owner gives a channel its own hours through a refusal, then gives it back the workspace’s', async ({
	page,
	context,
	request,
	baseURL,
}) => {
	const link = await linkChannelOf(request)
	const headers = { Authorization: `Bearer ${link.owner.token}` }
	const hours = await request.patch(`/v1/workspaces/${link.workspace.id}`, { data: { businessHours: { days: weekdays, holidays: [] } }, headers })
	expect(hours.status()).toBe(200)
	await signIn(context, baseURL!, link.owner.token)
	const channelHours = async () => {
		const response = await request.get(`/v1/workspaces/${link.workspace.id}/channels/${link.channelId}`, { headers })
		return ((await response.json()) as { businessHours: unknown }).businessHours
	}

	await page.goto(`/en-us/dashboard/settings/channels/${link.channelId}`)
	const section = page.getByRole('region', { name: 'Business hours' })
	await expect(section.getByRole('radio', { name: 'Use the workspace’s hours' })).toBeChecked()
	// Its own hours start from the workspace's.
	await expect(section.getByLabel('Monday, range 1: opens')).toHaveValue('09:00')
	await expect(section.getByRole('checkbox', { name: 'Open on Saturday' })).not.toBeChecked()

	await section.getByRole('radio', { name: 'Its own hours' }).check()
	await section.getByRole('checkbox', { name: 'Open on Saturday' }).check()
	await section.getByLabel('Saturday, range 1: opens').fill('10:00')
	await section.getByLabel('Saturday, range 1: closes').fill('14:00')
	await section.getByLabel('Monday, range 2: opens').fill('18:00')
	await section.getByLabel('Monday, range 2: closes').fill('17:30')
	await section.getByRole('button', { name: 'Save business hours' }).click()

	// Refused beside Monday, nothing typed lost, nothing saved.
	const refusedSection = page.getByRole('region', { name: 'Business hours' })
	await expect(refusedSection.getByText('The closing time must be after the opening time.')).toBeVisible()
	await expect(refusedSection.getByLabel('Monday, range 2: closes')).toHaveAttribute('aria-invalid', 'true')
	await expect(refusedSection.getByRole('radio', { name: 'Its own hours' })).toBeChecked()
	await expect(refusedSection.getByRole('checkbox', { name: 'Open on Saturday' })).toBeChecked()
	await expect(refusedSection.getByLabel('Saturday, range 1: closes')).toHaveValue('14:00')
	await expect(refusedSection.getByLabel('Monday, range 2: opens')).toHaveValue('18:00')
	expect(await channelHours()).toBeNull()

	await refusedSection.getByLabel('Monday, range 2: opens').fill('')
	await refusedSection.getByLabel('Monday, range 2: closes').fill('')
	await refusedSection.getByRole('button', { name: 'Save business hours' }).click()
	await expect(page.getByText('Website: business hours saved.')).toBeVisible()
	expect(await channelHours()).toEqual({
		days: [[{ from: '09:00', to: '17:00' }], [{ from: '09:00', to: '17:00' }], [], [], [], [{ from: '10:00', to: '14:00' }], []],
		holidays: [],
	})
	await expect(page.getByRole('region', { name: 'Business hours' }).getByRole('radio', { name: 'Its own hours' })).toBeChecked()

	// In Arabic, right to left, and back to the workspace's.
	await page.goto(`/ar-eg/dashboard/settings/channels/${link.channelId}`)
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	const arabic = page.getByRole('region', { name: 'ساعات العمل' })
	await expect(arabic.getByLabel(/^السبت/).first()).toHaveValue('10:00')
	await arabic.getByRole('radio', { name: 'استخدام ساعات عمل مساحة العمل' }).check()
	await arabic.getByRole('button', { name: 'حفظ ساعات العمل' }).click()
	await expect(page.getByText('Website: تم حفظ ساعات العمل.')).toBeVisible()
	expect(await channelHours()).toBeNull()
})

// At 390 px each day is a block whose ranges wrap under its name: a day's second range is on screen, the page does not scroll sideways.
for (const lang of ['en-us', 'ar-eg'] as const) {
	test(`at 390 px in ${lang} the workspace’s and the channel’s hours fit the phone`, async ({ page, context, request, baseURL }) => {
		const link = await linkChannelOf(request)
		await signIn(context, baseURL!, link.owner.token)
		await page.setViewportSize({ width: 390, height: 844 })
		const secondRange = lang === 'en-us' ? 'Sunday, range 2: closes' : 'الأحد، الفترة 2: يغلق'
		for (const path of [`/${lang}/dashboard/settings/workspaces?edit=${link.workspace.id}`, `/${lang}/dashboard/settings/channels/${link.channelId}`]) {
			await page.goto(path)
			const input = page.getByLabel(secondRange)
			const box = await input.boundingBox()
			expect(box, path).not.toBeNull()
			expect(box!.x, path).toBeGreaterThanOrEqual(0)
			expect(box!.x + box!.width, path).toBeLessThanOrEqual(390)
			expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390)
		}
	})
}
