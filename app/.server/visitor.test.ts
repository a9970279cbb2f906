import { describe, expect, test } from 'vitest'
import { ApiError } from './api-client.ts'
import { newVisitorToken, readVisitorToken, visitorCookie, visitorFormReply } from './visitor.ts'

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

describe('the link page form after a refused message', () => {
	test('whatever the status, the API’s words come back with what the visitor typed; what is no API answer is rethrown', () => {
		const values = { body: 'Where is my parcel?', name: 'Salma', email: '' }
		const away = new ApiError('The database is not answering right now. Please try again in a few seconds.', '/v1/link/acme/messages', 503, null)
		expect(visitorFormReply(away, values)).toEqual({ reply: { fieldErrors: {}, formError: away.message, values }, status: 503 })
		const invalid = new ApiError('Some fields are not valid.', '/v1/link/acme/messages', 400, { details: { fields: { email: ['Not an e-mail address.'] } } })
		expect(visitorFormReply(invalid, values)).toEqual({ reply: { fieldErrors: { email: ['Not an e-mail address.'] }, formError: null, values }, status: 400 })
		const bug = new TypeError('fetch failed')
		expect(() => visitorFormReply(bug, values)).toThrow(bug)
	})
})
