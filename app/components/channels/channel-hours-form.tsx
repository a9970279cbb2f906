import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BusinessHoursFields, type HoursRefusal } from '#app/components/business-hours-fields.tsx'
import { valuesOfHours } from '#app/components/business-hours-form.ts'
import { Button } from '#app/components/ui/button.tsx'
import { FormErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { defaultBusinessHours, type BusinessHours } from '#common/business-hours.ts'
import { type Locale } from '#locales/languages.ts'

/**
 * A channel's business hours (issue 31): the workspace's (`open=off`, saved as null) or its own,
 * edited in the workspace's form's fields, which start from the workspace's hours. Plain inputs:
 * works without JavaScript.
 */
export function ChannelHoursForm({
	hours,
	workspaceHours,
	timezone,
	locale,
	refused,
	pending,
}: {
	hours: BusinessHours | null
	workspaceHours: BusinessHours | null
	timezone: string
	locale: Locale
	refused?: HoursRefusal
	pending: boolean
}) {
	const { t } = useTranslation('channels')
	const values = refused?.values ?? valuesOfHours(hours, workspaceHours ?? defaultBusinessHours)
	return (
		<Form method="post" noValidate className={fieldStyles.form} key={JSON.stringify(refused ?? hours)}>
			<input type="hidden" name="intent" value="businessHours" />
			<FormErrors id="hours-errors" errors={refused?.message ? [refused.message] : undefined} />
			<fieldset className={fieldStyles.choices} aria-describedby="channel-hours-help">
				<legend className={fieldStyles.label}>{t('hours.source')}</legend>
				<label className={fieldStyles.choice}>
					<input type="radio" name="open" value="off" defaultChecked={!values.open} />
					{workspaceHours ? t('hours.workspace') : t('hours.workspaceAlwaysOpen')}
				</label>
				<label className={fieldStyles.choice}>
					<input type="radio" name="open" value="on" defaultChecked={values.open} />
					{t('hours.own')}
				</label>
			</fieldset>
			<p id="channel-hours-help" className={fieldStyles.help}>
				{t('hours.help', { zone: timezone })}
			</p>
			<BusinessHoursFields values={values} refused={refused} locale={locale} />
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('hours.save')}
				</Button>
			</div>
		</Form>
	)
}
