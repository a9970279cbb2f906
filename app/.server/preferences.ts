import { defaultLocale, localeFromAcceptLanguage, type Locale } from '#locales/languages.ts'
import { toThemePreference, type ThemePreference } from '#common/theme.ts'
import { localeCookie, themeCookie } from './cookies.ts'

/**
 * Chooses a locale for a path without one: the stored cookie choice, then the browser's
 * languages, then en-us.
 */
export function preferredLocale(request: Request): Locale {
	return localeCookie.parse(request.headers.get('Cookie')) ?? localeFromAcceptLanguage(request.headers.get('Accept-Language')) ?? defaultLocale
}

export async function getThemePreference(request: Request): Promise<ThemePreference> {
	return toThemePreference(await themeCookie.parse(request.headers.get('Cookie')))
}
