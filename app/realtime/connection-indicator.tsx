import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { connectionState, livePaused, subscribeToConnectionState, type ConnectionState } from './connection-state.ts'
import * as styles from './connection-indicator.css.ts'

const tone: Record<ConnectionState, 'live' | 'waiting' | 'down' | null> = {
	off: null,
	initialized: 'waiting',
	connecting: 'waiting',
	connected: 'live',
	unavailable: 'down',
	failed: 'down',
	disconnected: 'down',
}

const serverState = (): ConnectionState => 'off'
const notPaused = () => false

/** A dot and a word in the top bar: live updates on, reconnecting, or off. Nothing without JavaScript. */
export function ConnectionIndicator() {
	const { t } = useTranslation()
	const state = useSyncExternalStore(subscribeToConnectionState, connectionState, serverState)
	const paused = useSyncExternalStore(subscribeToConnectionState, livePaused, notPaused)
	const shown = paused ? 'down' : tone[state]
	if (!shown) return null
	return (
		<span className={styles.indicator} data-tone={shown} role="status" title={t(`realtime.${shown}Hint`)}>
			<span className={styles.dot} aria-hidden="true" />
			{t(`realtime.${shown}`)}
		</span>
	)
}

/**
 * A quiet line above the page while the connection is lost (the top bar's indicator, a live
 * region, announces it): the page keeps working (forms, links), it only is not told of others'
 * changes. When the connection is back, the channels are subscribed again and the page's data
 * revalidated (use-workspace-events.ts), and the line goes.
 */
export function LiveUpdatesPaused() {
	const { t } = useTranslation()
	const paused = useSyncExternalStore(subscribeToConnectionState, livePaused, notPaused)
	if (!paused) return null
	return (
		<p className={styles.paused}>
			<strong className={styles.pausedTitle}>{t('realtime.paused')}</strong> {t('realtime.pausedHint')}
		</p>
	)
}
