import { type InitOptions } from 'i18next'
import { defaultLocale, languageOf, type Locale } from '#locales/languages.ts'

/**
 * i18next works with real language tags (`fr`, not `fr-x`) so plural rules and Intl work; the
 * URL keeps the product's codes.
 */
export function i18nOptions(locale: Locale): InitOptions {
	return {
		lng: languageOf(locale).tag,
		fallbackLng: languageOf(defaultLocale).tag,
		supportedLngs: ['en-US', 'ar-EG', 'fr'],
		defaultNS: 'common',
		ns: ['common'],
		interpolation: { escapeValue: false },
		react: { useSuspense: false },
	}
}
