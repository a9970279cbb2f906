import { useRouteLoaderData } from '@remix-run/react'
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { type InboxLoader } from '#app/routes/$lang.dashboard.conversations.tsx'
import { useDateFormat } from '#app/utils/dates.ts'
import { relativeTimeFormat } from '#app/utils/intl.ts'
import * as styles from './inbox.css.ts'

/** A contact's initial on their colour. */
export function Avatar({ name, color }: { name: string; color: string }) {
	return (
		<span className={styles.avatar} style={{ background: color }} aria-hidden="true">
			{[...name][0]?.toUpperCase()}
		</span>
	)
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
	['year', 365 * 24 * 3600],
	['month', 30 * 24 * 3600],
	['week', 7 * 24 * 3600],
	['day', 24 * 3600],
	['hour', 3600],
	['minute', 60],
]

// One clock for every relative time of the page, ticking every 30 seconds while any is shown.
let clock = Date.now()
const clockListeners = new Set<() => void>()
let ticking: ReturnType<typeof setInterval> | undefined
function subscribeClock(listener: () => void) {
	clockListeners.add(listener)
	clock = Date.now()
	ticking ??= setInterval(() => {
		clock = Date.now()
		for (const each of clockListeners) each()
	}, 30_000)
	return () => {
		clockListeners.delete(listener)
		if (clockListeners.size === 0) {
			clearInterval(ticking)
			ticking = undefined
		}
	}
}
const readClock = () => clock

/**
 * The time since `iso` ("5 minutes ago"). It counts from the server's clock of the page's load
 * until the browser has taken over, so the HTML and the first render agree, then from the browser's.
 */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
	const { i18n, t } = useTranslation('inbox', { keyPrefix: 'ui' })
	const loadedAt = useRouteLoaderData<InboxLoader>('routes/$lang.dashboard.conversations')?.now ?? 0
	const now = useSyncExternalStore(subscribeClock, readClock, () => loadedAt)
	const exact = useDateFormat({ dateStyle: 'medium', timeStyle: 'short' })
	const format = relativeTimeFormat(i18n.language)
	const seconds = Math.round((now - new Date(iso).getTime()) / 1000)
	const unit = units.find(([, size]) => Math.abs(seconds) >= size)
	return (
		<time dateTime={iso} title={exact(iso)} className={className}>
			{unit ? format.format(-Math.floor(seconds / unit[1]), unit[0]) : t('justNow')}
		</time>
	)
}
