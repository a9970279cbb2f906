import { type TFunction } from 'i18next'
import { type Locale } from '#locales/languages.ts'
import { type TokenCaller } from '#api/access-tokens/queries.ts'
import { type Session, type User } from '#api/db/schema.ts'

declare global {
	namespace Express {
		interface Request {
			/** The caller's locale, from Accept-Language (default en-us). */
			locale: Locale
			/** Translates API messages into the caller's locale. */
			t: TFunction<'api'>
			/** The signed-in user, set by `requireUser`. */
			user: User
			/** The session behind the request's bearer token, set by `requireUser`. */
			session: Session
			/** The access token the request was made with, set by `requireUser` instead of `session`. */
			accessToken?: TokenCaller
		}
	}
}
