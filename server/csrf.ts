import { type RequestHandler } from 'express'
import { translatorFor } from '#api/http/i18n.ts'
import { defaultLocale, isLocale } from '#locales/languages.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses a form post from another site: its `Origin` must be this site. Together with SameSite=Lax
 * cookies and no change on GET, this is our CSRF defence. A request without `Origin` (not a browser,
 * or a very old one) passes: SameSite still holds.
 *
 * "This site" is the host the request names (`X-Forwarded-Host`, else `Host`, as Remix reads it)
 * or PUBLIC_URL. Behind a proxy that rewrites `Host`, a post from PUBLIC_URL is ours: the request
 * is then told PUBLIC_URL's host, so that Remix's own check of the same rule agrees instead of
 * failing the action with a 500.
 */
export function refuseForeignOrigin(publicUrl: string): RequestHandler {
	const publicOrigin = new URL(publicUrl)
	return (req, res, next) => {
		const origin = req.headers.origin
		if (safeMethods.has(req.method) || origin === undefined) return next()
		const named = forwardedHost(req.headers['x-forwarded-host']) ?? req.headers.host
		if (origin === `${req.protocol}://${named ?? ''}`) return next()
		if (origin === publicOrigin.origin) {
			req.headers.host = publicOrigin.host
			if (req.headers['x-forwarded-host'] !== undefined) req.headers['x-forwarded-host'] = publicOrigin.host
			return next()
		}
		const segment = req.path.split('/')[1]
		const t = translatorFor(isLocale(segment) ? segment : defaultLocale)
		res.status(403).type('text/plain').send(t('errors.foreignOrigin'))
	}
}

function forwardedHost(header: string | string[] | undefined): string | undefined {
	const value = Array.isArray(header) ? header[0] : header
	return value?.split(',')[0]?.trim() || undefined
}
