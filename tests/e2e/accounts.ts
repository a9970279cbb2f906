import crypto from 'node:crypto'
import { createCookie } from '@remix-run/node'
import { type APIRequestContext, type BrowserContext } from '@playwright/test'
import { linkIn, readOutbox, type ReadMail } from '../support/mail.ts'

/** The server's SESSION_SECRET (playwright.config.ts): it signs a notification mail's unsubscribe links. */
export const e2eSessionSecret = 'e2e-session-secret-0123456789abcdef0123456789'

/** A password that meets every rule of the specification. */
export const strongPassword = 'Corr3ct-horse!'

/** A client address of its own, so one test's rate limits never throttle another's. */
export function freshIp(): string {
	const [a = 0, b = 0, c = 0] = crypto.randomBytes(3)
	return `10.${a}.${b}.${c}`
}

export function uniqueEmail(prefix = 'e2e') {
	return `${prefix}-${crypto.randomBytes(5).toString('hex')}@example.test`
}

type AuthAnswer = { access_token: string; user: { id: string; email: string; name: string } }

/** A user registered through the API (faster than the form), with their access token. */
export async function registerUser(request: APIRequestContext, options: { name?: string; locale?: string; email?: string } = {}) {
	const email = options.email ?? uniqueEmail()
	const response = await request.post('/v1/auth/register', {
		data: { name: options.name ?? 'Sam Tester', email, password: strongPassword, locale: options.locale ?? 'en-us' },
		headers: { 'X-Forwarded-For': freshIp() },
	})
	if (!response.ok()) throw new Error(`register failed: ${response.status()} ${await response.text()}`)
	const answer = (await response.json()) as AuthAnswer
	return { email, password: strongPassword, token: answer.access_token, user: answer.user }
}

/** A workspace created through the API for the holder of `token`; it becomes their current one. */
export async function createWorkspace(request: APIRequestContext, token: string, name = 'Acme Support') {
	const response = await request.post('/v1/workspaces', { data: { name }, headers: { Authorization: `Bearer ${token}` } })
	if (!response.ok()) throw new Error(`workspace failed: ${response.status()} ${await response.text()}`)
	return (await response.json()) as { id: string; name: string }
}

// Encoded exactly as the app encodes it.
const tokenCookie = createCookie('crm-token')

/** Signs a browser context in with an access token, as the login action would. */
export async function signIn(context: BrowserContext, baseURL: string, token: string) {
	const value = (await tokenCookie.serialize(token)).split(';')[0]!.slice('crm-token='.length)
	await context.addCookies([{ name: 'crm-token', value, url: baseURL, httpOnly: true, sameSite: 'Lax' }])
}

/** The `Cookie` header of a session, for a request context that is no browser. */
export async function tokenCookieHeader(token: string): Promise<string> {
	return (await tokenCookie.serialize(token)).split(';')[0]!
}

/** The access token a browser context holds, if any. */
export async function tokenOf(context: BrowserContext): Promise<string | null> {
	const cookie = (await context.cookies()).find((entry) => entry.name === 'crm-token')
	if (!cookie?.value) return null
	return ((await tokenCookie.parse(`crm-token=${cookie.value}`)) as string | null) ?? null
}

/** Waits for the newest mail to `to` that links to `pathPart`, and returns that link. */
export async function mailedLink(to: string, pathPart: string): Promise<{ link: string; mail: ReadMail }> {
	const dataDir = process.env.E2E_DATA_DIR!
	for (let attempt = 0; attempt < 50; attempt++) {
		const mail = (await readOutbox(dataDir)).reverse().find((entry) => entry.to === to && entry.text.includes(pathPart))
		if (mail) return { link: linkIn(mail, pathPart), mail }
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
	throw new Error(`no mail to ${to} with a link to ${pathPart}`)
}
