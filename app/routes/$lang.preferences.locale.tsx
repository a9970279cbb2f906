import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { localeCookie } from '#app/.server/cookies.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { pageNotFound, formOf } from '#app/utils/http.ts'
import { safePath, withLocale } from '#app/utils/redirect.ts'
import { isLocale } from '#locales/languages.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireLocale(request, params)
	pageNotFound(request)
}

/** Stores the chosen locale and shows the same page in it. Only the three supported codes pass. */
export async function action({ request, params }: ActionFunctionArgs) {
	const current = await requireLocale(request, params)
	const form = await formOf(request)
	const chosen = form.get('locale')
	const next = isLocale(chosen) ? chosen : current
	const back = safePath(form.get('redirectTo')) ?? `/${current}`
	return redirect(withLocale(back, next), { headers: { 'Set-Cookie': localeCookie.serialize(next) } })
}
