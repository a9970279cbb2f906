import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Answer, type FakeServer, type Received, startFakeServer, waitForMatch } from './fake-server.ts'

/**
 * A local Web Push service (RFC 8030) for tests, over HTTPS as every push service is: it hands out
 * subscriptions as a browser's push service does and takes `POST /push/{id}` from the application
 * server, checking what a real one checks (VAPID, RFC 8292; the `TTL` header; `aes128gcm`, RFC 8188;
 * the 4096-byte limit), then decrypts the message with the subscription's keys (RFC 8291) as the
 * browser would, so a test sees the very payload. Its certificate is `pushCertificatePath`: trust it
 * with `NODE_EXTRA_CA_CERTS` in a spawned server, or `new https.Agent({ ca })` in process.
 *
 * Refusals (status, then the RFC or service that answers so):
 * - no `Authorization: vapid t=…, k=…` → 401; a JWT that fails (signature, `aud`, `exp`, `sub`) → 403 (RFC 8292 §4.2);
 * - `TTL` missing or not a non-negative integer → 400 (RFC 8030 §5.2);
 * - `Content-Encoding` other than `aes128gcm` → 415 (RFC 9110 §15.5.16; RFC 8291 §4 requires aes128gcm);
 * - a body over 4096 bytes → 413 (RFC 8030 §5, RFC 8291 §4);
 * - a body that does not decrypt → 400 (a real service cannot see this; the browser would drop it);
 * - an unknown or `notFound` subscription → 404, a `gone` one → 410, a `throttle`d one → 429 with `Retry-After`.
 * Bodies are JSON in Mozilla autopush's shape `{ code, error, message }`. Success is 201 with a
 * `Location` (RFC 8030 §5).
 */
export type PushFake = FakeServer & {
	/** A new subscription, as `PushManager.subscribe()` gives it to the page: what the product stores. */
	subscribe: () => PushSubscriptionJSON
	/** The subscription answers 410 from now on (the user revoked permission) and is forgotten. */
	gone: (id: string) => void
	/** The subscription answers 404 from now on (an endpoint the service no longer knows). */
	notFound: (id: string) => void
	/** The next `times` messages to the subscription answer 429 with `Retry-After: retryAfterSeconds`. */
	throttle: (id: string, times: number, retryAfterSeconds?: number) => void
	/** Every message accepted and decrypted, oldest first. */
	pushes: ReceivedPush[]
	/** Waits for an accepted message matching `predicate` (any, without one); rejects after `timeoutMs`. */
	waitForPush: (predicate?: (push: ReceivedPush) => boolean, timeoutMs?: number) => Promise<ReceivedPush>
}

export type PushSubscriptionJSON = { endpoint: string; keys: { p256dh: string; auth: string } }

export type ReceivedPush = {
	subscriptionId: string
	payload: string
	ttl: number
	urgency: string | undefined
	topic: string | undefined
	/** The VAPID JWT's `sub`: the application server's contact. */
	vapidSubject: string
}

const certificates = path.join(path.dirname(fileURLToPath(import.meta.url)), 'certs')
/** The fake's self-signed certificate (127.0.0.1 and localhost, valid until 2126): what a client must trust. */
export const pushCertificatePath = path.join(certificates, 'cert.pem')

/** What RFC 8291 §4 obliges a push service to accept, and what services refuse beyond. */
const maxBodyBytes = 4096

const refusal = (status: number, error: string, message: string, headers?: Record<string, string>): Answer => ({
	status,
	body: { code: status, error, message },
	headers,
})

type Subscription = { ecdh: crypto.ECDH; auth: Buffer; state: 'active' | 'gone' | 'notFound'; throttled: number; retryAfter: number }

