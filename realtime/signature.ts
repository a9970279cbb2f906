import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

export interface Credentials {
	key: string
	secret: string
}

export function hmacSha256Hex(secret: string, data: string): string {
	return createHmac('sha256', secret).update(data, 'utf8').digest('hex')
}

export function md5Hex(body: string): string {
	return createHash('md5').update(body, 'utf8').digest('hex')
}

export function safeEqual(a: string, b: string): boolean {
	const left = Buffer.from(a, 'utf8')
	const right = Buffer.from(b, 'utf8')
	if (left.length !== right.length) {
		// Still spend the comparison so the length mismatch is not cheaper than a content mismatch.
		timingSafeEqual(left, left)
		return false
	}
	return timingSafeEqual(left, right)
}

export function signChannel(credentials: Credentials, socketId: string, channel: string, channelData?: string): string {
	const payload = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`
	return `${credentials.key}:${hmacSha256Hex(credentials.secret, payload)}`
}

export function signUser(credentials: Credentials, socketId: string, userData: string): string {
	return `${credentials.key}:${hmacSha256Hex(credentials.secret, `${socketId}::user::${userData}`)}`
}

export function verifyChannelAuth(credentials: Credentials, socketId: string, channel: string, auth: unknown, channelData?: string): boolean {
	return typeof auth === 'string' && safeEqual(auth, signChannel(credentials, socketId, channel, channelData))
}

export function verifyUserAuth(credentials: Credentials, socketId: string, userData: string, auth: unknown): boolean {
	return typeof auth === 'string' && safeEqual(auth, signUser(credentials, socketId, userData))
}

export interface ApiRequest {
	method: string
	path: string
	// Raw `key=value` pairs exactly as they appear in the query string, still percent-encoded.
	query: string[]
	body: string
	nowSeconds: number
}

export type ApiAuthResult = { ok: true } | { ok: false; error: string }

export const MAX_TIMESTAMP_SKEW_SECONDS = 600

export function parseQuery(rawQuery: string): Map<string, string> {
	const params = new Map<string, string>()
	for (const [key, value] of new URLSearchParams(rawQuery)) params.set(key, value)
	return params
}

function sortedQuery(pairs: Array<[string, string]>): string {
	return pairs
		.filter(([key]) => key !== 'auth_signature')
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([key, value]) => `${key}=${value}`)
		.join('&')
}

function splitPair(pair: string): [string, string] {
	const index = pair.indexOf('=')
	return index === -1 ? [pair.toLowerCase(), ''] : [pair.slice(0, index).toLowerCase(), pair.slice(index + 1)]
}

function safeDecode(value: string): string {
	try {
		return decodeURIComponent(value.replace(/\+/g, ' '))
	} catch {
		return value
	}
}

// The official SDKs sign the query string before URL-encoding it, while proxies and fetch
// implementations may encode it on the way; both the raw and the decoded form are accepted.
function signingCandidates(request: ApiRequest): string[] {
	const raw = request.query.filter((pair) => pair !== '').map(splitPair)
	const decoded = raw.map(([key, value]): [string, string] => [safeDecode(key), safeDecode(value)])
	const method = request.method.toUpperCase()
	const paths = new Set([request.path, safeDecode(request.path)])
	const queries = new Set([sortedQuery(raw), sortedQuery(decoded)])
	const candidates: string[] = []
	for (const path of paths) for (const query of queries) candidates.push(`${method}\n${path}\n${query}`)
	return candidates
}

export function verifyApiRequest(credentials: Credentials, request: ApiRequest): ApiAuthResult {
	const params = parseQuery(request.query.join('&'))
	const authKey = params.get('auth_key')
	const timestamp = params.get('auth_timestamp')
	const version = params.get('auth_version')
	const signature = params.get('auth_signature')
	if (authKey === undefined || timestamp === undefined || signature === undefined) {
		return { ok: false, error: 'Missing auth_key, auth_timestamp or auth_signature' }
	}
	if (version !== undefined && version !== '1.0') return { ok: false, error: 'Unsupported auth_version' }
	if (!safeEqual(authKey, credentials.key)) return { ok: false, error: 'Unknown auth_key' }
	const seconds = Number(timestamp)
	if (!Number.isFinite(seconds) || Math.abs(request.nowSeconds - seconds) > MAX_TIMESTAMP_SKEW_SECONDS) {
		return { ok: false, error: 'Timestamp expired: auth_timestamp is more than 600 seconds from server time' }
	}
	const bodyMd5 = params.get('body_md5')
	if (request.body !== '') {
		if (bodyMd5 === undefined || !safeEqual(bodyMd5, md5Hex(request.body))) {
			return { ok: false, error: 'body_md5 does not match the request body' }
		}
	}
	let valid = false
	for (const candidate of signingCandidates(request)) {
		if (safeEqual(signature, hmacSha256Hex(credentials.secret, candidate))) valid = true
	}
	return valid ? { ok: true } : { ok: false, error: 'Invalid signature: auth_signature does not match' }
}
