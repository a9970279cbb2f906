import { AsyncLocalStorage } from 'node:async_hooks'
import { type Request, type RequestHandler } from 'express'
import { type DB } from '#api/db/database.ts'
import { findSession } from '#api/auth/sessions.ts'
import { HttpError } from './errors.ts'

/** The bearer token of a request, if it carries one. */
export function bearerToken(authorization: string | undefined): string | undefined {
	const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')
	return match?.[1]
}

type PageReads = { written: boolean; reads: Map<string, Promise<unknown>> }
const pageScope = new AsyncLocalStorage<PageReads>()

/**
 * Runs one page request of the web app, whose several in-process API calls then read what
 * authenticates them (the token's session, a membership) once. Never across page requests.
 */
export function readingOncePerPage<T>(run: () => T): T {
	return pageScope.run({ written: false, reads: new Map() }, run)
}

/**
 * `read()` shared by the API reads of one page request (see `readingOncePerPage`), by `key`.
 * Outside a page, and from the page's first write on (it may change the user), every call reads.
 */
export function readOncePerPage<T>(req: Request, key: string, read: () => Promise<T>): Promise<T> {
	const page = pageScope.getStore()
	if (page && req.method !== 'GET' && req.method !== 'HEAD') page.written = true
	if (!page || page.written) return read()
	let shared = page.reads.get(key) as Promise<T> | undefined
	if (!shared) {
		shared = read()
		page.reads.set(key, shared)
	}
	return shared
}

/**
 * Requires a live session: sets `req.user` and `req.session`, or answers 401 with
 * `WWW-Authenticate: Bearer`. Mount it on every router that needs a signed-in user.
 */
export function requireUser(db: DB): RequestHandler {
	return async (req, _res, next) => {
		try {
			const token = bearerToken(req.headers.authorization)
			const found = token ? await readOncePerPage(req, `session ${token}`, () => findSession(db, token)) : undefined
			if (!found) return next(new HttpError(401, 'errors.unauthorized', { headers: { 'WWW-Authenticate': 'Bearer' } }))
			req.user = found.user
			req.session = found.session
			next()
		} catch (error) {
			next(error)
		}
	}
}
