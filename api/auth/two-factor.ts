import crypto from 'node:crypto'
import { type Kysely } from 'kysely'
import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import { openCredentials, sealCredentials } from '#api/channels/crypto.ts'
import { type DB } from '#api/db/database.ts'
import { type Database, type User } from '#api/db/schema.ts'
import { hashToken, newToken } from './tokens.ts'

/** How long the login's second step waits for a code after the password was right. */
export const challengeLifetime = 5 * 60 * 1000
/** How many recovery codes a user gets, each good once. */
export const recoveryCodeCount = 10
const period = 30
// One step either side: a phone's clock a little off, or a code typed as it changed.
const window = 1

function totpOf(secret: string, label?: string, issuer?: string): TOTP {
	return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period, secret: Secret.fromBase32(secret) })
}

/** The issuer an authenticator app shows: this installation's host (several installs stay apart). */
export function issuerOf(publicUrl: string): string {
	return new URL(publicUrl).host
}

/** A new secret, sealed for the database, with what the user scans or types (shown once). */
export async function newTwoFactorSecret(user: Pick<User, 'email'>, options: { issuer: string; key: string }) {
	const secret = new Secret({ size: 20 }).base32
	const uri = totpOf(secret, user.email, options.issuer).toString()
	const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
	return { secret, uri, qrSvg, sealed: sealCredentials({ totp: secret }, options.key) }
}

// A secret sealed under another ENCRYPTION_KEY opens to nothing: no code matches it (docs/decisions/017-two-step-sign-in.md).
function secretOf(user: Pick<User, 'twoFactorSecret'>, key: string): string | undefined {
	if (!user.twoFactorSecret) return undefined
	try {
		return openCredentials(user.twoFactorSecret, key).totp
	} catch {
		return undefined
	}
}

/** Six digits, spaces and dashes dropped (`123 456` as apps show it). */
export function normalizeCode(code: string): string {
	return code.replace(/[\s-]/g, '')
}

/**
 * Accepts a TOTP code once: the step it belongs to must be later than the last one accepted, and
 * the update that records it is the check, so two requests racing with one code cannot both pass.
 */
export async function acceptTotp(db: Kysely<Database>, user: Pick<User, 'id' | 'twoFactorSecret'>, code: string, key: string): Promise<boolean> {
	const secret = secretOf(user, key)
	const token = normalizeCode(code)
	if (!secret || !/^\d{6}$/.test(token)) return false
	const now = Date.now()
	const delta = totpOf(secret).validate({ token, timestamp: now, window })
	if (delta === null) return false
	const step = Math.floor(now / 1000 / period) + delta
	const recorded = await db
		.updateTable('users')
		.set({ twoFactorLastStep: step })
		.where('id', '=', user.id)
		.where((eb) => eb.or([eb('twoFactorLastStep', 'is', null), eb('twoFactorLastStep', '<', step)]))
		.executeTakeFirst()
	return Number(recorded.numUpdatedRows) > 0
}

// Lower-case letters and digits without look-alikes (0/o, 1/l/i): 31 signs, about 49 bits in ten.
const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'

function newRecoveryCode(): string {
	const chars = Array.from({ length: 10 }, () => alphabet[crypto.randomInt(alphabet.length)])
	return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`
}

/** What is stored for a recovery code: an HMAC under ENCRYPTION_KEY, so the table alone gives no code away. */
function recoveryHash(code: string, key: string): string {
	const normalized = code.toLowerCase().replace(/[^a-z0-9]/g, '')
	return crypto.createHmac('sha256', `crm recovery codes:${key}`).update(normalized).digest('hex')
}

/** Ten fresh recovery codes for the user, replacing every earlier one. Returns them; only their hashes are kept. */
export async function replaceRecoveryCodes(db: Kysely<Database>, userId: string, key: string): Promise<string[]> {
	const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode)
	await db.deleteFrom('twoFactorRecoveryCodes').where('userId', '=', userId).execute()
	await db
		.insertInto('twoFactorRecoveryCodes')
		.values(codes.map((code) => ({ userId, codeHash: recoveryHash(code, key) })))
		.execute()
	return codes
}

/** Uses up one of the user's recovery codes in one statement: true once, false ever after. */
export async function spendRecoveryCode(db: Kysely<Database>, userId: string, code: string, key: string): Promise<boolean> {
	const used = await db
		.updateTable('twoFactorRecoveryCodes')
		.set({ usedAt: new Date() })
		.where('userId', '=', userId)
		.where('codeHash', '=', recoveryHash(code, key))
		.where('usedAt', 'is', null)
		.executeTakeFirst()
	return Number(used.numUpdatedRows) > 0
}

export async function recoveryCodesLeft(db: DB, userId: string): Promise<number> {
	const row = await db
		.selectFrom('twoFactorRecoveryCodes')
		.select((eb) => eb.fn.countAll<string>().as('left'))
		.where('userId', '=', userId)
		.where('usedAt', 'is', null)
		.executeTakeFirstOrThrow()
	return Number(row.left)
}

/** Turns two-step sign-in off: the secret, the codes and pending challenges go. */
export async function clearTwoFactor(db: Kysely<Database>, userId: string) {
	await db
		.updateTable('users')
		.set({ twoFactorSecret: null, twoFactorEnabledAt: null, twoFactorLastStep: null, updatedAt: new Date() })
		.where('id', '=', userId)
		.execute()
	await db.deleteFrom('twoFactorRecoveryCodes').where('userId', '=', userId).execute()
	await db.deleteFrom('twoFactorChallenges').where('userId', '=', userId).execute()
}

/** The login's challenge after a correct password: returned once, kept hashed. */
export async function issueChallenge(db: DB, userId: string): Promise<{ challenge: string; expiresAt: Date }> {
	const challenge = newToken()
	const expiresAt = new Date(Date.now() + challengeLifetime)
	// Expired ones of anyone go on the way: they are worth nothing.
	await db.deleteFrom('twoFactorChallenges').where('expiresAt', '<=', new Date()).execute()
	await db
		.insertInto('twoFactorChallenges')
		.values({ userId, tokenHash: hashToken(challenge), expiresAt })
		.execute()
	return { challenge, expiresAt }
}

/** The user a live challenge was issued to, without using it up. */
export async function peekChallenge(db: DB, challenge: string): Promise<User | undefined> {
	return db
		.selectFrom('twoFactorChallenges')
		.innerJoin('users', 'users.id', 'twoFactorChallenges.userId')
		.selectAll('users')
		.where('twoFactorChallenges.tokenHash', '=', hashToken(challenge))
		.where('twoFactorChallenges.expiresAt', '>', new Date())
		.where('users.twoFactorEnabledAt', 'is not', null)
		.executeTakeFirst()
}

/** Uses up a challenge: true for the one request that does. */
export async function spendChallenge(db: Kysely<Database>, challenge: string): Promise<boolean> {
	const used = await db.deleteFrom('twoFactorChallenges').where('tokenHash', '=', hashToken(challenge)).where('expiresAt', '>', new Date()).executeTakeFirst()
	return Number(used.numDeletedRows) > 0
}
