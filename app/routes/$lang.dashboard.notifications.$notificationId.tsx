import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { getNotification, markNotificationsRead } from '#app/.server/notifications.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'
import { switchWorkspace } from '#app/.server/workspaces.ts'
import { pageNotFound } from '#app/utils/http.ts'
import { type NotificationJson } from '#common/notifications.ts'

/** Where a notification leads: its conversation, its campaign, its channel's settings, or the list when it links to nothing. */
function targetOf(locale: string, notification: NotificationJson): string {
	const base = `/${locale}/dashboard`
	if (notification.conversationNumber !== null) return `${base}/conversations?conversation=${notification.conversationNumber}`
	if (notification.campaignId) return `${base}/campaign-manager?campaign=${encodeURIComponent(notification.campaignId)}`
	if (notification.channelId) return `${base}/settings/channels/${encodeURIComponent(notification.channelId)}`
	return `${base}/notifications`
}

/**
 * A notification opened (from the bell, the page, a mail or a push): the member is moved to its
 * workspace if they are in another, it is marked read, and they go on to what it is about.
 */
export async function loader(args: LoaderFunctionArgs) {
	// Any current workspace (or none), and before its two-step check: the notification's own workspace is where it goes.
	const { user, locale, api } = await requireUser(args, { workspace: 'optional' })
	const fail = (error: unknown) => {
		if (error instanceof ApiError && (error.statusCode === 404 || error.statusCode === 400)) pageNotFound(args.request)
		return rethrowApiError(error, locale, args.request)
	}
	const { workspaceId, notification } = await getNotification(api, args.params.notificationId ?? '').catch(fail)
	if (workspaceId !== user.workspace?.id) await switchWorkspace(api, workspaceId).catch(fail)
	// Read or not, it leads on: a failure to mark it is only logged.
	if (notification.readAt === null) {
		await markNotificationsRead(api, workspaceId, { ids: [notification.id] }).catch((error: unknown) => {
			if (error instanceof ApiError && error.statusCode === 401) return rethrowApiError(error, locale, args.request)
			console.error('Marking a notification read failed:', error instanceof Error ? error.message : error)
		})
	}
	return redirect(targetOf(locale, notification))
}
