import { type TFunction } from 'i18next'
import { type Locale } from '#locales/languages.ts'

declare global {
	namespace Express {
		interface Request {
			/** The caller's locale, from Accept-Language (default en-us). */
			locale: Locale
			/** Translates API messages into the caller's locale. */
			t: TFunction<'api'>
		}
	}
}
