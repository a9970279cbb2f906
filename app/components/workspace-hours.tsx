import { Form, useNavigation } from '@remix-run/react'
import { Info } from 'luxon'
import { useTranslation } from 'react-i18next'
import { type WorkspaceJson } from '#app/.server/api.ts'
import { FieldErrors, FormErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { Button } from '#app/components/ui/button.tsx'
import { defaultBusinessHours } from '#common/business-hours.ts'
import { languageOf, type Locale } from '#locales/languages.ts'
import { valuesOfHours, type HoursValues } from './business-hours-form.ts'
import * as styles from './workspace-hours.css.ts'

/** What was posted, as typed, and why it was refused: beside each field, or above the form. */
export type HoursRefusal = { values: HoursValues; fields: Record<string, string[]>; message: string | null }

/**
 * The workspace's business hours (issue 31), in its time zone: on or off (always open), per
 * weekday closed or one or two ranges, and holidays. Plain inputs, so it works without JavaScript.
 */
export function BusinessHoursSettings({ workspace, locale, refused }: { workspace: WorkspaceJson; locale: Locale; refused?: HoursRefusal }) {
	const { t } = useTranslation()
	const navigation = useNavigation()
	const pending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'business-hours'
	const values = refused?.values ?? valuesOfHours(workspace.businessHours, defaultBusinessHours)
	const weekdays = Info.weekdays('long', { locale: languageOf(locale).tag })
	const errorsOf = (field: string) => refused?.fields[field] ?? []
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
			<table className={styles.table}>
				<thead>
					<tr>
						<th scope="col">{t('hours.day')}</th>
						<th scope="col">{t('hours.open')}</th>
						<th scope="col">{t('hours.firstRange')}</th>
						<th scope="col">{t('hours.secondRange')}</th>
					</tr>
				</thead>
				<tbody>
					{values.days.map((day, index) => {
						const dayErrors = [
							...errorsOf(`days.${index}`),
							...[0, 1].flatMap((range) => [...errorsOf(`days.${index}.${range}.from`), ...errorsOf(`days.${index}.${range}.to`)]),
						]
						const name = weekdays[index] ?? ''
						return (
							<tr key={index}>
								<th scope="row">{name}</th>
								<td>
									<input type="checkbox" name={`days.${index}.open`} defaultChecked={day.open} aria-label={t('hours.openOn', { day: name })} />
								</td>
								{day.ranges.map((range, rangeIndex) => (
									<td key={rangeIndex}>
										<span className={styles.range}>
											{(['from', 'to'] as const).map((end) => {
												const field = `days.${index}.${rangeIndex}.${end}`
												return (
													<input
														key={end}
														type="time"
														name={field}
														defaultValue={range[end]}
														className={styles.time}
														aria-label={t(`hours.${end}`, { day: name, range: rangeIndex + 1 })}
														aria-invalid={errorsOf(field).length > 0 ? true : undefined}
														aria-describedby={dayErrors.length > 0 ? `hours-day-${index}-errors` : undefined}
													/>
												)
											})}
										</span>
									</td>
								))}
								{dayErrors.length > 0 ? (
									<td>
										<FieldErrors id={`hours-day-${index}-errors`} errors={dayErrors} />
									</td>
								) : null}
							</tr>
						)
					})}
				</tbody>
			</table>
			<div className={fieldStyles.field}>
				<label htmlFor="holidays" className={fieldStyles.label}>
					{t('hours.holidays')}
				</label>
				<textarea
					id="holidays"
					name="holidays"
					rows={4}
					defaultValue={values.holidays}
					className={styles.holidays}
					dir="ltr"
					aria-describedby={errorsOf('holidays').length > 0 ? 'holidays-help holidays-errors' : 'holidays-help'}
					aria-invalid={errorsOf('holidays').length > 0 ? true : undefined}
				/>
				<p id="holidays-help" className={fieldStyles.help}>
					{t('hours.holidaysHelp')}
				</p>
				<FieldErrors id="holidays-errors" errors={errorsOf('holidays')} />
			</div>
			<div>
				<Button type="submit" variant="outline" disabled={pending}>
					{t('hours.save')}
				</Button>
			</div>
		</Form>
	)
}
