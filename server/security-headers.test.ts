import express from 'express'
import inject from 'light-my-request'
import { describe, expect, test } from 'vitest'
import { permissionsPolicy, securityHeaders } from './security-headers.ts'

function appWith(PUBLIC_URL: string) {
	const app = express()
	app.use(securityHeaders({ PUBLIC_URL, isProduction: true }))
	app.all('*', (_req, res) => res.send(`<script nonce="${String(res.locals.cspNonce)}"></script>`))
	return app
}

async function headersOf(path: string, PUBLIC_URL = 'https://crm.example.com', method: 'GET' | 'POST' = 'GET') {
	const answer = await inject(appWith(PUBLIC_URL), { method, url: path })
	return { headers: answer.headers, body: answer.payload }
}

const directive = (csp: unknown, name: string) =>
	String(csp)
		.split(';')
		.map((part) => part.trim())
		.find((part) => part.startsWith(`${name} `))

describe('security headers', () => {
	test.each(['/en-us', '/ar-eg/dashboard/profile', '/fr-x/auth/login', '/en-us/c/support/attachments/1'])('%s may not be framed', async (path) => {
		const { headers } = await headersOf(path)
		expect(headers['x-frame-options']).toBe('DENY')
		expect(directive(headers['content-security-policy'], 'frame-ancestors')).toBe("frame-ancestors 'none'")
	})

	test.each(['/en-us/c/support', '/ar-eg/c/sales-team/', '/fr-x/c/x'])(
		'the chat link page %s may be framed by any site, its CSP as strict otherwise',
		async (path) => {
			const { headers, body } = await headersOf(path)
			expect(headers['x-frame-options']).toBeUndefined()
			expect(directive(headers['content-security-policy'], 'frame-ancestors')).toBe('frame-ancestors *')
			const nonce = /nonce="([^"]+)"/.exec(body)?.[1]
			expect(directive(headers['content-security-policy'], 'script-src')).toBe(`script-src 'strict-dynamic' 'self' 'nonce-${nonce}'`)
			expect(directive(headers['content-security-policy'], 'object-src')).toBe("object-src 'none'")
		},
	)

	test('a post to the chat link page is not framable', async () => {
		expect((await headersOf('/en-us/c/support', undefined, 'POST')).headers['x-frame-options']).toBe('DENY')
	})

	test('every page: a fresh nonce CSP, Referrer-Policy, Permissions-Policy with the powerful features off', async () => {
		const first = await headersOf('/en-us')
		const second = await headersOf('/en-us')
		const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1]
		expect(nonceOf(first.headers['content-security-policy'])).toMatch(/^[\w+/]{22}==$/)
		expect(nonceOf(first.headers['content-security-policy'])).not.toBe(nonceOf(second.headers['content-security-policy']))
		expect(first.body).toContain(`nonce="${nonceOf(first.headers['content-security-policy'])}"`)
		expect(directive(first.headers['content-security-policy'], 'script-src-attr')).toBe("script-src-attr 'none'")
		// The push service worker registers from this site; notifications and push stay allowed.
		expect(directive(first.headers['content-security-policy'], 'worker-src')).toBe("worker-src 'self'")
		expect(permissionsPolicy).not.toMatch(/notifications|push/)
		expect(first.headers['referrer-policy']).toBe('same-origin')
		expect(first.headers['permissions-policy']).toBe(permissionsPolicy)
		for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(permissionsPolicy).toContain(`${feature}=()`)
		expect(first.headers['x-content-type-options']).toBe('nosniff')
	})

	test('HSTS and upgrade-insecure-requests when PUBLIC_URL is https, neither under http', async () => {
		const secure = await headersOf('/en-us', 'https://crm.example.com')
		expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
		expect(String(secure.headers['content-security-policy'])).toContain('upgrade-insecure-requests')
		const plain = await headersOf('/en-us', 'http://localhost:3000')
		expect(plain.headers['strict-transport-security']).toBeUndefined()
		expect(String(plain.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests')
	})
})
