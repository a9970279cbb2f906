import { Form, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { type WorkspaceJson } from '#app/.server/api.ts'
import { FormErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { Button } from '#app/components/ui/button.tsx'
import { defaultBusinessHours } from '#common/business-hours.ts'
import { type Locale } from '#locales/languages.ts'
import { BusinessHoursFields, type HoursRefusal } from './business-hours-fields.tsx'
import { valuesOfHours } from './business-hours-form.ts'
import * as styles from './business-hours.css.ts'

/**
 * The workspace's business hours (issue 31), in its time zone: on or off (always open), and the
 * shared weekdays' and holidays' fields. Plain inputs, so it works without JavaScript.
 */
export function BusinessHoursSettings({ workspace, locale, refused }: { workspace: WorkspaceJson; locale: Locale; refused?: HoursRefusal }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'business-hours'
	const values = refused?.values ?? valuesOfHours(workspace.businessHours, defaultBusinessHours)
	const key = JSON.stringify(refused ?? workspace.businessHours)
	return (
		<Form method="post" noValidate className={fieldStyles.form} aria-labelledby="hours-heading" key={key}>
			<h3 id="hours-heading" className={styles.title}>
				{t('hours.title')}
			</h3>
			<input type="hidden" name="intent" value="business-hours" />
			<input type="hidden" name="workspaceId" value={workspace.id} />
			<FormErrors id="hours-errors" errors={refused?.message ? [refused.message] : undefined} />
			<div className={fieldStyles.field}>
				<label className={fieldStyles.choice}>
					<input type="checkbox" name="open" defaultChecked={values.open} aria-describedby="hours-help" />
					{t('hours.enabled')}
				</label>
				<p id="hours-help" className={fieldStyles.help}>
					{t('hours.help', { zone: workspace.timezone })}
				</p>
			</div>
			<BusinessHoursFields values={values} refused={refused} locale={locale} />
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('hours.save')}
				</Button>
			</div>
		</Form>
	)
}
