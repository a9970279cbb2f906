import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { themeCookie } from '#app/.server/cookies.ts'
import { requireLocale } from '#app/.server/locale.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { pageNotFound, formOf } from '#app/utils/http.ts'
import { safePath } from '#app/utils/redirect.ts'
import { toThemePreference } from '#common/theme.ts'

export async function loader({ request, params }: LoaderFunctionArgs) {
	await requireLocale(request, params)
	pageNotFound(request)
}

/** Stores theme, mode and radius in a cookie; unknown values fall back to the defaults. */
export async function action({ request, params }: ActionFunctionArgs) {
	const locale = await requireLocale(request, params)
	const form = await formOf(request)
	const preference = toThemePreference(Object.fromEntries(form))
	const back = safePath(form.get('redirectTo')) ?? `/${locale}`
	const t = await serverT(locale)
	return redirectWithToast(
		back,
		{ type: 'success', title: t('preferences.saved'), description: t(`themes.${preference.theme}`) },
		{ headers: { 'Set-Cookie': await themeCookie.serialize(preference) } },
	)
}
