import { expect, test, waitForHydration } from './fixtures.ts'

/**
 * The push service worker (public/push-worker.js) in a real browser, under the site's CSP: it
 * registers for the whole site, and a push message (delivered as the browser's push service would,
 * through the DevTools protocol) becomes a notification with the server's words, tag and icon.
 */
test('the push worker registers at the root and shows what a push carries', async ({ page, context, baseURL }) => {
	await context.grantPermissions(['notifications'], { origin: baseURL! })
	await page.goto('/ar-eg')
	await waitForHydration(page)
	const registered = await page.evaluate(async () => {
		const registration = await navigator.serviceWorker.register('/push-worker.js', { scope: '/' })
		await navigator.serviceWorker.ready
		return { scope: registration.scope, script: registration.active?.scriptURL }
	})
	expect(registered).toEqual({ scope: `${baseURL}/`, script: `${baseURL}/push-worker.js` })

	const cdp = await context.newCDPSession(page)
	await cdp.send('ServiceWorker.enable')
	const registrationId = await new Promise<string>((resolve) => {
		cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
			const ours = registrations.find((entry) => entry.scopeURL === `${baseURL}/` && !entry.isDeleted)
			if (ours) resolve(ours.registrationId)
		})
	})
	const message = {
		title: 'أتيليه نورد',
		body: 'أُسندت إليك المحادثة رقم 7 مع \u2068Amal\u2069',
		url: `${baseURL}/ar-eg/dashboard/notifications/42`,
		tag: 'conversation-w-7',
	}
	await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data: JSON.stringify(message) })
	await expect
		.poll(() =>
			page.evaluate(async () => {
				const registration = await navigator.serviceWorker.ready
				return (await registration.getNotifications()).map((shown) => ({
					title: shown.title,
					body: shown.body,
					tag: shown.tag,
					icon: shown.icon,
					data: shown.data as unknown,
				}))
			}),
		)
		.toEqual([{ title: message.title, body: message.body, tag: message.tag, icon: `${baseURL}/favicon.svg`, data: { url: message.url } }])
})
