import { Fragment } from 'react'
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
			<p id="hours-days-help" className={fieldStyles.help}>
				{t('hours.daysHelp')}
			</p>
			<ul className={styles.days} aria-describedby="hours-days-help">
				{values.days.map((day, index) => {
					const dayErrors = [
						...errorsOf(`days.${index}`),
						...[0, 1].flatMap((range) => [...errorsOf(`days.${index}.${range}.from`), ...errorsOf(`days.${index}.${range}.to`)]),
					]
					const name = weekdays[index] ?? ''
					return (
						// Each day a block: its name, then its ranges, which wrap under the name on a phone.
						<li key={index} className={styles.day}>
							<label className={styles.dayName}>
								<input type="checkbox" name={`days.${index}.open`} defaultChecked={day.open} aria-label={t('hours.openOn', { day: name })} />
								{name}
							</label>
							{day.ranges.map((range, rangeIndex) => (
								<span key={rangeIndex} className={styles.range}>
									{(['from', 'to'] as const).map((end) => {
										const field = `days.${index}.${rangeIndex}.${end}`
										return (
											<Fragment key={end}>
												{end === 'to' ? <span aria-hidden="true">–</span> : null}
												<input
													type="time"
													name={field}
													defaultValue={range[end]}
													className={styles.time}
													aria-label={t(`hours.${end}`, { day: name, range: rangeIndex + 1 })}
													aria-invalid={errorsOf(field).length > 0 ? true : undefined}
													aria-describedby={dayErrors.length > 0 ? `hours-day-${index}-errors` : undefined}
												/>
											</Fragment>
										)
									})}
								</span>
							))}
							{dayErrors.length > 0 ? (
								<div className={styles.dayErrors}>
									<FieldErrors id={`hours-day-${index}-errors`} errors={dayErrors} />
								</div>
							) : null}
						</li>
					)
				})}
			</ul>
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
