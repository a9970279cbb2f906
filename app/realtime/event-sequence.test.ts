import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createEventSequence, type WorkspaceEventEntry } from './event-sequence.ts'

const entry = (seq: number | undefined, extra: Record<string, unknown> = {}): WorkspaceEventEntry => ({ event: 'message.created', data: { seq, ...extra } })

function sequence() {
	const delivered: Array<number | undefined> = []
	let gaps = 0
	const events = createEventSequence({ deliver: (item) => delivered.push(item.data.seq as number), gap: () => (gaps += 1), waitMs: 1000 })
	return { events, delivered, gaps: () => gaps }
}

describe('the workspace channel in order', () => {
	beforeEach(() => vi.useFakeTimers())
	afterEach(() => vi.useRealTimers())

	test('hands each event on after the one before, once; the first sets where it starts', () => {
		const { events, delivered, gaps } = sequence()
		for (const seq of [7, 8, 8, 9, 7]) events.receive(entry(seq))
		expect(delivered).toEqual([7, 8, 9])
		expect(gaps()).toBe(0)
	})

	test('one that comes early waits for those before it', () => {
		const { events, delivered, gaps } = sequence()
		events.receive(entry(1))
		events.receive(entry(3))
		events.receive(entry(4))
		expect(delivered).toEqual([1])
		vi.advanceTimersByTime(500)
		events.receive(entry(2))
		expect(delivered).toEqual([1, 2, 3, 4])
		vi.advanceTimersByTime(5000)
		expect(gaps()).toBe(0)
	})

	test('a number still missing after the wait is a gap: one reload, then on from the highest held', () => {
		const { events, delivered, gaps } = sequence()
		events.receive(entry(1))
		events.receive(entry(3))
		events.receive(entry(5))
		vi.advanceTimersByTime(999)
		expect(gaps()).toBe(0)
		vi.advanceTimersByTime(1)
		expect(gaps()).toBe(1)
		expect(delivered).toEqual([1])
		events.receive(entry(2))
		events.receive(entry(6))
		expect(delivered).toEqual([1, 6])
	})

	test('an unnumbered event, one cut for its size, or a lost connection is a gap', () => {
		const { events, delivered, gaps } = sequence()
		events.receive(entry(undefined))
		events.receive(entry(4, { cut: true }))
		expect(gaps()).toBe(2)
		events.receive(entry(10))
		events.lost()
		expect(gaps()).toBe(3)
		events.receive(entry(20))
		expect(delivered).toEqual([10, 20])
	})
})
