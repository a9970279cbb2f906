import { type TFunction } from 'i18next'
import { languageOf, type Locale } from '#locales/languages.ts'
import { serverI18n } from './i18n.server.ts'

/** Translates from the `channels` namespace in a loader or an action (page titles, toasts). */
export async function channelsT(locale: Locale): Promise<TFunction> {
	return (await serverI18n(locale)).getFixedT(languageOf(locale).tag, 'channels')
}
