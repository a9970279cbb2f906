import { describe, expect, test } from 'vitest'
import { isOptOut } from './opt-out.ts'

describe('opt-out words', () => {
	test('the word alone, in any case, with or without its accent or a full stop', () => {
		for (const body of ['STOP', 'stop', ' Stop. ', 'ARRÊT', 'arrêt', 'Arret!', 'إلغاء', 'الغاء']) expect(isOptOut(body), body).toBe(true)
	})

	test('a sentence that contains the word is no opt-out', () => {
		for (const body of ['please stop', 'STOPPED', 'arrêtez', '', 'إلغاء الطلب']) expect(isOptOut(body), body).toBe(false)
	})

	test('the configured words replace the defaults', () => {
		expect(isOptOut('UNSUBSCRIBE', ['unsubscribe'])).toBe(true)
		expect(isOptOut('STOP', ['unsubscribe'])).toBe(false)
	})
})
