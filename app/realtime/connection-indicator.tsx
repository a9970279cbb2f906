import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { connectionState, subscribeToConnectionState, type ConnectionState } from './connection-state.ts'
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

/** A dot and a word in the top bar: live updates on, reconnecting, or off. Nothing without JavaScript. */
export function ConnectionIndicator() {
	const { t } = useTranslation()
	const state = useSyncExternalStore(subscribeToConnectionState, connectionState, serverState)
	const shown = tone[state]
	if (!shown) return null
	return (
		<span className={styles.indicator} data-tone={shown} role="status" title={t(`realtime.${shown}Hint`)}>
			<span className={styles.dot} aria-hidden="true" />
			{t(`realtime.${shown}`)}
		</span>
	)
}
