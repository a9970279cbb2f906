import { describe, expect, test } from 'vitest'
import { decodeCursor, encodeCursor, type Cursor } from './cursor.ts'

const id = '0b6f2f5e-8a0e-4a53-9d1e-3f8e4a1b2c3d'

describe('contact list cursors', () => {
	test.each<Cursor>([
		{ sort: 'name', direction: 'asc', key: 'محمد علي', id, narrow: false },
		{ sort: 'created', direction: 'desc', key: '2026-01-02T03:04:05.123456Z', id, narrow: true },
		{ sort: 'activity', direction: 'asc', key: '2026-01-02T03:04:05.000001Z', id, narrow: false },
	])('round trip: $sort $direction', (cursor) => {
		const text = encodeCursor(cursor)
		expect(text).toMatch(/^[\w-]+$/)
		expect(decodeCursor(text)).toEqual(cursor)
	})

	test.each([
		['not base64url', '***'],
		['not JSON', Buffer.from('nope').toString('base64url')],
		['another shape', Buffer.from(JSON.stringify({ page: 2 })).toString('base64url')],
		['an unknown sort', Buffer.from(JSON.stringify({ s: 'email', d: 'asc', k: 'a', i: id })).toString('base64url')],
		['a bad id', Buffer.from(JSON.stringify({ s: 'name', d: 'asc', k: 'a', i: '1' })).toString('base64url')],
		['a date without microseconds', Buffer.from(JSON.stringify({ s: 'created', d: 'asc', k: '2026-01-02T03:04:05Z', i: id })).toString('base64url')],
		['empty', ''],
	])('%s is refused', (_, text) => {
		expect(decodeCursor(text)).toBeUndefined()
	})
})
