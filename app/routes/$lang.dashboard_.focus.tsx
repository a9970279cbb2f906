import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { reportFocus } from '#app/.server/push.ts'
import { signedInApi } from '#app/.server/session.ts'
import { formOf, pageNotFound } from '#app/utils/http.ts'

export async function loader({ request }: LoaderFunctionArgs) {
	pageNotFound(request)
}

/**
 * Where the dashboard's tabs say whether they are in front of the member (`useFocusPresence`), so that
 * no browser push reaches someone who is looking. Answered with a status only: the page does not wait for it.
 */
export async function action(args: ActionFunctionArgs) {
	const { api } = await signedInApi(args)
	const form = await formOf(args.request)
	try {
		await reportFocus(api, String(form.get('workspaceId') ?? ''), form.get('focused') === 'true')
	} catch (error) {
		if (error instanceof ApiError) return new Response(null, { status: error.statusCode })
		throw error
	}
	return new Response(null, { status: 204 })
}
