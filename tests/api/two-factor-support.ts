import { Secret, TOTP } from 'otpauth'
import { sealCredentials } from '#api/channels/crypto.ts'
import { testDb } from './harness.ts'

/** The code an authenticator app shows for `secret`, `steps` periods of 30 s from now. */
export function totpCode(secret: string, steps = 0): string {
	return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 })
}

/**
 * Gives the user a known secret straight in the database (`on`: confirmed too, and their sessions
 * count as having passed the second factor, as turning it on from one would), as set-up would;
 * returns the secret.
 */
export async function seedTwoFactor(userId: string, key: string, options: { on: boolean }): Promise<string> {
	const secret = new Secret({ size: 20 }).base32
	await testDb()
		.updateTable('users')
		.set({ twoFactorSecret: sealCredentials({ totp: secret }, key), twoFactorEnabledAt: options.on ? new Date() : null, twoFactorLastStep: null })
		.where('id', '=', userId)
		.execute()
	if (options.on) await testDb().updateTable('sessions').set({ secondFactorAt: new Date() }).where('userId', '=', userId).execute()
	return secret
}
