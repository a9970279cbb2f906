import { describe, expect, test } from 'vitest'
import { formatFileSize, relativeTimeFormat } from './intl.ts'

// Intl separates numbers and units with no-break spaces, which the languages' typography wants.
const spaced = (text: string) => text.replace(/\s/gu, ' ')

describe('the reader’s words for sizes and times', () => {
	test('a size in bytes has its plural in every language; larger ones the short unit', () => {
		expect(spaced(formatFileSize('en-US', 29))).toBe('29 bytes')
		expect(spaced(formatFileSize('en-US', 1))).toBe('1 byte')
		expect(spaced(formatFileSize('fr', 29))).toBe('29 octets')
		expect(spaced(formatFileSize('ar-EG', 29))).toBe('٢٩ بايت')
		expect(spaced(formatFileSize('en-US', 14_200))).toBe('14.2 kB')
	})

	test('a time ago reads as words, not as a negative number', () => {
		expect(spaced(relativeTimeFormat('fr').format(-3, 'minute'))).toBe('il y a 3 min')
		expect(spaced(relativeTimeFormat('fr').format(-2, 'hour'))).toBe('il y a 2 h')
		expect(spaced(relativeTimeFormat('en-US').format(-3, 'minute'))).toBe('3 min. ago')
		expect(spaced(relativeTimeFormat('ar-EG').format(-3, 'minute'))).toBe('قبل ٣ دقائق')
		expect(spaced(relativeTimeFormat('fr').format(-1, 'day'))).toBe('hier')
	})
})
