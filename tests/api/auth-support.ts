import crypto from 'node:crypto'
import { expect } from 'vitest'
import { type TestApi } from './harness.ts'

/** A password that meets every rule. */
export const strongPassword = 'Corr3ct-horse'

export type AuthAnswer = { access_token: string; user: { id: string; email: string; name: string; emailVerified: boolean; locale: string; theme: string; workspace: unknown } }
export type ErrorAnswer = { message: string; statusCode: number; details: { source?: string; fields?: Record<string, string[]>; retryAfter?: number } | null }

/** A client address of its own, so the per-IP limits of one test never throttle another. */
export function freshIp(): string {
	const [a = 0, b = 0, c = 0] = crypto.randomBytes(3)
	return `10.${a}.${b}.${c}`
}

/** Requests from one visitor: one forwarded IP (the harness trusts loopback proxies) and one language. */
export function visitor(api: TestApi, options: { ip?: string; language?: string; auth?: Record<string, string> } = {}) {
	const ip = options.ip ?? freshIp()
	const headers: Record<string, string> = { 'X-Forwarded-For': ip, ...options.auth }
	if (options.language) headers['Accept-Language'] = options.language
	const request = (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
		api.request(method, `/v1/auth${path}`, { body, headers: { ...headers, ...extra } })
	return {
		ip,
		request,
		post: (path: string, body?: unknown, extra?: Record<string, string>) => request('POST', path, body, extra),
	}
}

export type ParsedMail = { to: string; subject: string; contentLanguage: string | undefined; text: string; html: string }

function decodeQuotedPrintable(text: string): string {
	const bytes: number[] = []
	const joined = text.replace(/=\r?\n/g, '')
	for (let index = 0; index < joined.length; index++) {
		const char = joined[index]!
		if (char === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(index + 1, index + 3))) {
			bytes.push(Number.parseInt(joined.slice(index + 1, index + 3), 16))
			index += 2
		} else bytes.push(...Buffer.from(char, 'utf8'))
	}
	return Buffer.from(bytes).toString('utf8')
}

// RFC 2047 encoded words; adjacent ones are joined byte-wise since a character may straddle two.
function decodeHeader(value: string): string {
	return value.replace(/(=\?utf-8\?[bq]\?[^?]*\?=\s*)+/gi, (run) => {
		const bytes = [...run.matchAll(/=\?utf-8\?([bq])\?([^?]*)\?=/gi)].map(([, encoding, data = '']) =>
			encoding?.toLowerCase() === 'b' ? Buffer.from(data, 'base64') : Buffer.from(decodeQuotedPrintable(data.replace(/_/g, ' ')), 'utf8'),
		)
		return Buffer.concat(bytes).toString('utf8') + (/\s$/.test(run) ? ' ' : '')
	}).trim()
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
	const normalized = raw.replace(/\r\n/g, '\n')
	const end = normalized.indexOf('\n\n')
	const head = (end === -1 ? normalized : normalized.slice(0, end)).replace(/\n[ \t]+/g, ' ')
	const headers = new Map<string, string>()
	for (const line of head.split('\n')) {
		const colon = line.indexOf(':')
		if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
	}
	return { headers, body: end === -1 ? '' : normalized.slice(end + 2) }
}

function decodeBody(headers: Map<string, string>, body: string): string {
	const encoding = headers.get('content-transfer-encoding')?.toLowerCase()
	if (encoding === 'quoted-printable') return decodeQuotedPrintable(body)
	if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
	return body
}

/** Reads the .eml files nodemailer writes: recipient, subject, language, text and HTML parts. */
export function parseMail(raw: string): ParsedMail {
	const { headers, body } = splitHeaders(raw)
	const parts = { text: '', html: '' }
	const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1]
	const sections = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw]
	for (const section of sections) {
		const part = splitHeaders(section.replace(/^\n/, ''))
		const type = part.headers.get('content-type') ?? ''
		if (type.startsWith('text/plain')) parts.text = decodeBody(part.headers, part.body)
		if (type.startsWith('text/html')) parts.html = decodeBody(part.headers, part.body)
	}
	return {
		to: headers.get('to') ?? '',
		subject: decodeHeader(headers.get('subject') ?? ''),
		contentLanguage: headers.get('content-language'),
		...parts,
	}
}

/** The mails sent to `to` so far, oldest first. */
export async function mailsTo(api: TestApi, to: string): Promise<ParsedMail[]> {
	return (await api.outbox()).map(parseMail).filter((mail) => mail.to.toLowerCase() === to.toLowerCase())
}

/** Waits for the `count`-th mail to `to` (some are sent after the answer) and returns it. */
export async function waitForMail(api: TestApi, to: string, count = 1): Promise<ParsedMail> {
	const deadline = Date.now() + 5000
	for (;;) {
		const mails = await mailsTo(api, to)
		if (mails.length >= count) return mails[count - 1]!
		if (Date.now() > deadline) throw new Error(`no mail number ${count} to ${to} (found ${mails.length})`)
		await new Promise((resolve) => setTimeout(resolve, 25))
	}
}

/** The one link of a mail's text that points at `page`, and its token. */
export function linkIn(mail: ParsedMail, page: 'verify-email' | 'reset-password'): { url: URL; token: string } {
	const links = (mail.text.match(/https?:\/\/\S+/g) ?? []).filter((link) => link.includes(`/auth/${page}?`))
	expect(links).toHaveLength(1)
	const url = new URL(links[0]!)
	const token = url.searchParams.get('token') ?? ''
	expect(token).toMatch(/^[\w-]{43}$/)
	return { url, token }
}
