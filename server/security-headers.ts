import crypto from 'node:crypto'
import { type Request, type RequestHandler, type Response } from 'express'
import helmet from 'helmet'
import { locales } from '#locales/languages.ts'
import { type Config } from '#config/config.ts'

/** The public chat link page, the one page another site may frame (decision 015). */
export const framablePage = new RegExp(`^/(${locales.join('|')})/c/[^/]+/?$`)

/** Powerful features no page of ours uses: off for us and for anything we frame. */
export const permissionsPolicy = [
	'accelerometer=()',
	'autoplay=()',
	'browsing-topics=()',
	'camera=()',
	'display-capture=()',
	'geolocation=()',
	'gyroscope=()',
	'hid=()',
	'magnetometer=()',
	'microphone=()',
	'midi=()',
	'payment=()',
	'publickey-credentials-get=()',
	'serial=()',
	'usb=()',
	'xr-spatial-tracking=()',
].join(', ')

/**
 * Every response's security headers: a nonce Content-Security-Policy (the nonce is put in
 * `res.locals.cspNonce` for `<Scripts nonce>`), HSTS under https, Referrer-Policy, Permissions-Policy,
 * and no framing (X-Frame-Options DENY, frame-ancestors 'none') except for the chat link page.
 */
export function securityHeaders(config: Pick<Config, 'PUBLIC_URL' | 'isProduction'>): RequestHandler {
	const https = config.PUBLIC_URL.startsWith('https://')
	const development = !config.isProduction
	const headersWith = (framable: boolean) =>
		helmet({
			contentSecurityPolicy: {
				useDefaults: true,
				directives: {
					'default-src': ["'self'"],
					// Pages run only the scripts they were rendered with; 'strict-dynamic' lets those load their chunks.
					'script-src': ["'strict-dynamic'", "'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`],
					'script-src-attr': ["'none'"],
					// The push service worker, from this site only ('strict-dynamic' above would not name it).
					'worker-src': ["'self'"],
					// React renders style attributes and sonner injects its stylesheet at run time.
					'style-src': ["'self'", "'unsafe-inline'"],
					'img-src': ["'self'", 'data:', 'blob:'],
					'font-src': ["'self'", 'data:'],
					'connect-src': ["'self'", 'ws:', 'wss:', ...(development ? ['ws://localhost:*', 'ws://127.0.0.1:*'] : [])],
					'form-action': ["'self'"],
					// Any site may embed the chat link page (the channel's snippet); nothing else may be framed.
					'frame-ancestors': framable ? ['*'] : ["'none'"],
					'object-src': ["'none'"],
					'base-uri': ["'self'"],
					'upgrade-insecure-requests': https ? [] : null,
				},
			},
			crossOriginEmbedderPolicy: false,
			// Same-site pages get the referrer ('Go Back' without JavaScript) and a real Origin on form
			// posts (with no-referrer, browsers send `Origin: null`, which the CSRF check refuses).
			referrerPolicy: { policy: 'same-origin' },
			strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
			// X-Frame-Options cannot name "any site": the framable page leaves it out and relies on frame-ancestors.
			xFrameOptions: framable ? false : { action: 'deny' },
		})
	const strict = headersWith(false)
	const framable = headersWith(true)
	return (req: Request, res: Response, next) => {
		res.locals.cspNonce = crypto.randomBytes(16).toString('base64')
		res.setHeader('Permissions-Policy', permissionsPolicy)
		const handler = req.method === 'GET' && framablePage.test(req.path) ? framable : strict
		handler(req, res, next)
	}
}
