import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { apiFailure } from '#app/.server/forms.ts'
import { setAvailability } from '#app/.server/members.ts'
import { refusalToast, requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { formOf, pageNotFound } from '#app/utils/http.ts'
import { safePath } from '#app/utils/redirect.ts'

export async function loader({ request }: LoaderFunctionArgs) {
	pageNotFound(request)
}

/**
 * The top bar's availability switch (online, busy, offline). Without JavaScript the form comes here and
 * goes back to the page it was on, with a toast; the switch's fetcher (`inPlace`) is answered here instead.
 */
export async function action(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireUser(args)
	const form = await formOf(request)
	const inPlace = form.get('inPlace') === '1'
	const back = safePath(form.get('redirectTo')) ?? `/${locale}/dashboard`
	const t = await serverT(locale)
	try {
		const member = await setAvailability(api, user.workspace.id, form.get('availability'))
		if (inPlace) return { availability: member.availability }
		return redirectWithToast(back, { type: 'success', title: t('availability.saved', { state: t(`availability.${member.availability}`) }) })
	} catch (error) {
		if (!inPlace) return refusalToast(error, { locale, request, to: back, title: t('availability.failed') })
		const { message, status } = await apiFailure(error, locale, request)
		return data({ failed: message }, { status })
	}
}
