import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { throttle } from './throttle.ts'

beforeEach(() => {
	vi.useFakeTimers()
})
afterEach(() => {
	vi.useRealTimers()
})

describe('throttle', () => {
	test('runs at once, folds a burst into one trailing call, then runs at once again', () => {
		const action = vi.fn()
		const throttled = throttle(action, 1000)
		throttled()
		expect(action).toHaveBeenCalledTimes(1)
		throttled()
		throttled()
		throttled()
		expect(action).toHaveBeenCalledTimes(1)
		vi.advanceTimersByTime(999)
		expect(action).toHaveBeenCalledTimes(1)
		vi.advanceTimersByTime(1)
		expect(action).toHaveBeenCalledTimes(2)
		vi.advanceTimersByTime(5000)
		expect(action).toHaveBeenCalledTimes(2)
		throttled()
		expect(action).toHaveBeenCalledTimes(3)
	})

	test('cancel drops the pending call', () => {
		const action = vi.fn()
		const throttled = throttle(action, 1000)
		throttled()
		throttled()
		throttled.cancel()
		vi.advanceTimersByTime(2000)
		expect(action).toHaveBeenCalledTimes(1)
	})
})
