import { type ActionFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { readVisitorToken, visitorApi } from '#app/.server/visitor.ts'
import { postOnly } from '#app/realtime/authorise.server.ts'
import { formOf } from '#app/utils/http.ts'

/**
 * The link page, seen (its tab visible) with the team's replies on it up to `upTo`: they are read.
 * Posted by the page's script with the visitor's cookie; the API marks their own conversation only.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const token = readVisitorToken(request)
	const headers = { 'Cache-Control': 'no-store' }
	const form = await formOf(request).catch(() => new FormData())
	try {
		await visitorApi(request, context, locale, token).post(`/link/${encodeURIComponent(params.slug ?? '')}/read`, { upTo: String(form.get('upTo') ?? '') })
		return new Response(null, { status: 204, headers })
	} catch (error) {
		// Whatever the API said (a 429, its database away), the script tries again later: its words as JSON, never an error page.
		if (error instanceof ApiError)
			return Response.json(error.details ?? { message: error.message, statusCode: error.statusCode }, { status: error.statusCode, headers })
		throw error
	}
}

export const loader = postOnly
