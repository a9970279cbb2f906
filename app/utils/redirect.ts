/**
 * Keeps a redirect target on this site: a path starting with a single `/`. Anything else
 * (`//evil.example`, `https://…`, `javascript:`) yields undefined.
 */
export function safePath(target: unknown): string | undefined {
	if (typeof target !== 'string' || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return undefined
	return target
}

/** Puts `path` under another locale: `/en-us/auth/login?x` → `/ar-eg/auth/login?x`. */
export function withLocale(path: string, locale: string): string {
	const [pathname = '/', search = ''] = path.split(/(?=[?#])/, 2)
	const segments = pathname.split('/').filter(Boolean)
	segments[0] = locale
	return `/${segments.join('/')}${search}`
}
