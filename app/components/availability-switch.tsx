import { useFetcher, useLocation } from '@remix-run/react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { type Availability } from '#app/.server/api.ts'
import { type action } from '#app/routes/$lang.dashboard_.availability.tsx'
import { useHydrated } from '#app/utils/hydration.ts'
import { ToastMessage } from './toaster.tsx'
import { button } from './ui/button.css.ts'
import * as styles from './availability-switch.css.ts'

export const availabilities: readonly Availability[] = ['online', 'busy', 'offline']

const isAvailability = (value: unknown): value is Availability => availabilities.includes(value as Availability)

/**
 * The member's availability in the top bar: a coloured dot and a select. It saves on change without a
 * reload, showing the choice at once; without JavaScript a button posts it and the page comes back.
 */
/** What the switch shows: the choice being saved, else what the server says. */
function useShownAvailability(availability: Availability) {
	const fetcher = useFetcher<typeof action>({ key: 'availability' })
	const chosen = fetcher.formData?.get('availability')
	return { fetcher, shown: isAvailability(chosen) ? chosen : availability }
}

/** The state's dot alone, on the account menu's button where the switch is inside the menu (a phone). */
export function AvailabilityDot({ availability }: { availability: Availability }) {
	const { shown } = useShownAvailability(availability)
	return <span className={`${styles.dot[shown]} ${styles.onButton}`} aria-hidden="true" data-availability={shown} />
}

export function AvailabilitySwitch({ id, locale, availability }: { id: string; locale: string; availability: Availability }) {
	const { t } = useTranslation()
	const hydrated = useHydrated()
	const location = useLocation()
	// While it is saved and the page's data read again, the choice; after, what the server says.
	const { fetcher, shown } = useShownAvailability(availability)
	const failed = fetcher.data && 'failed' in fetcher.data ? fetcher.data.failed : null
	// One toast for each refusal (a new answer is a new object), not one for each render.
	const refusal = useMemo(
		() => (failed ? { id: crypto.randomUUID(), type: 'error' as const, title: t('availability.failed'), description: failed } : null),
		[fetcher.data], // eslint-disable-line react-hooks/exhaustive-deps
	)
	return (
		<fetcher.Form method="post" action={`/${locale}/dashboard/availability`} className={styles.form}>
			<input type="hidden" name="redirectTo" value={location.pathname + location.search} />
			{hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
			<label htmlFor={id} className="visually-hidden">
				{t('availability.label')}
			</label>
			<span className={styles.field}>
				<span className={styles.dot[shown]} aria-hidden="true" data-availability={shown} />
				<select id={id} name="availability" value={shown} className={styles.select} onChange={(event) => fetcher.submit(event.currentTarget.form)}>
					{availabilities.map((value) => (
						<option key={value} value={value}>
							{t(`availability.${value}`)}
						</option>
					))}
				</select>
			</span>
			{hydrated ? null : (
				<button type="submit" className={button.outline}>
					{t('actions.save')}
				</button>
			)}
			<ToastMessage toast={refusal} />
		</fetcher.Form>
	)
}
