import { Info } from 'luxon'
import { useTranslation } from 'react-i18next'
import { FieldErrors } from '#app/components/ui/field.tsx'
import * as fieldStyles from '#app/components/ui/field.css.ts'
import { languageOf, type Locale } from '#locales/languages.ts'
import { type HoursValues } from './business-hours-form.ts'
import * as styles from './business-hours.css.ts'

/** What was posted, as typed, and why it was refused: beside each field, or above the form. */
export type HoursRefusal = { values: HoursValues; fields: Record<string, string[]>; message: string | null }

/**
 * The weekdays' ranges and the holidays of some business hours (issue 31), shared by the workspace's
 * and a channel's forms: per weekday (Monday first) closed or one or two ranges, and holidays. Plain
 * inputs, so it works without JavaScript.
 */
export function BusinessHoursFields({ values, refused, locale }: { values: HoursValues; refused?: HoursRefusal; locale: Locale }) {
	const { t } = useTranslation()
	const weekdays = Info.weekdays('long', { locale: languageOf(locale).tag })
	const errorsOf = (field: string) => refused?.fields[field] ?? []
	return (
		<>
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
		</>
	)
}
