import { redirect } from '@remix-run/node'
import { pageNotFound } from '#app/utils/http.ts'
import { isLocale, type Locale } from '#locales/languages.ts'
import { preferredLocale } from './preferences.ts'

// A first segment shaped like a language tag (`de-de`, `pt`) is a locale we do not offer.
const localeShaped = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i

/**
 * Every loader and action under /:lang starts here, since a parent cannot guard its children's
 * loaders. A supported locale passes; a GET of a path without a locale prefix (`/dashboard`) is
 * redirected under the visitor's locale; anything else is the fatal 404.
 */
export async function requireLocale(request: Request, params: { lang?: string }): Promise<Locale> {
	if (isLocale(params.lang)) return params.lang
	throw await withoutLocale(request)
}

/** The answer for a path whose first segment is not one of our locales. */
export async function withoutLocale(request: Request): Promise<Response> {
	const url = new URL(request.url)
	const [first = ''] = url.pathname.split('/').filter(Boolean)
	const prefixable = !localeShaped.test(first) && !first.startsWith('_') && !first.includes('.')
	if (prefixable && (request.method === 'GET' || request.method === 'HEAD')) {
		return redirect(`/${preferredLocale(request)}${url.pathname}${url.search}`)
	}
	pageNotFound(request)
}
