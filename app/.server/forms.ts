import { type SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import { serverT } from '#app/i18n/i18n.server.ts'
import { type Locale } from '#locales/languages.ts'
import { ApiError, errorDetail, type ApiClient } from './api.ts'
import { rethrowApiError } from './session.ts'
import { redirectWithToast } from './toast.ts'

type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }
type Submission = { reply: (options?: ReplyOptions) => SubmissionResult<string[]> }

type ValidationDetails = { details?: { fields?: Record<string, string[]> } }

/**
 * The one shape of a form's answer: conform's `result`, and beside it what the page needs to know
 * which form it answers (an `intent`, when a page has several) or to show with it (`with`).
 * Every action answers its forms through the three functions below.
 */
export type FormReply<Extra extends object = object> = Extra & { result: SubmissionResult<string[]> }

/**
 * What an action's function for one intent is given (the profile's, the campaigns', the contacts'): the
 * signed-in user's API and language, the post, where the page is, its words, and `signedIn` for
 * `replyWithApiError`.
 */
export type Posted = {
	locale: Locale
	api: ApiClient
	request: Request
	formData: FormData
	here: string
	t: Awaited<ReturnType<typeof serverT>>
	signedIn: { locale: Locale; request: Request }
}

/** The `Posted` of a post to the page at `here`, read (`formData`) by the action. */
export async function postedOf(request: Request, formData: FormData, { locale, api }: { locale: Locale; api: ApiClient }, here: string): Promise<Posted> {
	return { locale, api, request, formData, here, t: await serverT(locale), signedIn: { locale, request } }
}

/** Beside the result: what the page is told with it, the fields never sent back (passwords), the answer's headers (a cookie set however the form went). */
type Beside<Extra extends object> = { with?: Extra; hideFields?: string[]; headers?: HeadersInit }

/** Answers a form that did not pass validation: 400 with its errors, passwords (`hideFields`) left out. */
export function replyInvalid<Extra extends object = object>(submission: Submission, options: Beside<Extra> = {}) {
	return reply(submission, { hideFields: options.hideFields }, 400, options)
}

/** Answers a form that passed validation but that the page refuses (a country it cannot find): 400 beside the fields. */
export function replyFieldErrors<Extra extends object = object>(submission: Submission, fieldErrors: Record<string, string[]>, options: Beside<Extra> = {}) {
	return reply(submission, { fieldErrors, hideFields: options.hideFields }, 400, options)
}

/**
 * Answers a form whose API call failed, whatever its status (a provider or the database out of
 * reach is a 5xx the user can retry): the API's field messages beside their fields, anything else
 * above the form, with the API's status. Passwords are never sent back. With `signedIn`, a 401
 * means the session ended and signs the user out. What is no API answer goes to the error screen.
 * `fieldOf` names the form's field of an API path, when the API nests what the form has flat
 * (`settings.greeting` → `greeting`).
 */
export async function replyWithApiError<Extra extends object = object>(
	submission: Submission,
	error: unknown,
	options: Beside<Extra> & { signedIn?: { locale: Locale; request: Request }; fieldOf?: (path: string) => string } = {},
) {
	if (!(error instanceof ApiError)) throw error
	if (options.signedIn && error.statusCode === 401) await rethrowApiError(error, options.signedIn.locale, options.signedIn.request)
	const fields = (error.details as ValidationDetails | null)?.details?.fields ?? {}
	const formErrors = Object.keys(fields).length === 0 ? [error.message] : (fields._ ?? [])
	const { _: _root, ...byPath } = fields
	// A Map, then own properties: a field may be named `__proto__` (as the API says of a record's key).
	const fieldErrors = new Map<string, string[]>()
	for (const [path, messages] of Object.entries(byPath)) {
		const name = options.fieldOf ? options.fieldOf(path) : path
		fieldErrors.set(name, [...(fieldErrors.get(name) ?? []), ...messages])
	}
	return reply(submission, { formErrors, fieldErrors: Object.fromEntries(fieldErrors), hideFields: options.hideFields }, error.statusCode, options)
}

function reply<Extra extends object>(submission: Submission, options: ReplyOptions, status: number, beside: Beside<Extra>) {
	return data({ ...(beside.with as Extra), result: submission.reply(options) } satisfies FormReply<Extra>, { status, headers: beside.headers })
}

/**
 * An action's API failure to show beside its form (a confirmation, a one-button form), whatever its
 * status: the API's words and status. A 401 signs the user out; what is no API answer is rethrown.
 */
export async function apiFailure(error: unknown, locale: Locale, request: Request): Promise<{ message: string; status: number }> {
	if (!(error instanceof ApiError) || error.statusCode === 401) return rethrowApiError(error, locale, request)
	return { message: errorDetail(error), status: error.statusCode }
}

/**
 * A deletion the page asked to confirm (a settings list's `?delete=`): done, back to `here` with
 * `done` as the toast; refused, `{ deleteError }` with the API's status, said in the confirmation,
 * which stays open (its URL is the post's). With `goneIsDone`, a 404 is what the user wanted.
 */
export async function confirmedDeletion(
	remove: () => Promise<unknown>,
	{ locale, request, here, done, goneIsDone = false }: { locale: Locale; request: Request; here: string; done: string; goneIsDone?: boolean },
) {
	try {
		await remove()
	} catch (error) {
		if (!(goneIsDone && error instanceof ApiError && error.statusCode === 404)) {
			const { message, status } = await apiFailure(error, locale, request)
			return data({ deleteError: message }, { status })
		}
	}
	return redirectWithToast(here, { type: 'success', title: done })
}
