import { type RequestHandler } from 'express'
import { translatorFor } from '#api/http/i18n.ts'
import { defaultLocale, isLocale } from '#locales/languages.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses a form post from another site: its `Origin` must be this site (the request's own host
 * or PUBLIC_URL). Together with SameSite=Lax cookies and no change on GET, this is our CSRF defence.
 * A request without `Origin` (not a browser, or a very old one) passes: SameSite still holds.
 */
export function refuseForeignOrigin(publicUrl: string): RequestHandler {
	const publicOrigin = new URL(publicUrl).origin
	return (req, res, next) => {
		const origin = req.headers.origin
		if (safeMethods.has(req.method) || origin === undefined) return next()
		const own = `${req.protocol}://${req.get('host') ?? ''}`
		if (origin === own || origin === publicOrigin) return next()
		const segment = req.path.split('/')[1]
		const t = translatorFor(isLocale(segment) ? segment : defaultLocale)
		res.status(403).type('text/plain').send(t('errors.foreignOrigin'))
	}
}
