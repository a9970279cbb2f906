/* global self, URL */
/**
 * The browser push service worker (docs/decisions/025-notifications.md): shows what the server's
 * `send-push` job sent (api/notifications/push.ts: `{ title, body, url, tag }`, already in the
 * member's language), and on a click focuses a tab of that page or opens one. Served at the site's
 * root so that its scope is the whole app. Plain JavaScript: the browser loads it as it is.
 */

self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

function messageOf(data) {
	if (!data) return {}
	try {
		const message = data.json()
		return message && typeof message === 'object' ? message : {}
	} catch {
		return { body: data.text() }
	}
}

self.addEventListener('push', (event) => {
	const message = messageOf(event.data)
	const title = typeof message.title === 'string' && message.title ? message.title : self.location.host
	event.waitUntil(
		self.registration.showNotification(title, {
			body: typeof message.body === 'string' ? message.body : '',
			// A newer notification of the same conversation replaces the older one instead of piling up.
			tag: typeof message.tag === 'string' ? message.tag : undefined,
			renotify: typeof message.tag === 'string',
			icon: '/favicon.svg',
			// Arabic and French alike: the text says its own direction.
			dir: 'auto',
			data: { url: typeof message.url === 'string' ? message.url : '/' },
		}),
	)
})

self.addEventListener('notificationclick', (event) => {
	event.notification.close()
	const url = new URL(event.notification.data?.url ?? '/', self.location.origin).href
	event.waitUntil(
		(async () => {
			const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
			const same = tabs.find((tab) => tab.url === url)
			if (same) return same.focus()
			// A tab of the app this worker controls goes there, rather than one more tab.
			const ours = tabs.find((tab) => new URL(tab.url).origin === self.location.origin && 'navigate' in tab && new URL(tab.url).pathname.includes('/dashboard'))
			if (ours) {
				const focused = await ours.focus()
				return focused.navigate(url).catch(() => self.clients.openWindow(url))
			}
			return self.clients.openWindow(url)
		})(),
	)
})
