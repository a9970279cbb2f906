import { createInstance, type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { languageOf, type Locale } from '#locales/languages.ts'
import { resources } from '#locales/resources.ts'
import { i18nOptions } from './i18n.ts'

/** A fresh i18next instance for one server render, with the locale's messages already in memory. */
export async function createServerI18n(locale: Locale): Promise<i18n> {
	const instance = createInstance()
	await instance.use(initReactI18next).init({
		...i18nOptions(locale),
		resources: { [languageOf(locale).tag]: { common: resources[locale].common } },
	})
	return instance
}

// Loaders and actions only translate: one instance per locale serves every request.
const translators = new Map<Locale, ReturnType<typeof translatorOf>>()

function translatorOf(locale: Locale) {
	return createServerI18n(locale).then((instance) => instance.getFixedT(languageOf(locale).tag, 'common'))
}

/** Translates for a loader or an action (toasts, page titles). */
export function serverT(locale: Locale) {
	let translator = translators.get(locale)
	if (!translator) {
		translator = translatorOf(locale)
		translators.set(locale, translator)
	}
	return translator
}
