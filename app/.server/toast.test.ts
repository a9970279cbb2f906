import { describe, expect, test } from 'vitest'
import { toastCookie } from './cookies.ts'
import { toastHeaders } from './toast.ts'

describe('toastHeaders', () => {
	test('a long title naming what the user typed is shortened, whole characters kept', async () => {
		const headers = await toastHeaders({ type: 'success', title: `Deleted ${'😀'.repeat(400)}` })
		const toast = (await toastCookie.parse(headers.get('Set-Cookie')!.split(';')[0]!)) as { title: string }
		expect(toast.title.length).toBeLessThanOrEqual(300)
		expect(toast.title.endsWith('😀…')).toBe(true)
	})
})
