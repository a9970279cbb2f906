import { type NextFunction, type Request, type Response } from 'express'
import { isbot } from 'isbot'

// Stands for the response's CSP nonce in a kept page: each answer gets its own nonce put back.
const noncePlaceholder = '\u0000nonce\u0000'

type Kept = { body: string; contentType: string; expires: number }

/**
 * The public pages that say the same to every anonymous visitor (`paths`: the home page, sign in,
 * sign up…), rendered once and answered from memory for `ttlMs`, with this response's own CSP
 * nonce in place of the one it was rendered with. Only a GET with no cookie, no referrer and no
 * query, answered 200 as HTML without a Set-Cookie, is kept: what a page reads from any of those
 * (a session, a theme, a toast, 'Go Back', an invitation) makes a page of its own, rendered as usual.
 */
export function anonymousPageCache(options: { paths: RegExp; ttlMs: number; maxEntries?: number }) {
	const kept = new Map<string, Kept>()
	const maxEntries = options.maxEntries ?? 100

	return (req: Request, res: Response, next: NextFunction) => {
		if (!isAnonymousPage(req, options.paths)) return next()
		const nonce = String(res.locals.cspNonce)
		// Bots get the page once it is whole and the bare status of an error: not the same answer.
		const key = `${isbot(req.headers['user-agent']) ? 'bot' : 'browser'} ${req.path}`
		const page = kept.get(key)
		if (page && page.expires > Date.now()) {
			res.status(200).type(page.contentType).end(page.body.replaceAll(noncePlaceholder, nonce))
			return
		}
		capture(res, (body) => {
			const contentType = String(res.getHeader('content-type') ?? '')
			if (res.statusCode !== 200 || res.getHeader('set-cookie') !== undefined || !contentType.startsWith('text/html') || !body.includes(nonce)) return
			if (kept.size >= maxEntries) kept.delete(kept.keys().next().value!)
			kept.set(key, { body: body.replaceAll(nonce, noncePlaceholder), contentType, expires: Date.now() + options.ttlMs })
		})
		next()
	}
}

function isAnonymousPage(req: Request, paths: RegExp): boolean {
	return req.method === 'GET' && req.url === req.path && !req.headers.cookie && !req.headers.referer && !req.headers.authorization && paths.test(req.path)
}

/** Calls `done` with the body written through `res` (before compression, which sits below), once it ends. */
function capture(res: Response, done: (body: string) => void) {
	const chunks: Buffer[] = []
	const keep = (chunk: unknown) => {
		if (typeof chunk === 'string') chunks.push(Buffer.from(chunk))
		else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk))
	}
	const write = res.write.bind(res) as (...args: unknown[]) => boolean
	const end = res.end.bind(res) as (...args: unknown[]) => Response
	res.write = ((chunk: unknown, ...rest: unknown[]) => {
		keep(chunk)
		return write(chunk, ...rest)
	}) as Response['write']
	res.end = ((chunk?: unknown, ...rest: unknown[]) => {
		if (typeof chunk !== 'function') keep(chunk)
		done(Buffer.concat(chunks).toString('utf8'))
		return end(chunk, ...rest)
	}) as Response['end']
}
