import { data } from '@remix-run/node'
import { type ApiClient, type MemberJson } from '#app/.server/api.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { setCapacity } from '#app/.server/members.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { type Locale } from '#locales/languages.ts'

/** The page of members the form was on, and nothing else of the address (an open confirmation). */
export function pageOf(request: Request, here: string) {
	const page = new URL(request.url).searchParams.get('page')
	return page ? `${here}?page=${encodeURIComponent(page)}` : here
}

/** A member's capacity: empty for the workspace's default; what the API refuses is said beside the field, as typed. */
export async function saveCapacity(
	api: ApiClient,
	workspaceId: string,
	formData: FormData,
	{ locale, request, here }: { locale: Locale; request: Request; here: string },
) {
	const t = await serverT(locale)
	const userId = String(formData.get('userId') ?? '')
	const value = String(formData.get('capacity') ?? '').trim()
	const capacity = value === '' ? null : Number(value)
	const refuse = (message: string, status: number) => data({ capacityRefused: { userId, value, message } }, { status })
	if (capacity !== null && !Number.isFinite(capacity)) return refuse(t('forms.number'), 400)
	let member: MemberJson
	try {
		member = await setCapacity(api, workspaceId, userId, capacity)
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		return refuse(message, status)
	}
	const title =
		member.capacity === null ? t('capacity.savedDefault', { name: member.name }) : t('capacity.saved', { name: member.name, count: member.capacity })
	return redirectWithToast(here, { type: 'success', title })
}
