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

export function serverT(locale: Locale) {
	return createServerI18n(locale).then((instance) => instance.getFixedT(languageOf(locale).tag, 'common'))
}
