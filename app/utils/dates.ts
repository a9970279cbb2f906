import { useRouteLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { DashboardLoader } from '#app/routes/$lang.dashboard.tsx'
import { dateTimeFormat } from './intl.ts'

/**
 * Dates in the current language and in the workspace's time zone: the server's HTML and the
 * browser then agree (the browser's own zone would change the day near midnight).
 */
export function useDateFormat(options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) {
	const { i18n } = useTranslation()
	const timeZone = useRouteLoaderData<DashboardLoader>('routes/$lang.dashboard')?.user?.workspace?.timezone ?? 'UTC'
	const { dateStyle, timeStyle } = options
	return useMemo(() => {
		const format = dateTimeFormat(i18n.language, { dateStyle, timeStyle, timeZone })
		return (iso: string) => format.format(new Date(iso))
	}, [i18n.language, dateStyle, timeStyle, timeZone])
}
