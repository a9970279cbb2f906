import { describe, expect, test } from 'vitest'
import { decodeCursor, encodeCursor, type ConversationCursor } from './cursor.ts'

const id = '0b6f2f5e-8a0e-4a53-9d1e-3f8e4a1b2c3d'
const encoded = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('conversation list cursors', () => {
	test.each<ConversationCursor>([
		{ sort: 'activity', key: '2026-01-02T03:04:05.123456Z', id },
		{ sort: 'created', key: '1024', id },
		{ sort: 'priority', key: '4|2026-01-02T03:04:05.000001Z', id },
	])('round trip: $sort', (cursor) => {
		const text = encodeCursor(cursor)
		expect(text).toMatch(/^[\w-]+$/)
		expect(decodeCursor(text)).toEqual(cursor)
	})

	test.each([
		['not base64url', '***'],
		['not JSON', Buffer.from('nope').toString('base64url')],
		['an unknown sort', encoded({ s: 'name', k: 'a', i: id })],
		['a bad id', encoded({ s: 'created', k: '1', i: '1' })],
		['a date without microseconds', encoded({ s: 'activity', k: '2026-01-02T03:04:05Z', i: id })],
		['a number that is not one', encoded({ s: 'created', k: '1; drop table', i: id })],
		['a priority out of range', encoded({ s: 'priority', k: '7|2026-01-02T03:04:05.000001Z', i: id })],
		['empty', ''],
	])('%s is refused', (_, text) => {
		expect(decodeCursor(text)).toBeUndefined()
	})
})
