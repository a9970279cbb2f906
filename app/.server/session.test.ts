import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { type AppLoadContext } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { tokenCookie } from './cookies.ts'
import { ApiError } from './api-client.ts'
import { requireUser, rethrowApiError, userForShell } from './session.ts'

// A stand-in for the /v1 API whose profile answers what each test asks.
let profileStatus = 503
let apiUrl: string
const api = http.createServer((req, res) => {
	res.writeHead(profileStatus, { 'Content-Type': 'application/json' })
	res.end(JSON.stringify({ message: 'down', statusCode: profileStatus, details: null }))
})
beforeAll(() => new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve)))
beforeAll(() => {
	apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())))

async function args(apiBaseUrl = apiUrl, token = 'a-token') {
	const cookie = (await tokenCookie.serialize(token)).split(';')[0] ?? ''
	const request = new Request('http://localhost/en-us/dashboard/contacts', { headers: { Cookie: cookie } })
	return { request, params: { lang: 'en-us' }, context: { apiBaseUrl, clientIp: '' } as unknown as AppLoadContext }
}

describe('a profile the API cannot give (docs/specification.txt, section 8: only logged)', () => {
	test('the shell renders without the user, and the failure is logged', async () => {
		const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
		for (const status of [500, 502, 503]) {
			profileStatus = status
			expect((await userForShell(await args())).user).toBeNull()
		}
		// No answer at all: nothing listens there.
		const closed = http.createServer()
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
		const port = (closed.address() as AddressInfo).port
		await new Promise<void>((resolve) => closed.close(() => resolve()))
		expect((await userForShell(await args(`http://127.0.0.1:${port}/v1`))).user).toBeNull()
		expect(logged).toHaveBeenCalledTimes(4)
		expect(String(logged.mock.calls[0]?.[0])).toContain('Profile fetch failed')
		logged.mockRestore()
	})

	test('a page inside answers 503, which its error boundary shows within the shell', async () => {
		vi.spyOn(console, 'error').mockImplementation(() => {})
		profileStatus = 503
		const thrown: unknown = await requireUser(await args()).catch((error: unknown) => error)
		// The API's 503: its database is away (the shell says "we'll be right back"); a 500 is the API's own failure.
		expect(thrown).toMatchObject({ data: { profileUnavailable: true, databaseAway: true }, init: { status: 503 } })
		profileStatus = 500
		expect(await requireUser(await args()).catch((error: unknown) => error)).toMatchObject({
			data: { profileUnavailable: true, databaseAway: false },
			init: { status: 503 },
		})
		vi.restoreAllMocks()
	})

	test('a 401 still signs the user out, to the login page that brings them back', async () => {
		profileStatus = 401
		for (const load of [userForShell, requireUser]) {
			const thrown: unknown = await load(await args()).catch((error: unknown) => error)
			expect(thrown).toBeInstanceOf(Response)
			expect((thrown as Response).headers.get('Location')).toBe('/en-us/auth/login?redirect=%2Fen-us%2Fdashboard%2Fcontacts')
			expect((thrown as Response).headers.get('Set-Cookie')).toContain('crm-token=;')
		}
	})
})

describe('an access token in the crm-token cookie (issue 33)', () => {
	test('is never a session: the browser is signed out without the API being asked', async () => {
		profileStatus = 200
		for (const [load, token] of [
			[requireUser, 'crm_bot_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'],
			[userForShell, 'crm_pat_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'],
		] as const) {
			const thrown: unknown = await load(await args(apiUrl, token)).catch((error: unknown) => error)
			expect(thrown).toBeInstanceOf(Response)
			expect((thrown as Response).headers.get('Location')).toBe('/en-us/auth/login?redirect=%2Fen-us%2Fdashboard%2Fcontacts')
			expect((thrown as Response).headers.get('Set-Cookie')).toContain('crm-token=;')
		}
	})
})

describe('an API failure rethrown by a loader', () => {
	test("the database away (503) is the error screen's 503 with the API's words; another failure stays an error (a 500)", async () => {
		const { request } = await args()
		const away = new ApiError('La base de données ne répond pas pour le moment.', '/v1/x', 503, null)
		expect(await rethrowApiError(away, 'fr-x', request).catch((error: unknown) => error)).toMatchObject({
			data: { message: away.message },
			init: { status: 503 },
		})
		const broken = new ApiError('Internal', '/v1/x', 500, null)
		expect(await rethrowApiError(broken, 'fr-x', request).catch((error: unknown) => error)).toBe(broken)
	})
})
