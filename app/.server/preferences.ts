import { RemixI18Next } from 'remix-i18next/server'
import { defaultLocale, isLocale, localeFromAcceptLanguage, locales, type Locale } from '#locales/languages.ts'
import { toThemePreference, type ThemePreference } from '#common/theme.ts'
import { localeCookie, themeCookie } from './cookies.ts'

/**
 * Chooses a locale for a path without one: the stored cookie choice, then the browser's
 * languages, then en-us.
 */
const detector = new RemixI18Next({
	detection: {
		supportedLanguages: locales,
		fallbackLanguage: defaultLocale,
		cookie: localeCookie,
		order: ['cookie', 'custom'],
		findLocale: async (request) => localeFromAcceptLanguage(request.headers.get('Accept-Language')) ?? null,
	},
})

export async function preferredLocale(request: Request): Promise<Locale> {
	const locale = await detector.getLocale(request)
	return isLocale(locale) ? locale : defaultLocale
}

export async function getThemePreference(request: Request): Promise<ThemePreference> {
	return toThemePreference(await themeCookie.parse(request.headers.get('Cookie')))
}
