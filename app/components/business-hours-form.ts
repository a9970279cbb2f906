import { type BusinessHours } from '#common/business-hours.ts'

/**
 * The business-hours form's fields (issue 31), plain inputs that work without JavaScript: `open`
 * (off: always open), per weekday (Monday first) `days.{d}.open` and two ranges
 * `days.{d}.{r}.from|to` (type=time; an empty range is not used), and `holidays` (a textarea, one
 * date a line). Read by the workspace's page and its action.
 */
export type HoursValues = { open: boolean; days: Array<{ open: boolean; ranges: Array<{ from: string; to: string }> }>; holidays: string }

export const rangesPerDay = 2

export function valuesOfHours(hours: BusinessHours | null, fallback: BusinessHours): HoursValues {
	const shown = hours ?? fallback
	return {
		open: hours !== null,
		days: shown.days.map((ranges) => ({
			open: ranges.length > 0,
			ranges: Array.from({ length: rangesPerDay }, (_, index) => ranges[index] ?? { from: '', to: '' }),
		})),
		holidays: shown.holidays.join('\n'),
	}
}

export function valuesOfForm(formData: FormData): HoursValues {
	const text = (name: string) => String(formData.get(name) ?? '').trim()
	return {
		open: formData.get('open') === 'on',
		days: Array.from({ length: 7 }, (_, day) => ({
			open: formData.get(`days.${day}.open`) === 'on',
			ranges: Array.from({ length: rangesPerDay }, (_, range) => ({ from: text(`days.${day}.${range}.from`), to: text(`days.${day}.${range}.to`) })),
		})),
		holidays: text('holidays'),
	}
}

/** What the API is sent: null when the hours are off; a closed day has no ranges, an empty range is left out. */
export function hoursOfValues(values: HoursValues): unknown {
	if (!values.open) return null
	return {
		days: values.days.map((day) => (day.open ? day.ranges.filter((range) => range.from || range.to) : [])),
		holidays: values.holidays.split(/[\s,;]+/).filter(Boolean),
	}
}

/** An API field path (`businessHours.days.0.1.from`, `businessHours.holidays.3`) as the form's field. */
export function formFieldOf(path: string): string {
	const field = path.replace(/^businessHours\.?/, '')
	return field.startsWith('holidays') ? 'holidays' : field || 'open'
}
