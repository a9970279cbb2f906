import { describe, expect, test } from 'vitest'
import { loginPath, redirectTarget, safePath, withLocale } from './redirect.ts'

describe('safePath', () => {
	test('keeps same-site paths only', () => {
		expect(safePath('/en-us/dashboard?x=1')).toBe('/en-us/dashboard?x=1')
		expect(safePath('//evil.example/x')).toBeUndefined()
		expect(safePath('/\\evil.example')).toBeUndefined()
		expect(safePath('https://evil.example')).toBeUndefined()
		expect(safePath(['/a'])).toBeUndefined()
	})

	test('gives the path percent-encoded, fit for a Location header', () => {
		expect(safePath('/ar-eg/dashboard/contacts?search=محمد')).toBe('/ar-eg/dashboard/contacts?search=%D9%85%D8%AD%D9%85%D8%AF')
		expect(safePath('/\u202Egnp')).toBe('/%E2%80%AEgnp')
		expect(safePath('/a\r\nSet-Cookie: x=1')).toBe('/aSet-Cookie:%20x=1')
		expect(safePath('/\t/evil.example')).toBeUndefined()
		expect(safePath(`/${'a'.repeat(5000)}`)).toBeUndefined()
	})
})

describe('withLocale', () => {
	test('replaces the first segment and keeps the query', () => {
		expect(withLocale('/en-us/auth/login?redirect=%2Fx', 'ar-eg')).toBe('/ar-eg/auth/login?redirect=%2Fx')
		expect(withLocale('/en-us', 'fr-x')).toBe('/fr-x')
		expect(withLocale('/', 'fr-x')).toBe('/fr-x')
	})
})

describe('redirectTarget', () => {
	const options = { locale: 'ar-eg', allowedHosts: ['help.example.com'] }

	test('follows same-site paths and allowed hosts only', () => {
		expect(redirectTarget('/ar-eg/dashboard/contacts?q=a', options)).toBe('/ar-eg/dashboard/contacts?q=a')
		expect(redirectTarget('https://help.example.com/a?b=1', options)).toBe('https://help.example.com/a?b=1')
		expect(redirectTarget('https://HELP.example.com/', options)).toBe('https://help.example.com/')
	})

	test('anything else lands on the dashboard', () => {
		for (const target of [undefined, null, '', ['/x'], 'https://evil.example', '//evil.example', 'javascript:alert(1)', 'help.example.com', 'ftp://help.example.com/']) {
			expect(redirectTarget(target, options), String(target)).toBe('/ar-eg/dashboard')
		}
	})
})

describe('loginPath', () => {
	test('encodes the whole path with its query', () => {
		expect(loginPath('en-us', '/en-us/dashboard/contacts?q=a&b=c')).toBe('/en-us/auth/login?redirect=%2Fen-us%2Fdashboard%2Fcontacts%3Fq%3Da%26b%3Dc')
	})
})
