import { z } from 'zod'
import { notificationKinds, notificationMedia, type NotificationJson } from '#common/notifications.ts'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { listNotificationsQuery, notificationParams, readNotificationsBody, updatePreferencesBody, workspaceParams } from './schemas.ts'

const notification = answerSchema<NotificationJson>()(
	z
		.object({
			id: z.string(),
			kind: z.enum(notificationKinds),
			values: z.object({
				number: z.number().int().optional(),
				contact: z.string().optional(),
				actor: z.string().optional(),
				excerpt: z.string().optional(),
				count: z.number().int().optional(),
				team: z.string().optional(),
				minutes: z.number().int().optional(),
				campaign: z.string().optional(),
				sent: z.number().int().optional(),
				failed: z.number().int().optional(),
				channel: z.string().optional(),
			}),
			conversationNumber: z.number().int().nullable(),
			campaignId: z.string().uuid().nullable(),
			channelId: z.string().uuid().nullable(),
			createdAt: z.string().datetime(),
			readAt: z.string().datetime().nullable(),
		})
		.openapi('Notification'),
)
const unread = z.object({ unread: z.number().int() })
const cells = z.object(Object.fromEntries(notificationMedia.map((medium) => [medium, z.boolean()])))
const preferences = z
	.object({
		preferences: z.record(z.enum(notificationKinds), cells),
		sound: z.boolean(),
		kinds: z.array(z.enum(notificationKinds)),
	})
	.openapi('NotificationPreferences')

/** `/v1/workspaces/{id}/notifications` (router.ts): the caller's own. */
export function documentNotifications(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'My notifications',
		description: 'Newest first, with the unread count. `nextCursor` is the next page’s `cursor`.',
		params: workspaceParams,
		query: listNotificationsQuery,
		responses: {
			200: {
				description: 'A page of notifications.',
				schema: z.object({ notifications: z.array(notification), unread: z.number().int(), nextCursor: z.string().nullable() }),
			},
		},
	})
	docs.add({
		method: 'post',
		path: '/read',
		summary: 'Mark notifications read',
		description: 'By id, or every one of a conversation (its number).',
		params: workspaceParams,
		body: readNotificationsBody,
		responses: { 200: { description: 'The unread count now.', schema: unread } },
	})
	docs.add({
		method: 'post',
		path: '/read-all',
		summary: 'Mark every notification read',
		params: workspaceParams,
		responses: { 200: { description: 'The unread count now.', schema: unread } },
	})
}

/** `/v1/workspaces/{id}/notification-preferences`. */
export function documentNotificationPreferences(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'My notification preferences',
		description: 'Each kind my role receives × in the app, by e-mail, by browser push; and the sound.',
		params: workspaceParams,
		responses: { 200: { description: 'The preferences, defaults filled in.', schema: preferences } },
	})
	docs.add({
		method: 'put',
		path: '/',
		summary: 'Change my notification preferences',
		description: 'Any cells; those absent stay as they are.',
		params: workspaceParams,
		body: updatePreferencesBody,
		responses: { 200: { description: 'The preferences now.', schema: preferences } },
	})
}

/** `/v1/notifications/{notificationId}`: a mail's or a push's link leads here. */
export function documentUserNotifications(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/:notificationId',
		summary: 'One of my notifications',
		description: 'In whichever of my workspaces: the page it links to moves me there.',
		params: notificationParams,
		responses: { 200: { description: 'The notification and its workspace.', schema: z.object({ workspaceId: z.string().uuid(), notification }) } },
	})
}
