import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { listNotifications, markAllNotificationsRead } from '#app/.server/notifications.ts'
import { refusalToast, requireUser, rethrowApiError } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { NotificationList } from '#app/components/notifications/notification-list.tsx'
import { button } from '#app/components/ui/button.css.ts'
import * as table from '#app/components/ui/table.css.ts'
import { formOf } from '#app/utils/http.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { safePath } from '#app/utils/redirect.ts'
import * as styles from './dashboard.css.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => pageTitle(data?.title)

/** A page of 30, newest first; `?cursor=` goes to older ones. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	// A cursor is a notification's id; another (a hand-edited address) is the first page.
	const asked = new URL(args.request.url).searchParams.get('cursor') ?? ''
	const cursor = /^\d{1,18}$/.test(asked) ? asked : null
	const page = await listNotifications(api, user.workspace.id, { cursor, limit: 30 }).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	const t = await serverT(locale)
	return { title: t('notifications:page.title'), locale, paged: Boolean(cursor), ...page }
}

/** "Mark all read", from this page or the bell's menu (`redirectTo`: where it was asked). */
export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const formData = await formOf(request)
	const t = await serverT(locale)
	const to = safePath(formData.get('redirectTo')) ?? `/${locale}/dashboard/notifications`
	try {
		await markAllNotificationsRead(api, user.workspace.id)
	} catch (error) {
		return refusalToast(error, { locale, request, to, title: t('notifications:page.markAllFailed') })
	}
	return redirectWithToast(to, { type: 'success', title: t('notifications:page.allRead') })
}

export default function Notifications() {
	const { title, locale, paged, notifications, unread, nextCursor } = useLoaderData<typeof loader>()
	const { t } = useTranslation()
	const base = `/${locale}/dashboard/notifications`
	return (
		<>
			<header className={styles.pageHeader}>
				<h1 className={styles.pageTitle}>{title}</h1>
				<p className={styles.pageLead}>{t('notifications:page.unread', { count: unread })}</p>
			</header>
			<div className={styles.actionsRow}>
				{unread > 0 ? (
					<Form method="post" action={base}>
						<input type="hidden" name="redirectTo" value={base} />
						<button type="submit" className={button.outline}>
							{t('notifications:bell.markAllRead')}
						</button>
					</Form>
				) : null}
				<Link to={`${base}/settings`} className={button.ghost}>
					{t('notifications:bell.settings')}
				</Link>
			</div>
			{notifications.length ? (
				<NotificationList locale={locale} notifications={notifications} />
			) : (
				<p className={table.empty}>{paged ? t('notifications:page.noMore') : t('notifications:page.empty')}</p>
			)}
			{paged || nextCursor ? (
				<nav className={table.pager} aria-label={t('notifications:page.pages')}>
					<span className={table.actions}>
						{paged ? (
							<Link to={base} className={button.outline}>
								{t('notifications:page.newest')}
							</Link>
						) : null}
						{nextCursor ? (
							<Link to={`${base}?cursor=${encodeURIComponent(nextCursor)}`} className={button.outline} rel="next">
								{t('notifications:page.older')}
							</Link>
						) : null}
					</span>
				</nav>
			) : null}
		</>
	)
}
