import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { localeCookie } from '#app/.server/cookies.ts'
import { pageNotFound, requireLocale } from '#app/utils/http.ts'
import { safePath, withLocale } from '#app/utils/redirect.ts'
import { isLocale } from '#locales/languages.ts'

export function loader({ request }: LoaderFunctionArgs) {
	pageNotFound(request)
}

/** Stores the chosen locale and shows the same page in it. Only the three supported codes pass. */
export async function action({ request, params }: ActionFunctionArgs) {
	const current = requireLocale(request, params)
	const form = await request.formData()
	const chosen = form.get('locale')
	const next = isLocale(chosen) ? chosen : current
	const back = safePath(form.get('redirectTo')) ?? `/${current}`
	return redirect(withLocale(back, next), { headers: { 'Set-Cookie': await localeCookie.serialize(next) } })
}
