import { describe, expect, test } from 'vitest'
import { byDay, inboxQuery, selectedNumber, snoozeUntil, tokenBeforeCaret, withParams, zonedTime, type Message } from './conversations.ts'

describe('the inbox URL', () => {
	test('unknown values fall back to the defaults; a member id is a valid assignee', () => {
		expect(inboxQuery(new URLSearchParams('status=closed&assignee=bob&sort=name&priority=huge'))).toMatchObject({
			status: 'open',
			assignee: 'all',
			sort: 'activity',
			priority: '',
		})
		const id = '0b7c6f5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f'
		expect(inboxQuery(new URLSearchParams(`status=snoozed&assignee=${id}&priority=urgent`))).toMatchObject({
			status: 'snoozed',
			assignee: id,
			priority: 'urgent',
		})
	})

	test('only a positive whole number selects a conversation', () => {
		expect(selectedNumber(new URLSearchParams('conversation=1024'))).toBe(1024)
		for (const bad of ['0', '-1', '1.5', 'abc', '', '12345678901']) expect(selectedNumber(new URLSearchParams(`conversation=${bad}`))).toBeNull()
	})

	test('links keep the filters and drop what is emptied', () => {
		expect(withParams('/en-us/dashboard/conversations', '?status=pending&search=x', { conversation: 7, search: null })).toBe(
			'/en-us/dashboard/conversations?status=pending&conversation=7',
		)
	})
})

describe('time zones', () => {
	test('a wall time in a zone is the right instant, on both sides of a change of offset', () => {
		expect(zonedTime('2026-07-01T09:00', 'Europe/Paris')?.toISOString()).toBe('2026-07-01T07:00:00.000Z')
		expect(zonedTime('2026-12-01T09:00', 'Europe/Paris')?.toISOString()).toBe('2026-12-01T08:00:00.000Z')
		expect(zonedTime('2026-12-01T09:00', 'Africa/Cairo')?.toISOString()).toBe('2026-12-01T07:00:00.000Z')
		expect(zonedTime('tomorrow', 'UTC')).toBeNull()
	})

	test('snoozes end in an hour, tomorrow at nine, or next Monday at nine, in the workspace’s zone', () => {
		// A Wednesday, late evening in Cairo (UTC+2): already Thursday there.
		const now = new Date('2026-11-25T22:30:00Z')
		expect(snoozeUntil('hour', 'Africa/Cairo', now).toISOString()).toBe('2026-11-25T23:30:00.000Z')
		expect(snoozeUntil('tomorrow', 'Africa/Cairo', now).toISOString()).toBe('2026-11-27T07:00:00.000Z')
		expect(snoozeUntil('week', 'Africa/Cairo', now).toISOString()).toBe('2026-11-30T07:00:00.000Z')
		// On a Monday, next week is the Monday after.
		expect(snoozeUntil('week', 'UTC', new Date('2026-11-30T10:00:00Z')).toISOString()).toBe('2026-12-07T09:00:00.000Z')
	})

	test('messages are grouped by the day of the workspace’s zone', () => {
		const at = (createdAt: string) => ({ id: createdAt, createdAt }) as Message
		const days = byDay([at('2026-11-24T21:30:00Z'), at('2026-11-24T22:30:00Z'), at('2026-11-25T08:00:00Z')], 'Africa/Cairo')
		expect(days.map((day) => [day.day, day.messages.length])).toEqual([
			['2026-11-24', 1],
			['2026-11-25', 2],
		])
	})
})

describe('the composer’s menus', () => {
	test('`/` at the start of a line and `@` after a space open them, with what follows as the search', () => {
		expect(tokenBeforeCaret('/thank', 6, '/')).toEqual({ start: 0, query: 'thank' })
		expect(tokenBeforeCaret('hello\n/ref', 10, '/')).toEqual({ start: 6, query: 'ref' })
		expect(tokenBeforeCaret('and/or', 6, '/')).toBeNull()
		expect(tokenBeforeCaret('ask @Ami', 8, '@')).toEqual({ start: 4, query: 'Ami' })
		expect(tokenBeforeCaret('mail a@b', 8, '@')).toBeNull()
		expect(tokenBeforeCaret('@أمير', 5, '@')).toEqual({ start: 0, query: 'أمير' })
	})
})
