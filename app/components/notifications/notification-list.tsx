import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useDateFormat } from '#app/utils/dates.ts'
import { type NotificationJson } from '#common/notifications.ts'
import { NotificationLine, notificationHref } from './notification-line.tsx'
import * as styles from './notifications.css.ts'

/** Notifications, newest first: each a link to what it is about (its page marks it read), the unread ones marked. */
export function NotificationList({ locale, notifications, compact = false }: { locale: string; notifications: NotificationJson[]; compact?: boolean }) {
	const { t } = useTranslation()
	const when = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	return (
		<ol className={compact ? styles.compactList : styles.list}>
			{notifications.map((notification) => {
				const unread = notification.readAt === null
				return (
					<li key={notification.id}>
						<Link to={notificationHref(locale, notification)} className={styles.item} data-unread={unread}>
							<span className={styles.dot} aria-hidden="true" />
							<span className={styles.text}>
								{unread ? <span className="visually-hidden">{t('notifications:page.unreadMark')} </span> : null}
								<NotificationLine notification={notification} />
							</span>
							<time className={styles.time} dateTime={notification.createdAt}>
								{when(notification.createdAt)}
							</time>
						</Link>
					</li>
				)
			})}
		</ol>
	)
}