/** `port` 0 takes any free one. */
export async function startPushFake(port = 0): Promise<PushFake> {
	const subscriptions = new Map<string, Subscription>()
	const pushes: ReceivedPush[] = []
	const waiters = new Set<() => void>()

	const route = (request: Received): Answer | undefined => {
		const match = /^\/push\/([\w-]+)$/.exec(request.path)
		if (!match || request.method !== 'POST') return undefined
		const id = match[1] ?? ''
		const subscription = subscriptions.get(id)
		if (!subscription || subscription.state === 'notFound') return refusal(404, 'Not Found', 'No such subscription')
		if (subscription.state === 'gone') return refusal(410, 'Gone', 'The subscription has expired or was unsubscribed')
		if (subscription.throttled > 0) {
			subscription.throttled--
			return refusal(429, 'Too Many Requests', 'Slow down', { 'Retry-After': String(subscription.retryAfter) })
		}

		const vapid = checkVapid(request.headers.authorization, server.url)
		if ('refused' in vapid) return vapid.refused
		const ttlHeader = request.headers.ttl
		if (typeof ttlHeader !== 'string' || !/^\d+$/.test(ttlHeader)) return refusal(400, 'Bad Request', 'Missing or invalid TTL header')
		if (request.headers['content-encoding'] !== 'aes128gcm') return refusal(415, 'Unsupported Media Type', 'Content-Encoding must be aes128gcm')
		if (request.bytes.length > maxBodyBytes) return refusal(413, 'Payload Too Large', `The body exceeds ${maxBodyBytes} bytes`)

		const payload = decrypt(request.bytes, subscription)
		if (payload === undefined) return refusal(400, 'Bad Request', 'The body does not decrypt with the subscription keys')
		pushes.push({
			subscriptionId: id,
			payload,
			ttl: Number(ttlHeader),
			urgency: header(request.headers.urgency),
			topic: header(request.headers.topic),
			vapidSubject: vapid.subject,
		})
		for (const wake of waiters) wake()
		return { status: 201, body: {}, headers: { Location: `${server.url}/message/${crypto.randomUUID()}` } }
	}

	const server = await startFakeServer(route, () => refusal(404, 'Not Found', 'Not Found'), port, {
		cert: fs.readFileSync(pushCertificatePath),
		key: fs.readFileSync(path.join(certificates, 'key.pem')),
	})

	const subscriptionOf = (id: string) => {
		const subscription = subscriptions.get(id)
		if (!subscription) throw new Error(`the push fake has no subscription ${id}`)
		return subscription
	}

	return {
		...server,
		pushes,
		subscribe() {
			const id = crypto.randomBytes(12).toString('base64url')
			// The user agent's P-256 key pair and auth secret (RFC 8291 §2): the service keeps them to decrypt.
			const ecdh = crypto.createECDH('prime256v1')
			ecdh.generateKeys()
			const auth = crypto.randomBytes(16)
			subscriptions.set(id, { ecdh, auth, state: 'active', throttled: 0, retryAfter: 0 })
			return { endpoint: `${server.url}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } }
		},
		gone(id) {
			subscriptionOf(id).state = 'gone'
		},
		notFound(id) {
			subscriptionOf(id).state = 'notFound'
		},
		throttle(id, times, retryAfterSeconds = 1) {
			Object.assign(subscriptionOf(id), { throttled: times, retryAfter: retryAfterSeconds })
		},
		waitForPush: (predicate = () => true, timeoutMs = 10_000) => waitForMatch(pushes, waiters, predicate, timeoutMs, 'push message'),
	}
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<application server public key>`; the JWT is ES256,
 * signed by k's private key, for the endpoint's origin, expiring within 24 hours, with a contact `sub`.
 */
function checkVapid(authorization: string | undefined, origin: string): { subject: string } | { refused: Answer } {
	const unauthorized = { refused: refusal(401, 'Unauthorized', 'Missing VAPID authorization', { 'WWW-Authenticate': 'vapid' }) }
	const match = /^vapid\s+(.*)$/i.exec(authorization ?? '')
	if (!match) return unauthorized
	const params = Object.fromEntries((match[1] ?? '').split(',').map((part) => part.trim().split(/=(.*)/s, 2) as [string, string]))
	const token = params.t
	const key = params.k
	if (!token || !key) return unauthorized
	const forbidden = (message: string) => ({ refused: refusal(403, 'Forbidden', message) })

	const [head = '', body = '', signature = ''] = token.split('.')
	const json = (part: string): Record<string, unknown> | undefined => {
		try {
			return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>
		} catch {
			return undefined
		}
	}
	const jwtHeader = json(head)
	const claims = json(body)
	if (jwtHeader?.alg !== 'ES256' || !claims) return forbidden('The VAPID token is not an ES256 JWT')
	const publicKey = Buffer.from(key, 'base64url')
	if (publicKey.length !== 65 || publicKey[0] !== 0x04) return forbidden('The VAPID key is not an uncompressed P-256 point')
	const verifier = crypto.createPublicKey({
		format: 'jwk',
		key: { kty: 'EC', crv: 'P-256', x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33).toString('base64url') },
	})
	// A JWS ES256 signature is r || s (64 bytes), not DER.
	const signed = crypto.verify('sha256', Buffer.from(`${head}.${body}`), { key: verifier, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
	if (!signed) return forbidden('The VAPID signature does not match its key')
	if (claims.aud !== origin) return forbidden(`The VAPID audience must be ${origin}`)
	const now = Math.floor(Date.now() / 1000)
	if (typeof claims.exp !== 'number' || claims.exp <= now) return forbidden('The VAPID token has expired')
	if (claims.exp > now + 24 * 60 * 60) return forbidden('The VAPID token expires more than 24 hours ahead')
	if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) return forbidden('The VAPID subject must be a mailto: or https: URL')
	return { subject: claims.sub }
}

/**
 * What the browser does with a message: RFC 8188's aes128gcm header (salt 16, record size 4, key id
 * length 1, key id = the sender's ephemeral public key), RFC 8291's key derivation, one record
 * (4096 bytes never need two). Undefined when it does not decrypt.
 */
function decrypt(bytes: Buffer, subscription: Subscription): string | undefined {
	try {
		const salt = bytes.subarray(0, 16)
		const idLength = bytes.readUInt8(20)
		const senderPublic = bytes.subarray(21, 21 + idLength)
		const record = bytes.subarray(21 + idLength)
		const sharedSecret = subscription.ecdh.computeSecret(senderPublic)
		// RFC 8291 §3.3: IKM = HKDF(auth secret, ECDH secret, "WebPush: info" 0x00 || ua_public || as_public, 32).
		const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscription.ecdh.getPublicKey(), senderPublic])
		const ikm = Buffer.from(crypto.hkdfSync('sha256', sharedSecret, subscription.auth, keyInfo, 32))
		// RFC 8188 §2.2–2.3: the content key and nonce from the message's salt.
		const key = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
		const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
		const decipher = crypto.createDecipheriv('aes-128-gcm', key, nonce)
		decipher.setAuthTag(record.subarray(record.length - 16))
		const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
		// The last record's plaintext ends with the delimiter 0x02, then zero padding (RFC 8188 §2).
		let end = padded.length - 1
		while (end >= 0 && padded[end] === 0) end--
		if (padded[end] !== 2) return undefined
		return padded.subarray(0, end).toString('utf8')
	} catch {
		return undefined
	}
}
