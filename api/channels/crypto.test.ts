import { describe, expect, test } from 'vitest'
import { maskSecret, openCredentials, sealCredentials } from './crypto.ts'

const key = 'k'.repeat(40)

describe('channel credentials at rest', () => {
	test('open what was sealed; the text shows none of it and differs each time', () => {
		const credentials = { botToken: '123456:ABC-secret-token' }
		const sealed = sealCredentials(credentials, key)
		expect(sealed).not.toContain('secret')
		expect(sealed).not.toBe(sealCredentials(credentials, key))
		expect(openCredentials(sealed, key)).toEqual(credentials)
	})

	test('a changed byte or another key is refused, never decrypted to something else', () => {
		const sealed = sealCredentials({ botToken: 'token' }, key)
		const [version, iv, tag, body] = sealed.split('.')
		const flipped = Buffer.from(body!, 'base64url')
		flipped[0] = flipped[0]! ^ 1
		expect(() => openCredentials([version, iv, tag, flipped.toString('base64url')].join('.'), key)).toThrow()
		expect(() => openCredentials(sealed, 'x'.repeat(40))).toThrow()
		expect(() => openCredentials('plain text', key)).toThrow('not in a known format')
	})

	test('masks all but the last four characters', () => {
		expect(maskSecret('123456:ABCDEFGHIJ')).toBe('••••GHIJ')
		expect(maskSecret('short')).toBe('••••')
	})
})
