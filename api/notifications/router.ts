import { Router } from 'express'
import { notificationsReadEvent, type NotificationsReadEventData } from '#common/notifications.ts'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { parseParams, requireMember } from '#api/workspaces/membership.ts'
import { findNotification, listNotifications, markRead, preferencesOf, setPreferences, unreadCount } from './queries.ts'
import { listNotificationsQuery, notificationParams, readNotificationsBody, updatePreferencesBody } from './schemas.ts'

const notificationNotFound = () => new HttpError(404, 'notifications:errors.notFound')

/** `/v1/workspaces/:id/notifications`: the signed-in member's own notifications in the workspace (the bell, its page). */
export function notificationsRouter({ db, realtime }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const query = parseRequest(req, 'query', listNotificationsQuery)
			res.json(await listNotifications(db, req.user.id, workspace.id, query))
		}),
	)

	// Read here: the member's other tabs hear the new count.
	const read = async (userId: string, workspaceId: string, changed: boolean) => {
		const unread = await unreadCount(db, userId, workspaceId)
		if (changed) void realtime.notifyUser(userId, notificationsReadEvent, { workspaceId, unread } satisfies NotificationsReadEventData).catch(() => undefined)
		return { unread }
	}

	router.post(
		'/read',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const body = parseRequest(req, 'body', readNotificationsBody)
			let changed = false
			if ('ids' in body) changed = await markRead(db, req.user.id, workspace.id, { ids: body.ids })
			else {
				const conversation = await db
					.selectFrom('conversations')
					.select('id')
					.where('workspaceId', '=', workspace.id)
					.where('number', '=', body.conversationNumber)
					.executeTakeFirst()
				if (conversation) changed = await markRead(db, req.user.id, workspace.id, { conversationId: conversation.id })
			}
			res.json(await read(req.user.id, workspace.id, changed))
		}),
	)

	router.post(
		'/read-all',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json(await read(req.user.id, workspace.id, await markRead(db, req.user.id, workspace.id, 'all')))
		}),
	)
	return router
}

/** `/v1/workspaces/:id/notification-preferences`: the member's kind × medium choices in the workspace, and their sound. */
export function notificationPreferencesRouter({ db }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req)
			res.json(await preferencesOf(db, req.user.id, workspace.id, role))
		}),
	)

	router.put(
		'/',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req)
			const body = parseRequest(req, 'body', updatePreferencesBody)
			await db.transaction().execute(async (trx) => {
				if (body.preferences) await setPreferences(trx, req.user.id, workspace.id, body.preferences)
				if (body.sound !== undefined) await trx.updateTable('users').set({ notificationSound: body.sound }).where('id', '=', req.user.id).execute()
			})
			res.json(await preferencesOf(db, req.user.id, workspace.id, role))
		}),
	)
	return router
}

/** `/v1/notifications/:notificationId`: one of the signed-in user's notifications, whichever workspace it is of (a mail's or a push's link). */
export function userNotificationsRouter({ db }: ApiContext): Router {
	const router = Router()
	router.get(
		'/:notificationId',
		requireUser(db),
		handler(async (req, res) => {
			const { notificationId } = parseParams(req, notificationParams, notificationNotFound)
			const found = await findNotification(db, req.user.id, notificationId)
			if (!found) throw notificationNotFound()
			res.json(found)
		}),
	)
	return router
}
