import crypto from 'node:crypto'
import { expect } from 'vitest'
import { type ReadMail } from '../support/mail.ts'
import { type TestApi } from './harness.ts'

/** A password that meets every rule. */
export const strongPassword = 'Corr3ct-horse'

export type AuthAnswer = {
	access_token: string
	user: { id: string; email: string; name: string; emailVerified: boolean; locale: string; theme: string; workspace: unknown }
}
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

export type ParsedMail = ReadMail

/** The mails sent to `to` so far, oldest first. */
export async function mailsTo(api: TestApi, to: string): Promise<ParsedMail[]> {
	return (await api.outbox()).filter((mail) => mail.to.toLowerCase() === to.toLowerCase())
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
