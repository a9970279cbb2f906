import { createCookie } from '@remix-run/node'
import * as cookie from 'cookie'
import { isLocale, type Locale } from '#locales/languages.ts'

// Set by server.ts from the validated configuration (generated into DATA_DIR outside production).
const secrets = [process.env.SESSION_SECRET ?? 'development-only-secret-change-me']
/** Secure cookies in production, unless the site is served over plain http. */
export const secure = process.env.NODE_ENV === 'production' && !process.env.PUBLIC_URL?.startsWith('http://')

const localeCookieName = 'i18n_redirected'
const localeCookieOptions = { path: '/', sameSite: 'lax', maxAge: 365 * 24 * 60 * 60, secure } as const

/**
 * The visitor's chosen locale, as the specification's client keeps it: the plain code
 * (`i18n_redirected=ar-eg`, 365 days, SameSite=Lax). The base64 JSON that an earlier version wrote
 * (Remix's cookie encoding) is still read, so visitors keep their choice.
 */
export const localeCookie = {
	parse(cookieHeader: string | null): Locale | null {
		const value = cookie.parse(cookieHeader ?? '')[localeCookieName]
		if (value === undefined) return null
		if (isLocale(value)) return value
		try {
			const decoded: unknown = JSON.parse(Buffer.from(value, 'base64').toString('utf8'))
			return isLocale(decoded) ? decoded : null
		} catch {
			return null
		}
	},
	serialize: (locale: Locale) => cookie.serialize(localeCookieName, locale, localeCookieOptions),
}

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

/** The session: the API's access token (docs/specification.txt, section 6). */
export const tokenCookie = createCookie('crm-token', { path: '/', sameSite: 'lax', httpOnly: true, secure, maxAge: thirtyDays })

/** Set on sign-up: the dashboard greets a new user differently. */
export const newUserCookie = createCookie('crm-new-user', { path: '/', sameSite: 'lax', httpOnly: true, secure, maxAge: thirtyDays })

/**
 * The login's second step: the API's challenge between a right password and a right code, kept
 * from page scripts (httpOnly), so the step works the same with and without JavaScript. Five
 * minutes, like the challenge.
 */
export const twoFactorCookie = createCookie('crm-two-factor', { path: '/', sameSite: 'lax', httpOnly: true, secure, secrets, maxAge: 5 * 60 })
