import { useParams } from '@remix-run/react'
import { useEffect } from 'react'

/** While a tab is in front, it says so this often: the API counts the member as looking for 60 s after each. */
const renewMs = 30_000
/** Focus flickers (a dialog, switching windows): no more than one report this close to the last, unless it changed. */
const throttleMs = 5_000

/**
 * Tells the API whether this tab of `workspaceId` is in front of the member (focused and visible), so
 * that the notifications they are looking at do not also arrive as a browser push. Mounted once by
 * the dashboard's shell; it renders nothing, and posts to `/{lang}/dashboard/focus`.
 */
export function useFocusPresence(workspaceId: string | null | undefined) {
	const { lang } = useParams()
	useEffect(() => {
		if (!workspaceId || !lang) return
		let last: { focused: boolean; at: number } | undefined
		const report = (force = false) => {
			const focused = document.visibilityState === 'visible' && document.hasFocus()
			const now = Date.now()
			if (!force && last && last.focused === focused && now - last.at < throttleMs) return
			// Not focused and never said so: nothing to take back.
			if (!focused && !last?.focused) return
			last = { focused, at: now }
			const body = new URLSearchParams({ workspaceId, focused: String(focused) })
			// keepalive: the last word of a tab being closed still goes.
			void fetch(`/${lang}/dashboard/focus`, { method: 'POST', body, keepalive: true, credentials: 'same-origin' }).catch(() => {})
		}
		const onChange = () => report()
		const renew = window.setInterval(() => {
			if (last?.focused) report(true)
		}, renewMs)
		window.addEventListener('focus', onChange)
		window.addEventListener('blur', onChange)
		document.addEventListener('visibilitychange', onChange)
		report()
		return () => {
			window.clearInterval(renew)
			window.removeEventListener('focus', onChange)
			window.removeEventListener('blur', onChange)
			document.removeEventListener('visibilitychange', onChange)
			// Another workspace, or the dashboard left: this one is no longer looked at.
			if (last?.focused) {
				const body = new URLSearchParams({ workspaceId, focused: 'false' })
				void fetch(`/${lang}/dashboard/focus`, { method: 'POST', body, keepalive: true, credentials: 'same-origin' }).catch(() => {})
			}
		}
	}, [workspaceId, lang])
}
