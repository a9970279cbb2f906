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
