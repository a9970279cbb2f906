import { describe, expect, test } from 'vitest'
import { localeFromAcceptLanguage, matchLocale } from './languages.ts'

describe('locale matching', () => {
	test('maps language tags to our locales', () => {
		expect(matchLocale('fr-FR')).toBe('fr-x')
		expect(matchLocale('ar')).toBe('ar-eg')
		expect(matchLocale('EN')).toBe('en-us')
		expect(matchLocale('fr-x')).toBe('fr-x')
		expect(matchLocale('de-DE')).toBeUndefined()
	})

	test('honours q-values and order in Accept-Language', () => {
		expect(localeFromAcceptLanguage('de-DE,de;q=0.9,fr;q=0.8,en;q=0.7')).toBe('fr-x')
		expect(localeFromAcceptLanguage('en;q=0.5, ar;q=0.9')).toBe('ar-eg')
		expect(localeFromAcceptLanguage('de, *;q=0.1')).toBeUndefined()
		expect(localeFromAcceptLanguage('')).toBeUndefined()
		expect(localeFromAcceptLanguage('fr;q=0')).toBeUndefined()
	})
})
