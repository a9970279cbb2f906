import { describe, expect, test } from 'vitest'
import { passwordMessages, passwordSchema } from './password.ts'

function messagesFor(password: unknown): string[] {
	const result = passwordSchema.safeParse(password)
	return result.success ? [] : result.error.issues.map((issue) => issue.message)
}

describe('the password rule', () => {
	test('a password meeting every rule passes', () => {
		expect(messagesFor('Sup3r-secret')).toEqual([])
		expect(messagesFor('aB3!aB3!')).toEqual([])
	})

	test('each rule reports its own message', () => {
		expect(messagesFor('aB3!aB3')).toEqual(['auth:password.tooShort'])
		expect(messagesFor('AB3!AB3!')).toEqual(['auth:password.lowercase'])
		expect(messagesFor('ab3!ab3!')).toEqual(['auth:password.uppercase'])
		expect(messagesFor('aBc!aBc!')).toEqual(['auth:password.number'])
		expect(messagesFor('aB3xaB3x')).toEqual(['auth:password.special'])
		expect(messagesFor(`aB3!${'x'.repeat(125)}`)).toEqual(['auth:password.tooLong'])
	})

	test('every failing rule is reported at once, in a stable order', () => {
		expect(messagesFor('')).toEqual([
			'auth:password.tooShort',
			'auth:password.lowercase',
			'auth:password.uppercase',
			'auth:password.number',
			'auth:password.special',
		])
		expect(messagesFor('abc')).toEqual(['auth:password.tooShort', 'auth:password.uppercase', 'auth:password.number', 'auth:password.special'])
		expect(passwordMessages).toHaveLength(6)
	})

	test('the limits are 8 and 128 characters, counted as the person sees them', () => {
		expect(messagesFor(`aB3!${'x'.repeat(4)}`)).toEqual([])
		expect(messagesFor(`aB3!${'x'.repeat(124)}`)).toEqual([])
		// Four emoji are eight UTF-16 units but four characters.
		expect(messagesFor('aB3😀😀😀')).toEqual(['auth:password.tooShort'])
	})

	test('letters and digits of other scripts count', () => {
		expect(messagesFor('Éléphant٣!')).toEqual([])
		expect(messagesFor('كلمةسر٣٤!Aa')).toEqual([])
		expect(messagesFor('كلمةسر٣٤!!')).toEqual(['auth:password.lowercase', 'auth:password.uppercase'])
	})

	test('a missing value is a type error, not a rule message', () => {
		expect(passwordSchema.safeParse(undefined).error?.issues[0]?.code).toBe('invalid_type')
	})
})
