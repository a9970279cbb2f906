import { describe, expect, test } from 'vitest'
import { ApiError } from './api-client.ts'
import { apiFailure, replyInvalid, replyWithApiError } from './forms.ts'
import { refusalToast } from './session.ts'

// conform's `submission.reply`, answering what it was given.
const submission = { reply: (options?: unknown) => options as never }
// The form's reply as the page receives it: its body and status.
const apiErrorReply = async (...args: Parameters<typeof replyWithApiError>) => {
	const { data, init } = await replyWithApiError(...args)
	return { ...data, status: init?.status }
}
const request = new Request('http://localhost/en-us/dashboard/settings/channels/create', { method: 'POST' })
const signedIn = { locale: 'en-us' as const, request }

const providerDown = new ApiError('The provider cannot be reached right now; try again in a moment (fetch failed).', '/v1/workspaces/w/channels', 502, {
	message: 'The provider cannot be reached right now; try again in a moment (fetch failed).',
	statusCode: 502,
	details: null,
})
const databaseAway = new ApiError('The database is not answering right now. Please try again in a few seconds.', '/v1/x', 503, null)

describe("an action's API failure, whatever its status, is said beside its form", () => {
	test('a 5xx (a provider out of reach, the database away) is the form again with the API’s words and status, not the error screen', async () => {
		expect(await apiErrorReply(submission, providerDown, { signedIn })).toEqual({
			result: { formErrors: [providerDown.message], fieldErrors: {}, hideFields: undefined },
			status: 502,
		})
		expect(await apiErrorReply(submission, databaseAway, { signedIn, hideFields: ['password'] })).toMatchObject({
			result: { formErrors: [databaseAway.message], hideFields: ['password'] },
			status: 503,
		})
		expect(await apiFailure(databaseAway, 'en-us', request)).toEqual({ message: databaseAway.message, status: 503 })
		const toast = await refusalToast(providerDown, { locale: 'en-us', request, to: '/en-us/dashboard/settings/workspaces', title: 'Could not switch' })
		expect(toast.status).toBe(302)
		expect(toast.headers.get('Location')).toBe('/en-us/dashboard/settings/workspaces')
	})

	test('a field’s message goes beside its field; a 401 still signs out; what is no API answer still goes to the error screen', async () => {
		const refused = new ApiError('Some fields are not valid.', '/v1/x', 409, { details: { fields: { shortCode: ['Taken.'] } } })
		expect(await apiErrorReply(submission, refused, { signedIn, with: { intent: 'update' } })).toEqual({
			intent: 'update',
			result: { formErrors: [], fieldErrors: { shortCode: ['Taken.'] }, hideFields: undefined },
			status: 409,
		})
		expect(await apiFailure(refused, 'en-us', request)).toEqual({ message: 'Taken.', status: 409 })
		const ended = await apiFailure(new ApiError('Session ended', '/v1/x', 401, null), 'en-us', request).catch((error: unknown) => error)
		expect((ended as Response).headers.get('Location')).toBe('/en-us/auth/login')
		const bug = new TypeError('fetch failed')
		await expect(apiErrorReply(submission, bug, { signedIn })).rejects.toBe(bug)
		await expect(apiFailure(bug, 'en-us', request)).rejects.toBe(bug)
	})

	test('the answer’s headers come with it, refused by the form or by the API (the link page’s first visitor cookie)', async () => {
		const headers = new Headers({ 'Set-Cookie': 'crm-visitor=abc; Path=/; HttpOnly' })
		for (const answer of [replyInvalid(submission, { headers }), await replyWithApiError(submission, databaseAway, { headers })])
			expect(new Headers(answer.init?.headers).get('Set-Cookie')).toBe('crm-visitor=abc; Path=/; HttpOnly')
	})

	test('`fieldOf` puts the messages of the paths the API nests beside the form’s flat fields, and secrets stay out', async () => {
		const refused = new ApiError('Some fields are not valid.', '/v1/x', 422, {
			details: { fields: { 'settings.greeting': ['Too long.'], 'credentials.botToken': ['Not a token.'], botToken: ['Refused.'], credentials: ['None.'] } },
		})
		const fieldOf = (path: string) => path.replace(/^(settings|credentials)\./, '')
		expect(await apiErrorReply(submission, refused, { signedIn, fieldOf, hideFields: ['botToken'] })).toEqual({
			result: {
				formErrors: [],
				fieldErrors: { greeting: ['Too long.'], botToken: ['Not a token.', 'Refused.'], credentials: ['None.'] },
				hideFields: ['botToken'],
			},
			status: 422,
		})
	})
})
