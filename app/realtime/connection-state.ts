/** The realtime connection's state, as pusher-js names it ('off' until the browser connects). */
export type ConnectionState = 'off' | 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'failed' | 'disconnected'

let state: ConnectionState = 'off'
const listeners = new Set<() => void>()

export function connectionState(): ConnectionState {
	return state
}

/** Records a new state: on `<html data-realtime>` for styles and tests, and for the indicator. */
export function setConnectionState(next: ConnectionState) {
	state = next
	if (typeof document !== 'undefined') document.documentElement.dataset.realtime = next
	for (const listener of listeners) listener()
}

export function subscribeToConnectionState(listener: () => void): () => void {
	listeners.add(listener)
	return () => listeners.delete(listener)
}
