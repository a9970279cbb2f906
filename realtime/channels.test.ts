import { describe, expect, it } from 'vitest'
import { ChannelRegistry, channelKind, isCacheChannel, isValidChannelName, parsePresenceMember } from './channels.ts'
import { TokenBucket } from './rate-limit.ts'

describe('channel names', () => {
	it('classifies channels by prefix', () => {
		expect(channelKind('orders')).toBe('public')
		expect(channelKind('private-orders')).toBe('private')
		expect(channelKind('private-encrypted-orders')).toBe('encrypted')
		expect(channelKind('presence-orders')).toBe('presence')
		expect(channelKind('#server-to-user-1')).toBe('user')
		expect(['cache-a', 'private-cache-a', 'presence-cache-a', 'private-encrypted-cache-a'].every(isCacheChannel)).toBe(true)
		expect(isCacheChannel('private-a-cache-b')).toBe(false)
	})

	it('validates names like the official SDK does', () => {
		expect(isValidChannelName('a-Z_0=@,.;')).toBe(true)
		expect(isValidChannelName('with space')).toBe(false)
		expect(isValidChannelName('')).toBe(false)
		expect(isValidChannelName('x'.repeat(201))).toBe(false)
		expect(isValidChannelName('#server-to-user-')).toBe(false)
		expect(isValidChannelName('#other')).toBe(false)
	})

	it('parses presence channel_data', () => {
		expect(parsePresenceMember('{"user_id":"u","user_info":{"a":1}}')).toEqual({ user_id: 'u', user_info: { a: 1 } })
		expect(parsePresenceMember('{"user_id":5}')).toEqual({ user_id: '5', user_info: undefined })
		expect(parsePresenceMember('{"user_id":""}')).toBeUndefined()
		expect(parsePresenceMember('[1]')).toBeUndefined()
		expect(parsePresenceMember('nope')).toBeUndefined()
	})
})

describe('ChannelRegistry', () => {
	it('counts presence users once across their sockets', () => {
		const registry = new ChannelRegistry()
		expect(registry.join('presence-a', 's1', { user_id: 'u' })).toEqual({ ok: true, subscriptionCount: 1, memberAdded: true })
		expect(registry.join('presence-a', 's2', { user_id: 'u' })).toEqual({ ok: true, subscriptionCount: 2, memberAdded: false })
		expect(registry.userCount('presence-a')).toBe(1)
		expect(registry.leave('presence-a', 's1').memberRemoved).toBeUndefined()
		expect(registry.leave('presence-a', 's2').memberRemoved).toEqual({ user_id: 'u' })
		expect(registry.leave('presence-a', 's2').left).toBe(false)
		expect([...registry.names()]).toEqual([])
	})

	it('refuses new users beyond the member limit but admits more sockets of present users', () => {
		const registry = new ChannelRegistry()
		registry.join('presence-a', 's1', { user_id: 'u1' }, 1)
		expect(registry.join('presence-a', 's2', { user_id: 'u2' }, 1)).toEqual({ ok: false, reason: 'presence_limit' })
		expect(registry.join('presence-a', 's3', { user_id: 'u1' }, 1).ok).toBe(true)
	})
})

describe('TokenBucket', () => {
	it('allows a burst up to capacity and refills over time', () => {
		let now = 0
		const bucket = new TokenBucket(10, 10, () => now)
		expect(Array.from({ length: 11 }, () => bucket.take())).toEqual([...Array<boolean>(10).fill(true), false])
		now += 100
		expect(bucket.take()).toBe(true)
		expect(bucket.take()).toBe(false)
	})
})
