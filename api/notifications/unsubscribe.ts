import { Router, type Request } from 'express'
import { z } from 'zod'
import { type ApiContext } from '#api/context.ts'
import { type DB } from '#api/db/database.ts'
import { HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { type NotificationKind } from '#common/notifications.ts'
import { setPreferences } from './queries.ts'
import { readUnsubscribeToken, type Unsubscribe } from './unsubscribe-token.ts'

export const unsubscribeQuery = z.object({ token: z.string().min(1).max(2000) })

/** What a link turns off (or turned off): e-mails of these kinds from this workspace. */
export type UnsubscribeJson = { workspace: { id: string; name: string }; kinds: NotificationKind[] }

/**
 * A one-click unsubscribe's POST carries `List-Unsubscribe=One-Click` as a form (RFC 8058), the
 * two encodings a mail client may choose: let through to this route, which does not read it (the
 * token in the address says everything).
 */
export function isOneClickUnsubscribe(req: Request): boolean {
	return (
		req.method === 'POST' && /^\/notifications\/unsubscribe\/?$/.test(req.path) && Boolean(req.is(['application/x-www-form-urlencoded', 'multipart/form-data']))
	)
}

/** The member and workspace a token names, as long as they are still one another's. */
async function requireUnsubscribe(db: DB, secret: string, req: Request): Promise<Unsubscribe & { workspaceName: string }> {
	const { token } = parseRequest(req, 'query', unsubscribeQuery)
	const what = readUnsubscribeToken(secret, token)
	if (!what) throw new HttpError(400, 'notifications:mail.errors.badToken')
	const member = await db
		.selectFrom('members')
		.innerJoin('workspaces', 'workspaces.id', 'members.workspaceId')
		.select('workspaces.name')
		.where('members.userId', '=', what.userId)
		.where('members.workspaceId', '=', what.workspaceId)
		.executeTakeFirst()
	if (!member) throw new HttpError(404, 'notifications:mail.errors.notMember')
	return { ...what, workspaceName: member.name }
}

const answer = (what: Unsubscribe & { workspaceName: string }): UnsubscribeJson => ({
	workspace: { id: what.workspaceId, name: what.workspaceName },
	kinds: what.kinds,
})

/**
 * `/v1/notifications/unsubscribe?token=…`: a notification mail's unsubscribe, no session (the
 * token is signed). GET says what the link would turn off and changes nothing (mail scanners
 * follow links); POST, the one-click of RFC 8058 or the web page's button, turns it off.
 */
export function unsubscribeRouter({ db, config }: ApiContext): Router {
	const router = Router()
	router.get(
		'/',
		handler(async (req, res) => {
			res.json(answer(await requireUnsubscribe(db, config.SESSION_SECRET, req)))
		}),
	)
	router.post(
		'/',
		handler(async (req, res) => {
			const what = await requireUnsubscribe(db, config.SESSION_SECRET, req)
			// Only what differs from the defaults is stored (setPreferences): off where e-mail is on by default, no row where it is off.
			const emailOff = Object.fromEntries(what.kinds.map((kind) => [kind, { email: false }]))
			await db.transaction().execute((trx) => setPreferences(trx, what.userId, what.workspaceId, emailOff))
			res.json(answer(what))
		}),
	)
	return router
}
