import { type RequestHandler } from 'express'
import { type DB } from '#api/db/database.ts'
import { findSession } from '#api/auth/sessions.ts'
import { rememberMembership } from '#api/workspaces/membership.ts'
import { HttpError } from './errors.ts'
import { readOncePerPage } from './page-reads.ts'

/** The bearer token of a request, if it carries one. */
export function bearerToken(authorization: string | undefined): string | undefined {
	const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')
	return match?.[1]
}

/**
 * Requires a live session: sets `req.user` and `req.session`, or answers 401 with
 * `WWW-Authenticate: Bearer`. Mount it on every router that needs a signed-in user.
 */
export function requireUser(db: DB): RequestHandler {
	return async (req, _res, next) => {
		try {
			const token = bearerToken(req.headers.authorization)
			// Under /workspaces/:id/…, the membership comes with the session (see requireMember).
			const workspaceId = req.params.id
			const found = token ? await readOncePerPage(req, `session ${token} ${workspaceId ?? ''}`, () => findSession(db, token, workspaceId)) : undefined
			if (!found) return next(new HttpError(401, 'errors.unauthorized', { headers: { 'WWW-Authenticate': 'Bearer' } }))
			req.user = found.user
			req.session = found.session
			if (workspaceId !== undefined && found.membership !== undefined) rememberMembership(req, workspaceId, found.membership)
			next()
		} catch (error) {
			next(error)
		}
	}
}
