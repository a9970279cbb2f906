import { describe, expect, test } from 'vitest'
import { checkPassword, dummyPasswordHash, hashPassword } from './password.ts'

// The parameters part of a PHC string: `$argon2id$v=19$m=19456,t=2,p=1$…`.
const parameters = (hash: string) => hash.split('$').slice(1, 4).join('$')

describe('checkPassword', () => {
	test('accepts the right password and refuses a wrong one', async () => {
		const hash = await hashPassword('Corr3ct-horse!')
		expect(await checkPassword(hash, 'Corr3ct-horse!')).toBe(true)
		expect(await checkPassword(hash, 'Wrong-horse!1')).toBe(false)
	})

	test('an unknown address is refused after a full check against a hash like every real one', async () => {
		const real = await hashPassword('Corr3ct-horse!')
		const dummy = await dummyPasswordHash()
		expect(parameters(dummy)).toBe(parameters(real))
		expect(parameters(dummy)).toBe('argon2id$v=19$m=19456,t=2,p=1')
		expect(await checkPassword(undefined, 'Corr3ct-horse!')).toBe(false)
	})
})
