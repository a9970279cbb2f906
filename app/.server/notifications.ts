import { type NotificationJson, type NotificationKind, type NotificationPage, type NotificationPreferences } from '#common/notifications.ts'
import { type ApiClient } from './api.ts'

// The signed-in member's notifications, as the API answers them (docs/decisions/025-notifications.md).
const notificationsOf = (workspaceId: string) => `/workspaces/${workspaceId}/notifications`

export type NotificationSettings = { preferences: NotificationPreferences; sound: boolean; kinds: NotificationKind[] }

export const listNotifications = (api: ApiClient, workspaceId: string, query: { cursor?: string | null; limit?: number } = {}) =>
	api.get<NotificationPage>(notificationsOf(workspaceId), { cursor: query.cursor, limit: query.limit })

/** Some by id, or those of a conversation (opening it reads them); answers the unread count left. */
export const markNotificationsRead = (api: ApiClient, workspaceId: string, which: { ids: string[] } | { conversationNumber: number }) =>
	api.post<{ unread: number }>(`${notificationsOf(workspaceId)}/read`, which)

export const markAllNotificationsRead = (api: ApiClient, workspaceId: string) => api.post<{ unread: number }>(`${notificationsOf(workspaceId)}/read-all`)

/** One of the signed-in user's own, in whichever of their workspaces. */
export const getNotification = (api: ApiClient, notificationId: string) =>
	api.get<{ workspaceId: string; notification: NotificationJson }>(`/notifications/${encodeURIComponent(notificationId)}`)

export const getNotificationSettings = (api: ApiClient, workspaceId: string) =>
	api.get<NotificationSettings>(`/workspaces/${workspaceId}/notification-preferences`)

export const saveNotificationSettings = (
	api: ApiClient,
	workspaceId: string,
	settings: { preferences?: Partial<Record<NotificationKind, Partial<NotificationPreferences[NotificationKind]>>>; sound?: boolean },
) => api.put<NotificationSettings>(`/workspaces/${workspaceId}/notification-preferences`, settings)
