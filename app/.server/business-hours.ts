import { data } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { apiFailure } from '#app/.server/forms.ts'
import { formFieldOf, hoursOfValues, valuesOfForm } from '#app/components/business-hours-form.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { businessHoursSchema, type BusinessHours } from '#common/business-hours.ts'
import { type Locale } from '#locales/languages.ts'

/**
 * Posted business hours (issue 31), the workspace's or a channel's: checked with the shared schema,
 * then saved by `save`; a refusal (400, or the API's status) keeps what was typed and puts each
 * message beside its field. Null when saved.
 */
export async function saveHoursForm<Intent extends string>(
	formData: FormData,
	{ intent, locale, request, save }: { intent: Intent; locale: Locale; request: Request; save: (hours: BusinessHours | null) => Promise<unknown> },
) {
	const values = valuesOfForm(formData)
	const refuse = (fields: Record<string, string[]>, message: string | null, status: number) =>
		data({ intent, refused: { values, fields, message } }, { status })
	const checked = businessHoursSchema.nullable().safeParse(hoursOfValues(values))
	if (!checked.success) {
		const t = await serverT(locale)
		const fields: Record<string, string[]> = {}
		for (const issue of checked.error.issues) {
			const field = formFieldOf(['businessHours', ...issue.path].join('.'))
			const message = issue.message.includes(':') ? t(issue.message) : t('forms.invalid')
			fields[field] = [...(fields[field] ?? []), message]
		}
		return refuse(fields, null, 400)
	}
	try {
		await save(checked.data)
		return null
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		const given = (error instanceof ApiError ? (error.details as { details?: { fields?: Record<string, string[]> } } | null)?.details?.fields : undefined) ?? {}
		const fields = Object.fromEntries(Object.entries(given).map(([path, messages]) => [formFieldOf(path), messages]))
		return refuse(fields, Object.keys(fields).length ? null : message, status)
	}
}
