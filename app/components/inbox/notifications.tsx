import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Toast } from '#app/.server/toast.ts'
import { notificationText } from '#app/components/notifications/notification-line.tsx'
import { ToastMessage } from '#app/components/toaster.tsx'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { listenAsUser } from '#app/realtime/pusher.client.ts'
import { notificationEvent, notificationKinds, type NotificationEventData } from '#common/notifications.ts'

const isNotification = (data: unknown): data is NotificationEventData =>
	typeof data === 'object' &&
	data !== null &&
	typeof (data as NotificationEventData).workspaceId === 'string' &&
	notificationKinds.includes((data as NotificationEventData).notification?.kind)

/**
 * The signed-in member's new notifications (of the workspace shown) as toasts, on every dashboard
 * page; the bell counts them. The shell loads the `notifications` namespace.
 */
export function InboxNotifications({ session, workspaceId }: { session: RealtimeSession | null; workspaceId: string | null }) {
	const { t, i18n } = useTranslation()
	const [toast, setToast] = useState<Toast | null>(null)
	const userId = session?.userId
	const key = session?.config.key
	// Most visits of the dashboard lead to the inbox: its words load while the browser is idle.
	useEffect(() => {
		if (!userId) return
		const idle = window.requestIdleCallback?.(() => void i18n.loadNamespaces('inbox')) ?? window.setTimeout(() => void i18n.loadNamespaces('inbox'), 2000)
		return () => (window.cancelIdleCallback ? window.cancelIdleCallback(idle) : window.clearTimeout(idle))
	}, [userId, i18n])
	useEffect(() => {
		if (!session || !key) return
		return listenAsUser(session, notificationEvent, (data) => {
			if (!isNotification(data) || data.workspaceId !== workspaceId) return
			void i18n.loadNamespaces('notifications').then(() => setToast({ id: crypto.randomUUID(), type: 'info', title: notificationText(t, data.notification) }))
		})
		// The session object is new on every revalidation: the user, the key and the workspace decide.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [userId, key, workspaceId, i18n, t])
	return <ToastMessage toast={toast} />
}
