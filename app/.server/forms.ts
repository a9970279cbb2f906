import { type SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import { type Locale } from '#locales/languages.ts'
import { ApiError, errorDetail } from './api.ts'
import { rethrowApiError } from './session.ts'

type Submission = { reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<string[]> }

type ValidationDetails = { details?: { fields?: Record<string, string[]> } }

/**
 * The reply to a form whose API call failed, whatever its status (a provider or the database out of
 * reach is a 5xx the user can retry): the API's field messages beside their fields, anything else
 * above the form, with the API's status. Passwords are never sent back. With `signedIn`, a 401
 * means the session ended and signs the user out. What is no API answer goes to the error screen.
 */
export async function apiErrorReply(
	submission: Submission,
	error: unknown,
	options: { hideFields?: string[]; signedIn?: { locale: Locale; request: Request } } = {},
): Promise<{ result: SubmissionResult<string[]>; status: number }> {
	if (!(error instanceof ApiError)) throw error
	if (options.signedIn && error.statusCode === 401) await rethrowApiError(error, options.signedIn.locale, options.signedIn.request)
	const fields = (error.details as ValidationDetails | null)?.details?.fields ?? {}
	const formErrors = Object.keys(fields).length === 0 ? [error.message] : (fields._ ?? [])
	const { _: _root, ...fieldErrors } = fields
	return { result: submission.reply({ formErrors, fieldErrors, hideFields: options.hideFields }), status: error.statusCode }
}

/** Answers a form whose API call failed (see `apiErrorReply`). */
export async function replyWithApiError(...args: Parameters<typeof apiErrorReply>) {
	const { result, status } = await apiErrorReply(...args)
	return data(result, { status })
}

/** Answers a form that did not pass validation: 400 with its errors, passwords left out. */
export function replyInvalid(submission: Submission, hideFields?: string[]) {
	return data(submission.reply({ hideFields }), { status: 400 })
}

/**
 * An action's API failure to show beside its form (a confirmation, a one-button form), whatever its
 * status: the API's words and status. A 401 signs the user out; what is no API answer is rethrown.
 */
export async function apiFailure(error: unknown, locale: Locale, request: Request): Promise<{ message: string; status: number }> {
	if (!(error instanceof ApiError) || error.statusCode === 401) return rethrowApiError(error, locale, request)
	return { message: errorDetail(error), status: error.statusCode }
}
