/**
 * Keeps a redirect target on this site: a path starting with a single `/`. Anything else
 * (`//evil.example`, `https://…`, `javascript:`) yields undefined. The decision is made on the path
 * as the browser will read it, never on the raw text: `/.//evil.example`, `/%2e%2e//evil.example`
 * and `/\t/evil.example` all become `//evil.example` once resolved.
 */
export function safePath(target: unknown): string | undefined {
	if (typeof target !== 'string' || !target.startsWith('/') || target.length > maxPathLength) return undefined
	// Resolved as the browser would (dot segments, `\` as `/`, tabs and line breaks dropped) and given back
	// percent-encoded: a Location header carries no raw bidi control, line break or non-ASCII letter.
	// What resolves to a host the URL parser refuses (`/\t/evil' OR 1`, read as `//evil' OR 1`) is no path of ours.
	if (!URL.canParse(target, base)) return undefined
	const url = new URL(target, base)
	if (url.origin !== base.origin || url.pathname.startsWith('//')) return undefined
	return `${url.pathname}${url.search}${url.hash}`
}

const base = new URL('http://here.invalid')

/** Longer than any path of ours with its query: refused rather than sent back in a header. */
const maxPathLength = 2000

/** Puts `path` under another locale: `/en-us/auth/login?x` → `/ar-eg/auth/login?x`. */
export function withLocale(path: string, locale: string): string {
	const [pathname = '/', search = ''] = path.split(/(?=[?#])/, 2)
	const segments = pathname.split('/').filter(Boolean)
	segments[0] = locale
	return `/${segments.join('/')}${search}`
}

/**
 * Where a signed-in user goes after an auth page (docs/specification.txt, section 2): the `redirect`
 * parameter when it is a string and safe, else the dashboard. A same-site path is followed; an
 * absolute URL only when its host is allowed (the browser then makes a full navigation).
 */
export function redirectTarget(target: unknown, options: { locale: string; allowedHosts: readonly string[] }): string {
	const fallback = `/${options.locale}/dashboard`
	if (typeof target !== 'string' || target === '') return fallback
	const path = safePath(target)
	if (path) return path
	if (!URL.canParse(target)) return fallback
	const url = new URL(target)
	const allowed = (url.protocol === 'https:' || url.protocol === 'http:') && options.allowedHosts.includes(url.host.toLowerCase())
	return allowed ? url.href : fallback
}

/** The login page that brings a visitor back to `path` afterwards. */
export function loginPath(locale: string, path: string): string {
	return `/${locale}/auth/login?redirect=${encodeURIComponent(path)}`
}
