/** What became of one request of a load around a signal: sent before it or after, answered after it or not, its status or its error's code. */
export type Fate = { beforeSignal: boolean; answeredAfterSignal?: boolean; outcome?: number | string }

/**
 * `count` closed-loop clients, each calling `send(index, turn)` (which resolves with the answer's
 * status) again and again, recording every request's fate around a signal (a SIGTERM, say), until
 * the server refuses connections or `stop()` is called. Used by tests/api/faults-shutdown.test.ts
 * and the SIGTERM phase of bench/chaos.ts.
 */
export function signalLoad(count: number, send: (index: number, turn: number) => Promise<number>) {
	const sent: Fate[] = []
	let signalled = false
	let gone = false
	let outstanding = 0
	const loop = async (index: number) => {
		for (let turn = 0; !gone; turn++) {
			const record: Fate = { beforeSignal: !signalled }
			sent.push(record)
			outstanding++
			try {
				record.outcome = await send(index, turn)
			} catch (error) {
				record.outcome = (error as NodeJS.ErrnoException).code ?? String(error)
				if (record.outcome === 'ECONNREFUSED') gone = true
			} finally {
				outstanding--
				record.answeredAfterSignal = signalled
			}
		}
	}
	const running = Promise.all(Array.from({ length: count }, (_, index) => loop(index)))
	return {
		sent,
		/** Requests sent and not yet answered. */
		outstanding: () => outstanding,
		/** From now on, requests are sent (and answers come) after the signal. */
		signal: () => {
			signalled = true
		},
		/** Stops the loops once their requests in flight are answered. */
		stop: async () => {
			gone = true
			await running
		},
	}
}
