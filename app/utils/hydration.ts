import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/** `serverValue` in the server's HTML and during hydration, then what `read` gives in the browser. */
export function useBrowserValue<T>(read: () => T, serverValue: T): T {
	return useSyncExternalStore(subscribe, read, () => serverValue)
}

const yes = () => true

/** False in the server's HTML and during hydration, true once the browser has taken over. */
export function useHydrated(): boolean {
	return useBrowserValue(yes, false)
}
