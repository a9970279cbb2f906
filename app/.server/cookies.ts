import { createCookie } from '@remix-run/node'

// Set by server.ts from the validated configuration (generated into DATA_DIR outside production).
const secrets = [process.env.SESSION_SECRET ?? 'development-only-secret-change-me']
/** Secure cookies in production, unless the site is served over plain http. */
export const secure = process.env.NODE_ENV === 'production' && !process.env.PUBLIC_URL?.startsWith('http://')

/** The visitor's chosen locale (the name and lifetime are the specification's). */
export const localeCookie = createCookie('i18n_redirected', {
	path: '/',
	sameSite: 'lax',
	maxAge: 365 * 24 * 60 * 60,
	secure,
})

/** Theme, mode and radius, rendered by the server so the page never flashes the wrong colours. */
export const themeCookie = createCookie('crm-theme', {
	path: '/',
	sameSite: 'lax',
	maxAge: 365 * 24 * 60 * 60,
	secure,
})

/** A toast raised by an action and shown by the next page (flash: read once, then cleared). */
export const toastCookie = createCookie('crm-toast', {
	path: '/',
	sameSite: 'lax',
	httpOnly: true,
	secrets,
	secure,
})

const thirtyDays = 30 * 24 * 60 * 60

/** The session: the API's access token (specification, section 6). */
export const tokenCookie = createCookie('crm-token', { path: '/', sameSite: 'lax', httpOnly: true, secure, maxAge: thirtyDays })

/** Set on sign-up: the dashboard greets a new user differently. */
export const newUserCookie = createCookie('crm-new-user', { path: '/', sameSite: 'lax', httpOnly: true, secure, maxAge: thirtyDays })
