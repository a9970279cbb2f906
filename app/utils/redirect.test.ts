import { describe, expect, test } from 'vitest'
import { safePath, withLocale } from './redirect.ts'

describe('safePath', () => {
	test('keeps same-site paths only', () => {
		expect(safePath('/en-us/dashboard?x=1')).toBe('/en-us/dashboard?x=1')
		expect(safePath('//evil.example/x')).toBeUndefined()
		expect(safePath('/\\evil.example')).toBeUndefined()
		expect(safePath('https://evil.example')).toBeUndefined()
		expect(safePath(['/a'])).toBeUndefined()
	})
})

describe('withLocale', () => {
	test('replaces the first segment and keeps the query', () => {
		expect(withLocale('/en-us/auth/login?redirect=%2Fx', 'ar-eg')).toBe('/ar-eg/auth/login?redirect=%2Fx')
		expect(withLocale('/en-us', 'fr-x')).toBe('/fr-x')
		expect(withLocale('/', 'fr-x')).toBe('/fr-x')
	})
})
