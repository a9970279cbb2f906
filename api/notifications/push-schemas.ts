import crypto from 'node:crypto'
import { z } from 'zod'

const base64url = /^[A-Za-z0-9_-]+={0,2}$/

/** A P-256 public key as `PushSubscription.toJSON()` gives it: 65 bytes, a point on the curve (RFC 8291 §3.1). */
function isP256PublicKey(value: string): boolean {
	if (!base64url.test(value)) return false
	const bytes = Buffer.from(value, 'base64url')
	if (bytes.length !== 65 || bytes[0] !== 0x04) return false
	try {
		crypto.ECDH.convertKey(bytes, 'prime256v1')
		return true
	} catch {
		return false
	}
}

/** A browser's push subscription (`PushSubscription.toJSON()`): where its push service takes messages, and its keys. */
export const subscribeBody = z
	.object({
		endpoint: z
			.string()
			.trim()
			.max(2048)
			.refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', 'notifications:push.errors.endpointScheme'),
		keys: z
			.object({
				p256dh: z.string().max(100).refine(isP256PublicKey, 'notifications:push.errors.key'),
				// RFC 8291 §3.2: a 16-byte authentication secret.
				auth: z
					.string()
					.max(30)
					.refine((value) => base64url.test(value) && Buffer.from(value, 'base64url').length === 16, 'notifications:push.errors.key'),
			})
			.strict(),
		// What PushSubscription.toJSON() adds: kept out of the way, not stored.
		expirationTime: z.number().nullable().optional(),
	})
	.strict()

export const deviceParams = z.object({ deviceId: z.string().uuid() })

/** Whether a tab of the workspace is in front of its member now (sent on focus, on visibility changes, and every 30 s). */
export const focusBody = z.object({ focused: z.boolean() }).strict()
