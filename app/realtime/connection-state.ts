/** The realtime connection's state, as pusher-js names it ('off' until the browser connects). */
export type ConnectionState = 'off' | 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'failed' | 'disconnected'

let state: ConnectionState = 'off'
let connectedOnce = false
const listeners = new Set<() => void>()

export function connectionState(): ConnectionState {
	return state
}

/**
 * Whether live updates are paused: the connection was up and is not any more (pusher-js says
 * `connecting` while it tries again, `unavailable` after 10 s of trying), or it never came up.
 * The page still works; it just is not told of changes until the connection is back.
 */
export function livePaused(): boolean {
	if (state === 'unavailable' || state === 'failed' || state === 'disconnected') return true
	return state === 'connecting' && connectedOnce
}

/** Records a new state: on `<html data-realtime>` for styles and tests, and for the indicator and the banner. */
export function setConnectionState(next: ConnectionState) {
	state = next
	if (next === 'connected') connectedOnce = true
	if (typeof document !== 'undefined') document.documentElement.dataset.realtime = next
	for (const listener of listeners) listener()
}

export function subscribeToConnectionState(listener: () => void): () => void {
	listeners.add(listener)
	return () => listeners.delete(listener)
}
