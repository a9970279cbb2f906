import { Router } from 'express'
import { type ApiContext } from '#api/context.ts'
import { type DB } from '#api/db/database.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { HttpError } from '#api/http/errors.ts'
import { parseRequest } from '#api/http/validate.ts'
import { handler } from '#api/http/handler.ts'
import { findMembership, meetsTwoFactorRule } from '#api/workspaces/membership.ts'
import { channelSubject, type ChannelSubject } from '#common/realtime.ts'
import { readerOf, seesConversation, type Reader } from '#api/conversations/visibility.ts'
import { channelAuthBody, userAuthBody } from './schemas.ts'

async function workspaceOfConversation(db: DB, conversationId: string): Promise<string | undefined> {
	const conversation = await db.selectFrom('conversations').select('workspaceId').where('id', '=', conversationId).executeTakeFirst()
	return conversation?.workspaceId
}

/**
 * Whether a member may listen to a channel of their workspace. An agent narrowed to their teams'
 * conversations (api/conversations/visibility.ts) hears nothing of the others: not the workspace's
 * channel, which carries every conversation, nor the channels of a conversation they do not see.
 */
async function mayListen(db: DB, subject: ChannelSubject, workspaceId: string, reader: Reader): Promise<boolean> {
	if (!reader.ownTeamsOnly || subject.kind === 'workspace-presence') return true
	if (subject.kind === 'workspace') return false
	return seesConversation(db, workspaceId, subject.id, reader)
}

/**
 * `/v1/realtime`: signs what a signed-in user may listen to (pusher-js's channel authorisation and
 * user authentication, forwarded by the web app's `/realtime/auth` and `/realtime/user-auth`).
 */
export function realtimeRouter({ db, realtime }: ApiContext): Router {
	const router = Router()
	router.use(requireUser(db))

	router.post(
		'/auth',
		handler(async (req, res) => {
			const body = parseRequest(req, 'body', channelAuthBody)
			const subject = channelSubject(body.channel_name)
			if (!subject) throw new HttpError(403, 'realtime.channelForbidden')
			// A conversation's channels (who is viewing and typing, what its visitor hears) are for members of its workspace who see it.
			const workspaceId = subject.kind === 'conversation-presence' || subject.kind === 'visitor' ? await workspaceOfConversation(db, subject.id) : subject.id
			const membership = workspaceId ? await findMembership(db, req.user.id, workspaceId) : undefined
			if (!membership || !meetsTwoFactorRule(req, membership.workspace) || !(await mayListen(db, subject, membership.workspace.id, readerOf(req, membership))))
				throw new HttpError(403, 'realtime.channelForbidden')
			// A presence member is who the realtime server says sent a client event there, and the name the others show.
			const presence =
				subject.kind === 'workspace-presence'
					? { user_id: req.user.id, user_info: { name: req.user.name, role: membership.role } }
					: subject.kind === 'conversation-presence'
						? { user_id: req.user.id, user_info: { name: req.user.name } }
						: undefined
			res.json(realtime.authorizeChannel(body.socket_id, body.channel_name, presence))
		}),
	)

	router.post(
		'/user-auth',
		handler(async (req, res) => {
			const body = parseRequest(req, 'body', userAuthBody)
			if (body.user_id !== undefined && body.user_id !== req.user.id) throw new HttpError(403, 'realtime.userForbidden')
			res.json(realtime.authenticateUser(body.socket_id, { id: req.user.id, name: req.user.name }))
		}),
	)

	return router
}
