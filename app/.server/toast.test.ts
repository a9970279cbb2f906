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

	test('a toast of long text of three bytes a character is shortened until its cookie fits a browser (4 096 bytes), and still reads back', async () => {
		// A contact named in Chinese, in an Arabic sentence: within the schema's lengths, about 5 KB as a cookie.
		const headers = await toastHeaders({ type: 'error', title: `لم يُحذف ${'陈伟明'.repeat(100)}`, description: `تعذّر الحفظ ${'张秀英'.repeat(330)}` })
		const cookie = headers.get('Set-Cookie')!
		expect(Buffer.byteLength(cookie)).toBeLessThanOrEqual(4096)
		const toast = (await toastCookie.parse(cookie.split(';')[0]!)) as { title: string; description: string }
		expect(toast.title.startsWith('لم يُحذف 陈伟明')).toBe(true)
		expect(toast.description.startsWith('تعذّر الحفظ')).toBe(true)
		expect(toast.description.endsWith('…')).toBe(true)
	})
})
