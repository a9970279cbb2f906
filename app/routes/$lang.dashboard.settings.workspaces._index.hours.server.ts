import { type ApiClient } from '#app/.server/api.ts'
import { saveHoursForm } from '#app/.server/business-hours.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { updateWorkspace } from '#app/.server/workspaces.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { type Locale } from '#locales/languages.ts'

/** The workspace's business hours (issue 31): refused beside their fields, as typed, or saved and the page again. */
export async function saveBusinessHours(api: ApiClient, formData: FormData, { locale, request, here }: { locale: Locale; request: Request; here: string }) {
	const workspaceId = String(formData.get('workspaceId') ?? '')
	const refused = await saveHoursForm(formData, {
		intent: 'business-hours',
		locale,
		request,
		save: (businessHours) => updateWorkspace(api, workspaceId, { businessHours }),
	})
	if (refused) return refused
	const t = await serverT(locale)
	return redirectWithToast(`${here}?edit=${encodeURIComponent(workspaceId)}`, { type: 'success', title: t('hours.saved') })
}
