import { type Request, type RequestHandler, type Response } from 'express'
import { locales } from '#locales/languages.ts'

/** The web app's session: its `crm-token` cookie (app/.server/cookies.ts), with a value. */
const sessionCookie = /(?:^|;)\s*crm-token=[^;\s]/
const dashboard = new RegExp(`^/(${locales.join('|')})/dashboard(/|\\.data$|$)`)
/** A page as Remix answers it: its HTML, or its data for the browser's router (single fetch's `.data`). */
const pageTypes = /^(text\/html|text\/x-script)\b/

/** Remix's route manifest: the same for everyone and named by the build's version, so cached as Remix says. */
const routeManifest = '/__manifest'

/** A request of a signed-in visitor (their session cookie), or for a dashboard page, whose answers are theirs alone. */
export function isPrivate(req: Request): boolean {
	if (req.path === routeManifest) return false
	return sessionCookie.test(req.headers.cookie ?? '') || dashboard.test(req.path)
}

/**
 * `Cache-Control: private, no-store` on every answer to a signed-in visitor and on the dashboard's
 * pages (decision 015): a page rendered for one member is kept by no cache, neither a shared one (a
 * proxy in front) nor the browser's (back, forward or history on a shared computer after signing
 * out). A page is always so; a resource route's own `no-store`, or `private` for a file the browser
 * may keep a while (an attachment), stands. Anonymous pages are left as they are: the anonymous page
 * cache (page-cache.ts) answers requests without any cookie only, so it never holds one of these.
 */
export function privatePages(): RequestHandler {
	return (req, res, next) => {
		if (!isPrivate(req)) return next()
		const writeHead = res.writeHead
		// Set as the head is written: after the page, its route's headers and the compression have said theirs.
		res.writeHead = function (this: Response, ...args: unknown[]) {
			const said = String(res.getHeader('Cache-Control') ?? '')
			const page = pageTypes.test(String(res.getHeader('Content-Type') ?? ''))
			if (page || !/\b(no-store|private)\b/.test(said)) res.setHeader('Cache-Control', 'private, no-store')
			return (writeHead as (...args: unknown[]) => Response).apply(this, args)
		} as Response['writeHead']
		next()
	}
}
