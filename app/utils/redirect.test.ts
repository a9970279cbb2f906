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
		// Found by the form fuzz: a host the URL parser refuses threw (a 500) rather than being refused.
		expect(safePath("/\t/evil.example' OR '1'='1")).toBeUndefined()
		expect(safePath('//[bad')).toBeUndefined()
	})

	// Each of these reads `//evil.example` (another site) once the browser has resolved it.
	test('refuses what resolves to another site, however it is written', () => {
		for (const target of [
			'/.//evil.example/phish',
			'/..//evil.example',
			'/./\\evil.example',
			'/../\\evil.example',
			'/%2e%2e//evil.example',
			'/%2E//evil.example',
			'/.%2e//evil.example',
			'/a/../..//evil.example',
			'/\\evil.example',
			'/\t/evil.example',
			'/\n/evil.example',
			'/\r\n/evil.example',
			'/\t\\evil.example',
			'\\\\evil.example',
			'\\/evil.example',
			'%2F%2Fevil.example',
			'https:evil.example',
			'https://evil.example',
			'http:evil.example',
			'//evil.example',
			'///evil.example',
			' //evil.example',
			'javascript:alert(1)',
			'JavaScript:alert(1)',
			'data:text/html,x',
			'',
		]) {
			expect(safePath(target), JSON.stringify(target)).toBeUndefined()
		}
	})

	test('keeps a resolved path that stays here, with its query and hash', () => {
		expect(safePath('/en-us/dashboard/contacts?search=a%20b&page=2#row-3')).toBe('/en-us/dashboard/contacts?search=a%20b&page=2#row-3')
		expect(safePath('/en-us/./dashboard/../dashboard/profile?tab=1')).toBe('/en-us/dashboard/profile?tab=1')
		expect(safePath('/fr-x/dashboard?redirect=//evil.example')).toBe('/fr-x/dashboard?redirect=//evil.example')
		// Encoded slashes and a tab stay encoded: the browser asks this site for that path.
		expect(safePath('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example')
		expect(safePath('/%09/evil')).toBe('/%09/evil')
		expect(safePath('/')).toBe('/')
		// What it gives back reads the same when checked again.
		for (const target of ['/ar-eg/dashboard/contacts?search=محمد', '/a\\b', '/%2F%2Fevil.example', '/x#//evil.example']) {
			const path = safePath(target)!
			expect(safePath(path), target).toBe(path)
		}
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
		for (const target of [
			undefined,
			null,
			'',
			['/x'],
			'https://evil.example',
			'//evil.example',
			'javascript:alert(1)',
			'help.example.com',
			'ftp://help.example.com/',
		]) {
			expect(redirectTarget(target, options), String(target)).toBe('/ar-eg/dashboard')
		}
	})

	test('a path that resolves to another site lands on the dashboard too, an allowed host still is followed', () => {
		for (const target of [
			'/.//evil.example/phish',
			'/..//evil.example',
			'/./\\evil.example',
			'/%2e%2e//evil.example',
			'/\t/evil.example',
			'https:evil.example',
			'\\\\evil.example',
		]) {
			expect(redirectTarget(target, options), target).toBe('/ar-eg/dashboard')
		}
		expect(redirectTarget('https:help.example.com/a', options)).toBe('https://help.example.com/a')
		expect(redirectTarget('/ar-eg/./dashboard/profile?tab=1#two-factor', options)).toBe('/ar-eg/dashboard/profile?tab=1#two-factor')
	})
})

describe('loginPath', () => {
	test('encodes the whole path with its query', () => {
		expect(loginPath('en-us', '/en-us/dashboard/contacts?q=a&b=c')).toBe('/en-us/auth/login?redirect=%2Fen-us%2Fdashboard%2Fcontacts%3Fq%3Da%26b%3Dc')
	})
})
