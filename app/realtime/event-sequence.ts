/**
 * The workspace channel's events in their order (api/realtime/workspace-events.ts numbers them
 * from PostgreSQL): each one is handed on after the one before it. One that comes early (two app
 * processes published at the same moment) waits for those before it for `waitMs`; a number still
 * missing then, an unnumbered event or one cut for its size, is a gap: the page reloads once.
 */
export type WorkspaceEventEntry = { event: string; data: Record<string, unknown> }

export type EventSequence = {
	receive: (entry: WorkspaceEventEntry) => void
	/** The connection was lost and is back: what was missed is unknown. */
	lost: () => void
	stop: () => void
}

export function createEventSequence(options: { deliver: (entry: WorkspaceEventEntry) => void; gap: () => void; waitMs?: number }): EventSequence {
	const { deliver, gap } = options
	const waitMs = options.waitMs ?? 1000
	let last: number | undefined
	const early = new Map<number, WorkspaceEventEntry>()
	let timer: ReturnType<typeof setTimeout> | undefined

	function clearTimer() {
		clearTimeout(timer)
		timer = undefined
	}

	function drain() {
		while (last !== undefined && early.has(last + 1)) {
			last += 1
			const entry = early.get(last)!
			early.delete(last)
			deliver(entry)
		}
		if (early.size === 0) clearTimer()
		else timer ??= setTimeout(giveUp, waitMs)
	}

	// The missing ones are not coming: the page reloads, and goes on from the highest number it holds.
	function giveUp() {
		timer = undefined
		last = Math.max(...early.keys())
		early.clear()
		gap()
	}

	return {
		receive(entry) {
			const { seq } = entry.data
			if (typeof seq !== 'number' || entry.data.cut) {
				gap()
				return
			}
			if (last === undefined) last = seq - 1
			if (seq <= last || early.has(seq)) return
			early.set(seq, entry)
			drain()
		},
		lost() {
			clearTimer()
			early.clear()
			last = undefined
			gap()
		},
		stop: clearTimer,
	}
}
