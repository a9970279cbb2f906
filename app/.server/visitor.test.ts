import { describe, expect, test } from 'vitest'
import { newVisitorToken, readVisitorToken, visitorCookie } from './visitor.ts'

describe('the link page visitor cookie', () => {
	test('holds a long random token, HttpOnly and SameSite=Lax for a year; Secure only when the page came over https', () => {
		const token = newVisitorToken()
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
		expect(newVisitorToken()).not.toBe(token)
		const plain = visitorCookie(new Request('http://crm.test/en-us/c/acme'), token)
		expect(plain).toBe(`crm-visitor=${token}; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax`)
		expect(visitorCookie(new Request('https://crm.test/en-us/c/acme'), token)).toContain('; Secure')
	})

	test('reads back only a token of the shape the API accepts', () => {
		const token = newVisitorToken()
		const read = (cookie: string) => readVisitorToken(new Request('http://crm.test/', { headers: { Cookie: cookie } }))
		expect(read(`other=1; crm-visitor=${token}`)).toBe(token)
		expect(read('crm-visitor=short')).toBeNull()
		expect(read(`crm-visitor=${'x'.repeat(40)}%3Cscript%3E`)).toBeNull()
		expect(read('')).toBeNull()
	})
})
