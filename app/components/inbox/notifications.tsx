import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Toast } from '#app/.server/toast.ts'
import { ToastMessage } from '#app/components/toaster.tsx'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { listenAsUser } from '#app/realtime/pusher.client.ts'

type Notification = { kind: 'assigned' | 'mentioned'; workspaceId: string; number: number }

const isNotification = (data: unknown): data is Notification =>
	typeof data === 'object' &&
	data !== null &&
	['assigned', 'mentioned'].includes((data as Notification).kind) &&
	Number.isInteger((data as Notification).number)

/**
 * The personal notifications of the signed-in member (a conversation assigned to them, a mention in a
 * note) as toasts, on every dashboard page. The inbox's words load with the first one.
 */
export function InboxNotifications({ session }: { session: RealtimeSession | null }) {
	const { i18n } = useTranslation()
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
		return listenAsUser(session, 'notification', (data) => {
			if (!isNotification(data)) return
			void i18n
				.loadNamespaces('inbox')
				.then(() => setToast({ id: crypto.randomUUID(), type: 'info', title: i18n.t(`inbox:notifications.${data.kind}`, { number: data.number }) }))
		})
		// The session object is new on every revalidation: the user and the key decide.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [userId, key, i18n])
	return <ToastMessage toast={toast} />
}
