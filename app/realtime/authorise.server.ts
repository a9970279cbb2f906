import { type ActionFunctionArgs } from '@remix-run/node'
import { api, ApiError } from '#app/.server/api.ts'
import { preferredLocale } from '#app/.server/preferences.ts'
import { readToken } from '#app/.server/session.ts'

/**
 * Forwards pusher-js's form post to the API as the signed-in user (crm-token cookie) and answers
 * what it said: the signature as JSON, or its 4xx error (401 without a session, 403 refused).
 */
export async function forwardToApi({ request, context }: ActionFunctionArgs, path: string, fields: readonly string[]): Promise<Response> {
	const locale = preferredLocale(request)
	const token = await readToken(request)
	// pusher-js posts application/x-www-form-urlencoded; anything unreadable reaches the API empty and is refused there.
	const form = await request.formData().catch(() => new FormData())
	const body: Record<string, string> = {}
	for (const field of fields) {
		const value = form.get(field)
		if (typeof value === 'string') body[field] = value
	}
	const headers = { 'Cache-Control': 'no-store' }
	try {
		return Response.json(await api(request, context, { lang: locale }, token).post(path, body), { headers })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode >= 400 && error.statusCode < 500) {
			return Response.json(error.details ?? { message: error.message, statusCode: error.statusCode }, { status: error.statusCode, headers })
		}
		throw error
	}
}

/** A GET of an endpoint that only takes POST. */
export function postOnly(): Response {
	return new Response(null, { status: 405, headers: { Allow: 'POST' } })
}
