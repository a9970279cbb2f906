import { type ActionFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { authoriseVisitorChannel } from '#app/.server/link.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { readVisitorToken, visitorApi } from '#app/.server/visitor.ts'
import { postOnly } from '#app/realtime/authorise.server.ts'
import { formOf } from '#app/utils/http.ts'

/** pusher-js's channel authorisation for the link page's visitor: the API signs only their own conversation's channel, known by their cookie (without one it refuses, translated). */
export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const token = readVisitorToken(request)
	const headers = { 'Cache-Control': 'no-store' }
	// pusher-js posts application/x-www-form-urlencoded; anything unreadable reaches the API empty and is refused there.
	const form = await formOf(request).catch(() => new FormData())
	const body = { socket_id: String(form.get('socket_id') ?? ''), channel_name: String(form.get('channel_name') ?? '') }
	try {
		return Response.json(await authoriseVisitorChannel(visitorApi(request, context, locale, token), params.slug ?? '', body), { headers })
	} catch (error) {
		if (error instanceof ApiError && error.statusCode >= 400 && error.statusCode < 500) {
			return Response.json(error.details ?? { message: error.message, statusCode: error.statusCode }, { status: error.statusCode, headers })
		}
		throw error
	}
}

export const loader = postOnly
