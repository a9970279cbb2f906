import { createInstance, type i18n, type TFunction } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { languageOf, type Locale } from '#locales/languages.ts'
import { pageNamespaces, resources } from '#locales/resources.ts'
import { i18nOptions } from './i18n.ts'

async function createServerI18n(locale: Locale): Promise<i18n> {
	const instance = createInstance()
	await instance.use(initReactI18next).init({
		...i18nOptions(locale),
		resources: { [languageOf(locale).tag]: { common: resources[locale].common, ...pick(resources[locale], pageNamespaces) } },
		// It holds this locale's messages only: looking a key up elsewhere (`ar`, then en-US) finds
		// nothing and cost a share of every render.
		load: 'currentOnly',
		fallbackLng: false,
	})
	rememberLanguageCodes(instance)
	return instance
}

/**
 * Every `t` call works out the language's codes again, through `Intl.getCanonicalLocales`: a tenth
 * of an inbox page's render, for the same one or two codes. The instance's language never changes
 * on the server, so each code's canonical form is remembered.
 */
function rememberLanguageCodes(instance: i18n) {
	const utils = instance.services.languageUtils as { formatLanguageCode: (code: string) => string }
	const format = utils.formatLanguageCode.bind(utils)
	const known = new Map<string, string>()
	utils.formatLanguageCode = (code) => {
		let formatted = known.get(code)
		if (formatted === undefined) known.set(code, (formatted = format(code)))
		return formatted
	}
}

const pick = <T extends object, K extends keyof T>(object: T, keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, object[key]])) as Pick<T, K>

/** `make(locale)` once per locale, remembered for the life of the process. */
function oncePerLocale<T>(make: (locale: Locale) => T): (locale: Locale) => T {
	const made = new Map<Locale, T>()
	return (locale) => {
		if (!made.has(locale)) made.set(locale, make(locale))
		return made.get(locale) as T
	}
}

/**
 * The locale's i18next instance for server renders. Renders only read from it (its language never
 * changes on the server), so one per locale serves every request instead of one per render.
 */
export const serverI18n = oncePerLocale(createServerI18n)

/** Translates for a loader or an action (toasts, page titles). */
export const serverT: (locale: Locale) => Promise<TFunction> = oncePerLocale((locale) =>
	serverI18n(locale).then((instance) => instance.getFixedT(languageOf(locale).tag, 'common')),
)
