import crypto from 'node:crypto'
import { type ProviderChannel, ProviderError, type WebhookRequest, type WebhookVerdict } from './provider.ts'

/**
 * Meta's Graph API, shared by WhatsApp's Cloud API and the Page's Messenger Platform (Messenger,
 * Facebook, Instagram): one call with a token whose error body becomes a ProviderError of the
 * right kind, and the webhooks' handshake and signature.
 */

type GraphError = {
	error?: { message?: string; type?: string; code?: number; error_subcode?: number; error_data?: { details?: string } | string; fbtrace_id?: string }
}

// Graph's codes for "slow down": application (4), user (17), page (32), a call's own limit (613), and WhatsApp's account and pair limits.
const rateLimitCodes = new Set([4, 17, 32, 613, 80007, 130429, 131048, 131056])

/** Meta's CDN, where its files are (lookaside.fbsbx.com, *.fbcdn.net, *.cdninstagram.com, facebook.com), over https. */
export function isMetaCdn(url: URL): boolean {
	return url.protocol === 'https:' && /(^|\.)(fbsbx\.com|fbcdn\.net|cdninstagram\.com|facebook\.com)$/.test(url.hostname)
}

/** A Graph call with the channel's token; an error body becomes a ProviderError of the right kind. */
export async function graphCall<T>(url: string, token: string, init: { method?: 'GET' | 'POST'; body?: unknown; form?: FormData } = {}): Promise<T> {
	let response: Response
	try {
		response = await fetch(url, {
			method: init.method ?? 'GET',
			headers: { Authorization: `Bearer ${token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
			// An upload goes as multipart/form-data (fetch writes its boundary).
			body: init.form ?? (init.body ? JSON.stringify(init.body) : undefined),
			signal: AbortSignal.timeout(init.form ? 120_000 : 15_000),
		})
	} catch (error) {
		throw new ProviderError('unavailable', error instanceof Error ? error.message : String(error))
	}
	const answer = (await response.json().catch(() => null)) as (T & GraphError) | null
	if (response.ok && answer && !answer.error) return answer
	const error = answer?.error
	const details = typeof error?.error_data === 'string' ? error.error_data : error?.error_data?.details
	const detail = [error?.message ?? `HTTP ${response.status}`, details].filter(Boolean).join(': ')
	const options = { status: response.status, code: error?.code, subcode: error?.error_subcode }
	if (response.status === 429 || (error?.code !== undefined && rateLimitCodes.has(error.code))) {
		const seconds = Number(response.headers.get('retry-after'))
		throw new ProviderError('rate-limited', detail, { ...options, retryAfterMs: seconds > 0 ? seconds * 1000 : undefined })
	}
	if (response.status >= 500) throw new ProviderError('unavailable', detail, options)
	if (error?.code === 190 || response.status === 401) throw new ProviderError('unauthorized', detail, options)
	throw new ProviderError('refused', detail, options)
}

function sameSecret(given: string, expected: string): boolean {
	const a = Buffer.from(given)
	const b = Buffer.from(expected)
	return a.length === b.length && crypto.timingSafeEqual(a, b)
}

/** Meta's webhooks: the GET handshake answers the challenge to the verify token; a POST must carry the app secret's signature of its bytes. */
export function verifyMetaWebhook(channel: ProviderChannel, request: WebhookRequest): WebhookVerdict {
	if (request.method === 'GET') {
		const { 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': challenge } = request.query
		const expected = channel.credentials.verifyToken
		if (mode === 'subscribe' && token && expected && challenge && sameSecret(token, expected)) return { verdict: 'respond', status: 200, body: challenge }
		return { verdict: 'refuse', status: 403 }
	}
	const header = request.headers['x-hub-signature-256'] ?? ''
	const secret = channel.credentials.appSecret
	if (!secret || !header.startsWith('sha256=')) return { verdict: 'refuse', status: 401 }
	const expected = `sha256=${crypto.createHmac('sha256', secret).update(request.rawBody).digest('hex')}`
	return sameSecret(header, expected) ? { verdict: 'accept' } : { verdict: 'refuse', status: 401 }
}
