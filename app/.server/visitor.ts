import crypto from 'node:crypto'
import { type AppLoadContext } from '@remix-run/node'
import * as cookie from 'cookie'
import { api } from './api.ts'

/** The link page's visitor: a long random token, HttpOnly, so no script of the page can read or send it elsewhere. */
export const visitorCookieName = 'crm-visitor'

// What the API accepts (api/link/schemas.ts): 32 to 256 of these.
const tokenShape = /^[A-Za-z0-9_-]{32,256}$/

export function readVisitorToken(request: Request): string | null {
	const token = cookie.parse(request.headers.get('Cookie') ?? '')[visitorCookieName]
	return token && tokenShape.test(token) ? token : null
}

/** 256 random bits. */
export function newVisitorToken(): string {
	return crypto.randomBytes(32).toString('base64url')
}

/** The cookie for a year, Secure when the page itself came over https. */
export function visitorCookie(request: Request, token: string): string {
	const secure = new URL(request.url).protocol === 'https:'
	return cookie.serialize(visitorCookieName, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: 365 * 24 * 60 * 60 })
}

/** The `/v1/link` API as this visitor (no account: their token in `X-Visitor-Token`). */
export function visitorApi(request: Request, context: AppLoadContext, locale: string, token: string | null) {
	return api(request, context, { lang: locale }, null, token ? { 'X-Visitor-Token': token } : undefined)
}
