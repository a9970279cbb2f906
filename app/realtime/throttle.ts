export type Throttled = (() => void) & { cancel: () => void }

/**
 * Calls `action` at once, then at most once per `intervalMs`: calls in between are folded into
 * one at the end of the interval, so the last change is never missed.
 */
export function throttle(action: () => void, intervalMs: number): Throttled {
	let last = -Infinity
	let timer: ReturnType<typeof setTimeout> | undefined
	const run = () => {
		timer = undefined
		last = Date.now()
		action()
	}
	const throttled = () => {
		if (timer !== undefined) return
		const wait = last + intervalMs - Date.now()
		if (wait <= 0) run()
		else timer = setTimeout(run, wait)
	}
	throttled.cancel = () => {
		clearTimeout(timer)
		timer = undefined
	}
	return throttled
}
