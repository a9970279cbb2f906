import crypto from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

// OWASP's argon2id parameters: 19 MiB of memory, 2 iterations, 1 lane.
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 }

export function hashPassword(password: string): Promise<string> {
	return hash(password, options)
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
	return verify(passwordHash, password).catch(() => false)
}

let dummyHash: Promise<string> | undefined

/** A hash of a random password, made with the same parameters as every real one. */
export function dummyPasswordHash(): Promise<string> {
	dummyHash ??= hashPassword(crypto.randomBytes(32).toString('base64url'))
	return dummyHash
}

/**
 * Checks a sign-in's password. An address without an account (`passwordHash` undefined) is
 * checked against the dummy hash and refused, so its answer takes as long as a wrong password's
 * and does not tell that the address is unknown.
 */
export async function checkPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
	const valid = await verifyPassword(passwordHash ?? (await dummyPasswordHash()), password)
	return valid && passwordHash !== undefined
}
