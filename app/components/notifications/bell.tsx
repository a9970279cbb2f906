import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { listenAsUser } from '#app/realtime/pusher.client.ts'
import { button } from '#app/components/ui/button.css.ts'
import { useHydrated } from '#app/utils/hydration.ts'
import {
	notificationEvent,
	notificationsReadEvent,
	type NotificationEventData,
	type NotificationJson,
	type NotificationPage,
	type NotificationsReadEventData,
} from '#common/notifications.ts'
import { NotificationList } from './notification-list.tsx'
import { playNotificationSound } from './sound.client.ts'
import { useUnreadTitle } from './use-unread-title.ts'
import * as styles from './notifications.css.ts'

const menuSize = 10

const isNotificationEvent = (data: unknown): data is NotificationEventData =>
	typeof data === 'object' &&
	data !== null &&
	typeof (data as NotificationEventData).workspaceId === 'string' &&
	typeof (data as NotificationEventData).notification?.id === 'string' &&
	Number.isInteger((data as NotificationEventData).unread)

const isReadEvent = (data: unknown): data is NotificationsReadEventData =>
	typeof data === 'object' &&
	data !== null &&
	typeof (data as NotificationsReadEventData).workspaceId === 'string' &&
	Number.isInteger((data as NotificationsReadEventData).unread)

type Shown = { notifications: NotificationJson[]; unread: number }

/**
 * The latest notifications and the unread count: the shell's loaded ones, then the personal channel's
 * events merged in (a new one, some read elsewhere), with no reload.
 */
