import { createInstance, type TFunction } from 'i18next'
import { defaultLocale, languageOf, localeFromAcceptLanguage, locales, type Locale } from '#locales/languages.ts'
import { apiNamespaces, resources } from '#locales/resources.ts'

// One i18next instance for the API, keyed by real language tags so plural rules work (`fr`, not `fr-x`).
const i18n = createInstance()
void i18n.init({
	resources: Object.fromEntries(locales.map((locale) => [languageOf(locale).tag, Object.fromEntries(apiNamespaces.map((ns) => [ns, resources[locale][ns]]))])),
	ns: [...apiNamespaces],
	defaultNS: 'api',
	fallbackLng: languageOf(defaultLocale).tag,
	interpolation: { escapeValue: false },
	initImmediate: false,
})

export function apiLocale(acceptLanguage: string | undefined): Locale {
	return localeFromAcceptLanguage(acceptLanguage) ?? defaultLocale
}

export function translatorFor(locale: Locale): TFunction<'api'> {
	return i18n.getFixedT(languageOf(locale).tag, 'api')
}
