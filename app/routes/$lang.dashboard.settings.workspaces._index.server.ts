import { data } from '@remix-run/node'
import { ApiError, type ApiClient } from '#app/.server/api.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { updateWorkspace } from '#app/.server/workspaces.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { type Locale } from '#locales/languages.ts'

/** The assignment settings (issue 30), kept as typed and refused beside their fields by the API's words. */
export async function saveAssignment(api: ApiClient, formData: FormData, { locale, request, here }: { locale: Locale; request: Request; here: string }) {
	const t = await serverT(locale)
	const workspaceId = String(formData.get('workspaceId') ?? '')
	const values = {
		defaultCapacity: String(formData.get('defaultCapacity') ?? '').trim(),
		reopenAssignment: String(formData.get('reopenAssignment') ?? ''),
		agentsSeeOwnTeams: formData.get('agentsSeeOwnTeams') === 'on',
		replyWaitingAfter: String(formData.get('replyWaitingAfter') ?? '').trim(),
	}
	const refuse = (fields: Record<string, string[]>, message: string | null, status: number) =>
		data({ intent: 'assignment' as const, refused: { values, fields, message } }, { status })
	const defaultCapacity = values.defaultCapacity === '' ? null : Number(values.defaultCapacity)
	if (defaultCapacity !== null && !Number.isFinite(defaultCapacity)) return refuse({ defaultCapacity: [t('forms.number')] }, null, 400)
	const replyWaitingAfter = Number(values.replyWaitingAfter)
	if (values.replyWaitingAfter === '' || !Number.isFinite(replyWaitingAfter)) return refuse({ replyWaitingAfter: [t('forms.number')] }, null, 400)
	try {
		await updateWorkspace(api, workspaceId, {
			defaultCapacity,
			reopenAssignment: values.reopenAssignment,
			agentsSeeOwnTeams: values.agentsSeeOwnTeams,
			replyWaitingAfter,
		})
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		const fields =
			(error instanceof ApiError ? (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields : undefined) ?? {}
		return refuse(fields, Object.keys(fields).length ? null : message, status)
	}
	return redirectWithToast(`${here}?edit=${encodeURIComponent(workspaceId)}`, { type: 'success', title: t('assignment.saved') })
}
