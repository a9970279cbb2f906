import { type SubmissionResult } from '@conform-to/react'
import { data } from '@remix-run/node'
import { type Locale } from '#locales/languages.ts'
import { ApiError } from './api.ts'
import { rethrowApiError } from './session.ts'

type Submission = { reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }) => SubmissionResult<string[]> }

type ValidationDetails = { details?: { fields?: Record<string, string[]> } }

/**
 * The reply to a form whose API call failed: the API's field messages beside their fields, anything
 * else above the form, with the API's status. Passwords are never sent back. With `signedIn`, a
 * 401 means the session ended and signs the user out; a 5xx is a bug and goes to the error screen.
 */
export async function apiErrorReply(
	submission: Submission,
	error: unknown,
	options: { hideFields?: string[]; signedIn?: { locale: Locale; request: Request } } = {},
): Promise<{ result: SubmissionResult<string[]>; status: number }> {
	if (!(error instanceof ApiError) || error.statusCode >= 500) throw error
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
