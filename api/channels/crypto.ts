import crypto from 'node:crypto'

/**
 * Channel credentials at rest: AES-256-GCM under a key derived from ENCRYPTION_KEY (SHA-256 of
 * it, so any 32+ characters will do). Stored as `v1.{iv}.{tag}.{ciphertext}` in base64url: a
 * changed byte or another key fails to open, it never decrypts to something else.
 */
const version = 'v1'

function keyOf(secret: string): Buffer {
	return crypto.createHash('sha256').update(`crm channel credentials:${secret}`).digest()
}

export function sealCredentials(credentials: Record<string, string>, secret: string): string {
	const iv = crypto.randomBytes(12)
	const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv)
	const sealed = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()])
	return [version, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

/** The credentials, or an error when the text was changed or sealed under another key. */
export function openCredentials(text: string, secret: string): Record<string, string> {
	const [tag, iv, authTag, sealed] = text.split('.')
	if (tag !== version || !iv || !authTag || sealed === undefined) throw new Error('credentials are not in a known format')
	const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'))
	decipher.setAuthTag(Buffer.from(authTag, 'base64url'))
	const opened = Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8')
	return JSON.parse(opened) as Record<string, string>
}

/** A secret as a page may show it: its last four characters only. */
export function maskSecret(value: string): string {
	return value.length > 8 ? `••••${value.slice(-4)}` : '••••'
}
