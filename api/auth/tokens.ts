import crypto from 'node:crypto'

/** A fresh secret for a session or a mailed link: 256 random bits, URL-safe. */
export function newToken(): string {
	return crypto.randomBytes(32).toString('base64url')
}

/** What the database keeps instead of the token. Tokens are random, so a plain SHA-256 suffices. */
export function hashToken(token: string): string {
	return crypto.createHash('sha256').update(token).digest('hex')
}
