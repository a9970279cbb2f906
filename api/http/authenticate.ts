import { type Request, type RequestHandler, type Response } from 'express'
import { findAccessToken } from '#api/access-tokens/queries.ts'
import { recordAudit } from '#api/audit/record.ts'
import { type DB } from '#api/db/database.ts'
import { findSession } from '#api/auth/sessions.ts'
import { rememberMembership, workspaceNotFound } from '#api/workspaces/membership.ts'
import { isAccessTokenString, scopesAllow } from '#common/access-tokens.ts'
import { HttpError } from './errors.ts'
import { readOncePerPage } from './page-reads.ts'
import { createRateLimits, type RateLimit } from './rate-limit.ts'
import { isWriteMethod, tokenRuleFor } from './token-scopes.ts'

/** The bearer token of a request, if it carries one. */
export function bearerToken(authorization: string | undefined): string | undefined {
	const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')
	return match?.[1]
}

const unauthorized = () => new HttpError(401, 'errors.unauthorized', { headers: { 'WWW-Authenticate': 'Bearer' } })

/**
 * Requires a live session or access token: sets `req.user` and `req.session` (a session) or
 * `req.accessToken` (a token), or answers 401 with `WWW-Authenticate: Bearer`. Mount it on every
 * router that needs a signed-in user.
 */
export function requireUser(db: DB): RequestHandler {
	return async (req, res, next) => {
		try {
			const token = bearerToken(req.headers.authorization)
			if (token && isAccessTokenString(token)) {
				await authenticateToken(db, req, res, token)
				return next()
			}
			// Under /workspaces/:id/…, the membership comes with the session (see requireMember).
			const workspaceId = req.params.id
			const found = token ? await readOncePerPage(req, `session ${token} ${workspaceId ?? ''}`, () => findSession(db, token, workspaceId)) : undefined
			if (!found) return next(unauthorized())
			req.user = found.user
			req.session = found.session
			if (workspaceId !== undefined && found.membership !== undefined) rememberMembership(req, workspaceId, found.membership)
			next()
		} catch (error) {
			next(error)
		}
	}
}

/**
 * Before the routers: an access token sent where only a person may go and no workspace is named (sign-in,
 * the account, invitations) is refused, also on the routes that need no session.
 */
export const refuseTokensWhereNever: RequestHandler = (req, _res, next) => {
	const token = bearerToken(req.headers.authorization)
	if (!token || !isAccessTokenString(token)) return next()
	const route = tokenRuleFor(req.method, `${req.baseUrl}${req.path}`.replace(/\/$/, ''))
	if (route?.rule === 'never' && route.workspaceId === undefined) return next(new HttpError(403, 'integrations:tokens.errors.notForTokens'))
	next()
}

// Per database, so every router's requireUser counts against the same limit.
const tokenLimits = new WeakMap<DB, RateLimit>()
/** Requests one access token may make in a minute. */
export const tokenRequestsPerMinute = 600

function tokenLimitOf(db: DB): RateLimit {
	let limit = tokenLimits.get(db)
	if (!limit) {
		limit = createRateLimits(db, { accessToken: { points: tokenRequestsPerMinute, seconds: 60 } }).accessToken
		tokenLimits.set(db, limit)
	}
	return limit
}

/**
 * An access token (docs/decisions/026-integrations.md): unknown, revoked or expired is 401; a route of
 * another workspace is 404 as for a non-member; a route no token may call, or one its scopes do not
 * cover, is 403. Counted against the token's rate limit; a write is a line of the audit log once answered.
 */
async function authenticateToken(db: DB, req: Request, res: Response, secret: string) {
	const found = await findAccessToken(db, secret)
	if (!found) throw unauthorized()
	const { caller, user, membership } = found
	const path = `${req.baseUrl}${req.path}`.replace(/\/$/, '')
	const route = tokenRuleFor(req.method, path)
	if (route?.workspaceId !== undefined && route.workspaceId !== caller.workspaceId) throw workspaceNotFound()
	if (!route || route.rule === 'never' || route.rule === 'public') throw new HttpError(403, 'integrations:tokens.errors.notForTokens')
	const write = isWriteMethod(req.method)
	if (!scopesAllow(caller.scopes, route.rule, write)) {
		const scope = `${route.rule}:${write ? 'write' : 'read'}`
		throw new HttpError(403, 'integrations:tokens.errors.scope', { values: { scope }, details: { scope } })
	}
	await tokenLimitOf(db).consume(caller.id)
	req.user = user
	req.accessToken = caller
	rememberMembership(req, caller.workspaceId, membership)
	if (write) {
		res.on('finish', () => {
			const values = { token: caller.name, method: req.method, path, status: res.statusCode }
			recordAudit(db, caller.workspaceId, user, 'token.used', values).catch((error: unknown) => req.log.warn({ err: error }, 'token use not recorded'))
		})
	}
}
