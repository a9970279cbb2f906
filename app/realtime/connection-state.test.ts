import { describe, expect, test } from 'vitest'
import { livePaused, setConnectionState } from './connection-state.ts'

describe('livePaused', () => {
	test('is false while the first connection is made, true once a made connection is lost, false again when it is back', () => {
		setConnectionState('connecting')
		expect(livePaused()).toBe(false)
		setConnectionState('connected')
		expect(livePaused()).toBe(false)
		// The server went away: pusher-js tries again (connecting), then says unavailable.
		setConnectionState('connecting')
		expect(livePaused()).toBe(true)
		setConnectionState('unavailable')
		expect(livePaused()).toBe(true)
		setConnectionState('connected')
		expect(livePaused()).toBe(false)
	})
})