function useLiveNotifications(
	loaded: NotificationPage | null,
	{ page, session, workspaceId, sound }: { page: string; session: RealtimeSession | null; workspaceId: string; sound: boolean },
) {
	const [shown, setShown] = useState<Shown & { from: NotificationPage | null }>({
		from: loaded,
		notifications: loaded?.notifications ?? [],
		unread: loaded?.unread ?? 0,
	})
	// The shell read them again (after a form was posted): they replace what was merged.
	if (shown.from !== loaded) setShown({ from: loaded, notifications: loaded?.notifications ?? [], unread: loaded?.unread ?? 0 })
	const soundOn = useRef(sound)
	const refresh = useFetcher<{ notifications: NotificationJson[]; unread: number }>()
	const refreshRef = useRef(refresh.load)
	useEffect(() => {
		soundOn.current = sound
		refreshRef.current = refresh.load
	})
	const userId = session?.userId
	const key = session?.config.key
	useEffect(() => {
		if (!session || !key) return
		const stopNew = listenAsUser(session, notificationEvent, (data) => {
			if (!isNotificationEvent(data) || data.workspaceId !== workspaceId) return
			setShown((before) => ({
				...before,
				unread: data.unread,
				notifications: [data.notification, ...before.notifications.filter((each) => each.id !== data.notification.id)].slice(0, menuSize),
			}))
			if (soundOn.current) playNotificationSound()
		})
		const stopRead = listenAsUser(session, notificationsReadEvent, (data) => {
			if (!isReadEvent(data) || data.workspaceId !== workspaceId) return
			const readAt = new Date().toISOString()
			setShown((before) => ({
				...before,
				unread: data.unread,
				notifications: data.unread === 0 ? before.notifications.map((each) => (each.readAt ? each : { ...each, readAt })) : before.notifications,
			}))
			// Some of them read elsewhere (a conversation opened): which, the list says.
			if (data.unread > 0) refreshRef.current(page)
		})
		return () => {
			stopNew()
			stopRead()
		}
		// The session object is new on every revalidation: the user, the key and the workspace decide.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [userId, key, workspaceId, page])
	const refreshed = refresh.data
	const [merged, setMerged] = useState(refreshed)
	if (refreshed && refreshed !== merged) {
		setMerged(refreshed)
		setShown((before) => ({ ...before, notifications: refreshed.notifications.slice(0, menuSize), unread: refreshed.unread }))
	}
	return shown
}

/**
 * The top bar's bell: the unread count, a link to the notifications page (so it works without
 * JavaScript), and with JavaScript a menu of the latest ten.
 */
export function NotificationBell({
	locale,
	loaded,
	sound,
	session,
	workspaceId,
}: {
	locale: string
	loaded: NotificationPage | null
	sound: boolean
	session: RealtimeSession | null
	workspaceId: string
}) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const location = useLocation()
	const page = `/${locale}/dashboard/notifications`
	const { notifications, unread } = useLiveNotifications(loaded, { page, session, workspaceId, sound })
	useUnreadTitle(unread)
	// Open on the page where it was opened: a link followed from the menu closes it.
	const [openAt, setOpenAt] = useState<string | null>(null)
	const open = openAt === location.key
	const close = () => setOpenAt(null)
	const panelId = useId()
	const wrapper = useRef<HTMLDivElement>(null)
	const trigger = useRef<HTMLButtonElement>(null)
	const readAll = useFetcher()
	const here = location.pathname + location.search
	const label = unread > 0 ? t('notifications:bell.labelUnread', { count: unread }) : t('notifications:bell.label')

	useEffect(() => {
		if (!open) return
		const outside = (event: PointerEvent) => {
			if (!wrapper.current?.contains(event.target as Node)) close()
		}
		const escape = (event: KeyboardEvent) => {
			if (event.key !== 'Escape') return
			close()
			trigger.current?.focus()
		}
		document.addEventListener('pointerdown', outside)
		document.addEventListener('keydown', escape)
		return () => {
			document.removeEventListener('pointerdown', outside)
			document.removeEventListener('keydown', escape)
		}
	}, [open])

	const face = (
		<>
			<BellIcon />
			{unread > 0 ? (
				<span className={styles.badge} aria-hidden="true">
					{unread > 99 ? '99+' : unread}
				</span>
			) : null}
		</>
	)
	if (!hydrated) {
		return (
			<div className={styles.bell}>
				<Link to={page} className={`${button.ghost} ${styles.bellButton}`} aria-label={label}>
					{face}
				</Link>
			</div>
		)
	}
	return (
		<div className={styles.bell} ref={wrapper}>
			<button
				ref={trigger}
				type="button"
				className={`${button.ghost} ${styles.bellButton}`}
				aria-label={label}
				aria-expanded={open}
				aria-controls={open ? panelId : undefined}
				onClick={() => setOpenAt(open ? null : location.key)}
			>
				{face}
			</button>
			{open ? (
				<div id={panelId} className={styles.panel} role="region" aria-label={t('notifications:bell.title')}>
					<div className={styles.panelHead}>
						<p className={styles.panelTitle}>{t('notifications:bell.title')}</p>
						{unread > 0 ? (
							<readAll.Form method="post" action={page}>
								<input type="hidden" name="redirectTo" value={here} />
								<button type="submit" className={button.ghost} disabled={readAll.state !== 'idle'}>
									{t('notifications:bell.markAllRead')}
								</button>
							</readAll.Form>
						) : null}
					</div>
					{notifications.length ? (
						<NotificationList locale={locale} notifications={notifications} compact />
					) : (
						<p className={styles.panelEmpty}>{t('notifications:page.empty')}</p>
					)}
					<div className={styles.panelFoot}>
						<Link to={page} className={button.ghost}>
							{t('notifications:bell.seeAll')}
						</Link>
						<Link to={`${page}/settings`} className={button.ghost}>
							{t('notifications:bell.settings')}
						</Link>
					</div>
				</div>
			) : null}
		</div>
	)
}

function BellIcon() {
	return (
		<svg
			width="20"
			height="20"
			viewBox="0 0 24 24"
			fill="none"
			stroke="currentColor"
			strokeWidth="2"
			strokeLinecap="round"
			strokeLinejoin="round"
			aria-hidden="true"
		>
			<path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
			<path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
		</svg>
	)
}
