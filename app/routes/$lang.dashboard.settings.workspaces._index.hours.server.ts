import { data } from '@remix-run/node'
import { ApiError, type ApiClient } from '#app/.server/api.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { updateWorkspace } from '#app/.server/workspaces.ts'
import { formFieldOf, hoursOfValues, valuesOfForm } from '#app/components/business-hours-form.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { businessHoursSchema } from '#common/business-hours.ts'
import { type Locale } from '#locales/languages.ts'

/** The workspace's business hours (issue 31): checked with the shared schema, then the API; refused beside their fields, as typed. */
export async function saveBusinessHours(api: ApiClient, formData: FormData, { locale, request, here }: { locale: Locale; request: Request; here: string }) {
	const t = await serverT(locale)
	const workspaceId = String(formData.get('workspaceId') ?? '')
	const values = valuesOfForm(formData)
	const refuse = (fields: Record<string, string[]>, message: string | null, status: number) =>
		data({ intent: 'business-hours' as const, refused: { values, fields, message } }, { status })
	const businessHours = hoursOfValues(values)
	const checked = businessHoursSchema.nullable().safeParse(businessHours)
	if (!checked.success) {
		const fields: Record<string, string[]> = {}
		for (const issue of checked.error.issues) {
			const field = formFieldOf(['businessHours', ...issue.path].join('.'))
			const message = issue.message.includes(':') ? t(issue.message) : t('forms.invalid')
			fields[field] = [...(fields[field] ?? []), message]
		}
		return refuse(fields, null, 400)
	}
	try {
		await updateWorkspace(api, workspaceId, { businessHours: checked.data })
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		const given = (error instanceof ApiError ? (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields : undefined) ?? {}
		const fields = Object.fromEntries(Object.entries(given).map(([path, messages]) => [formFieldOf(path), messages]))
		return refuse(fields, Object.keys(fields).length ? null : message, status)
	}
	return redirectWithToast(`${here}?edit=${encodeURIComponent(workspaceId)}`, { type: 'success', title: t('hours.saved') })
}
