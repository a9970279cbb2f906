import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { api, ApiError } from '#app/.server/api.ts'
import { logout } from '#app/.server/auth.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { readToken, signOutHeaders } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { safePath } from '#app/utils/redirect.ts'
import { formOf } from '#app/utils/http.ts'

/** Signing out changes data: a GET only leads to the login page. */
export async function loader({ request, params }: LoaderFunctionArgs) {
	const locale = await requireLocale(request, params)
	throw redirect(`/${locale}/auth/login`)
}

export async function action({ request, params, context }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const token = await readToken(request)
	const login = `/${locale}/auth/login`
	if (!token) return redirect(login, { headers: await signOutHeaders() })
	try {
		await logout(api(request, context, params, token))
	} catch (error) {
		// A token the API no longer knows is signed out already.
		if (!(error instanceof ApiError && error.statusCode === 401)) {
			const t = await serverT(locale)
			const back = safePath((await formOf(request)).get('redirectTo')) ?? `/${locale}/dashboard`
			const description = error instanceof ApiError && error.statusCode < 500 ? error.message : t('error.unexpected')
			return redirectWithToast(back, { type: 'error', title: t('auth.logoutFailed'), description })
		}
	}
	return redirect(login, { headers: await signOutHeaders() })
}
