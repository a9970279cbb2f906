import { createCookie } from '@remix-run/node'
import { describe, expect, test } from 'vitest'
import { localeCookie } from './cookies.ts'
import { preferredLocale } from './preferences.ts'

describe('the locale cookie (i18n_redirected)', () => {
	test("is written as the plain code, as the specification's client writes it", () => {
		const header = localeCookie.serialize('ar-eg')
		expect(header).toMatch(/^i18n_redirected=ar-eg; Max-Age=31536000; Path=\/; SameSite=Lax/)
		expect(localeCookie.parse('i18n_redirected=ar-eg')).toBe('ar-eg')
		expect(localeCookie.parse('theme=x; i18n_redirected=fr-x; other=1')).toBe('fr-x')
	})

	test('the encoded form an earlier version wrote is still read', async () => {
		const old = createCookie('i18n_redirected', { path: '/', sameSite: 'lax' })
		const header = (await old.serialize('fr-x')).split(';')[0] ?? ''
		expect(header).not.toBe('i18n_redirected=fr-x')
		expect(localeCookie.parse(header)).toBe('fr-x')
	})

	test('anything else is no choice', async () => {
		const old = createCookie('i18n_redirected')
		for (const header of [
			null,
			'',
			'i18n_redirected=de-de',
			'i18n_redirected=%%%',
			`${(await old.serialize('de-de')).split(';')[0]}`,
			'i18n_redirected=bnVsbA==',
		]) {
			expect(localeCookie.parse(header)).toBeNull()
		}
	})

	test('a path without a locale takes the cookie, then the browser languages, then en-us', () => {
		const request = (headers: Record<string, string>) => new Request('http://localhost/dashboard', { headers })
		expect(preferredLocale(request({ Cookie: 'i18n_redirected=ar-eg', 'Accept-Language': 'fr-FR' }))).toBe('ar-eg')
		expect(preferredLocale(request({ Cookie: 'i18n_redirected=xx', 'Accept-Language': 'fr-FR' }))).toBe('fr-x')
		expect(preferredLocale(request({}))).toBe('en-us')
	})
})
