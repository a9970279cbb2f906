import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loginThrottleRules } from '#api/auth/login-throttle.ts'
import { hashToken } from '#api/auth/tokens.ts'
import { type ErrorAnswer, freshIp, linkIn, strongPassword, visitor, waitForMail } from './auth-support.ts'
import { createUser, startApi, testDb, uniqueEmail, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

/** Asserts a 429 whose message, details and Retry-After agree, with a wait within the window. */
function expectTooMany(response: { status: number; body: unknown; headers: Headers }, windowSeconds: number) {
	expect(response.status).toBe(429)
	const retryAfter = Number(response.headers.get('retry-after'))
	expect(retryAfter).toBeGreaterThanOrEqual(1)
	expect(retryAfter).toBeLessThanOrEqual(windowSeconds)
	expect(response.body).toEqual({
		message: `Too many attempts. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
		statusCode: 429,
		details: { retryAfter },
	})
}

async function attempts(count: number, attempt: (index: number) => Promise<{ status: number }>, expected: number) {
	for (let index = 0; index < count; index++) expect((await attempt(index)).status, `attempt ${index + 1}`).toBe(expected)
}

describe('failed sign-ins', () => {
	const pairKey = (email: string, ip: string) => hashToken(`${email.toLowerCase()}\n${ip}`)
	/** Ends the wait of an (address, IP) pair, as if its time had passed. */
	const waitIsOver = (email: string, ip: string) =>
		testDb()
			.updateTable('rateLimits')
			.set({ expire: Date.now() - 1 })
			.where('key', '=', `loginPairWait:${pairKey(email, ip)}`)
			.execute()

	test('an attacker failing from one IP waits after 5, longer after each further failure; even the right password waits', async () => {
		const { user, password } = await createUser()
		const attacker = visitor(api)
		await attempts(5, () => attacker.post('/login', { email: user.email, password: 'Wrong-passw0rd' }), 401)
		const blocked = await attacker.post('/login', { email: user.email.toUpperCase(), password })
		expectTooMany(blocked, 30)
		expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(25)

		const french = await visitor(api, { ip: attacker.ip, language: 'fr-x' }).post('/login', { email: user.email, password })
		expect(french.status).toBe(429)
		expect((french.body as ErrorAnswer).message).toBe(`Trop de tentatives. Réessayez dans ${french.headers.get('retry-after')} secondes.`)

		await waitIsOver(user.email, attacker.ip)
		expect((await attacker.post('/login', { email: user.email, password: 'Wrong-passw0rd' })).status).toBe(401)
		const longer = await attacker.post('/login', { email: user.email, password })
		expectTooMany(longer, 60)
		expect(Number(longer.headers.get('retry-after'))).toBeGreaterThan(55)
	})

	test('the owner signs in from another IP while the attacker is kept waiting (ASVS V6.3.1)', async () => {
		const { user, password } = await createUser()
		const attacker = visitor(api)
		await attempts(5, () => attacker.post('/login', { email: user.email, password: 'Wrong-passw0rd' }), 401)
		expect((await attacker.post('/login', { email: user.email, password })).status).toBe(429)
		const owner = visitor(api)
		expect((await owner.post('/login', { email: user.email, password })).status).toBe(200)
		// The owner's own pair is untouched by the attacker's failures.
		await attempts(4, () => owner.post('/login', { email: user.email, password: 'Typo-passw0rd' }), 401)
		expect((await owner.post('/login', { email: user.email, password })).status).toBe(200)
		expect((await attacker.post('/login', { email: user.email, password })).status).toBe(429)
	})

	test('over the per-address ceiling (failures from every IP) sign-ins are only delayed, never refused', async () => {
		const { user, password } = await createUser()
		const key = `loginAddress:${hashToken(user.email.toLowerCase())}`
		await testDb()
			.insertInto('rateLimits')
			.values({ key, points: loginThrottleRules.addressCeiling, expire: Date.now() + 60 * 60 * 1000 })
			.onConflict((oc) => oc.column('key').doUpdateSet({ points: loginThrottleRules.addressCeiling }))
			.execute()
		const started = Date.now()
		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(200)
		expect(Date.now() - started).toBeGreaterThanOrEqual(loginThrottleRules.addressDelayMs - 50)
	})

	test('parallel guesses from one IP cannot slip past the wait', async () => {
		const { user } = await createUser()
		const attacker = visitor(api)
		const answers = await Promise.all(Array.from({ length: 12 }, () => attacker.post('/login', { email: user.email, password: 'Wrong-passw0rd' })))
		const checked = answers.filter((answer) => answer.status === 401).length
		expect(checked).toBeLessThanOrEqual(6)
		expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12 - checked)
	})

	test('a successful sign-in starts the pair afresh', async () => {
		const { user, password } = await createUser()
		const owner = visitor(api)
		for (let round = 0; round < 2; round++) {
			await attempts(4, () => owner.post('/login', { email: user.email, password: 'Wrong-passw0rd' }), 401)
			expect((await owner.post('/login', { email: user.email, password })).status).toBe(200)
		}
	})

	test('20 per IP in 15 minutes, whatever the address; other IPs are not affected', async () => {
		const ip = freshIp()
		await attempts(20, () => visitor(api, { ip }).post('/login', { email: uniqueEmail(), password: 'Wrong-passw0rd' }), 401)
		const { user, password } = await createUser()
		expectTooMany(await visitor(api, { ip }).post('/login', { email: user.email, password }), 15 * 60)
		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(200)
	})

	test('successful sign-ins do not count against the IP', async () => {
		const { user, password } = await createUser()
		const ip = freshIp()
		await attempts(22, () => visitor(api, { ip }).post('/login', { email: user.email, password }), 200)
	})

	test('wrong current passwords in change-password count as failed sign-ins from that IP', async () => {
		const { user, password, auth } = await createUser()
		const ip = freshIp()
		await attempts(5, () => visitor(api, { ip, auth }).post('/change-password', { currentPassword: 'Not-the-0ne', password: strongPassword }), 400)
		expectTooMany(await visitor(api, { ip, auth }).post('/change-password', { currentPassword: password, password: strongPassword }), 30)
		expect((await visitor(api, { ip }).post('/login', { email: user.email, password })).status).toBe(429)
		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(200)
	})

	test('counters keep no address in clear, and a pair’s key no IP either', async () => {
		const email = uniqueEmail('private')
		const ip = freshIp()
		await visitor(api, { ip }).post('/login', { email, password: 'Wrong-passw0rd' })
		const rows = await testDb().selectFrom('rateLimits').select('key').execute()
		expect(rows.some((row) => row.key === `loginAddress:${hashToken(email)}`)).toBe(true)
		expect(rows.some((row) => row.key === `loginPair:${pairKey(email, ip)}`)).toBe(true)
		expect(rows.filter((row) => row.key.includes(email) || (row.key.startsWith('loginPair') && row.key.includes(ip)))).toEqual([])
	})
})

describe('sign-ups', () => {
	test('10 per IP an hour; refused forms do not count; other IPs are not affected', async () => {
		const ip = freshIp()
		await attempts(3, () => visitor(api, { ip }).post('/register', { name: 'Spam', email: 'nope', password: strongPassword }), 400)
		await attempts(10, () => visitor(api, { ip }).post('/register', { name: 'Spam', email: uniqueEmail(), password: strongPassword }), 201)
		expectTooMany(await visitor(api, { ip }).post('/register', { name: 'Spam', email: uniqueEmail(), password: strongPassword }), 60 * 60)
		expect((await visitor(api).post('/register', { name: 'Fine', email: uniqueEmail(), password: strongPassword })).status).toBe(201)
	})
})

describe('password reset requests', () => {
	test('5 per address an hour, the same for addresses without an account', async () => {
		for (const email of [(await createUser()).user.email, uniqueEmail('nobody')]) {
			await attempts(5, () => visitor(api).post('/forgot-password', { email }), 202)
			expectTooMany(await visitor(api).post('/forgot-password', { email }), 60 * 60)
		}
	})

	test('20 per IP an hour', async () => {
		const ip = freshIp()
		await attempts(20, () => visitor(api, { ip }).post('/forgot-password', { email: uniqueEmail() }), 202)
		expectTooMany(await visitor(api, { ip }).post('/forgot-password', { email: uniqueEmail() }), 60 * 60)
		expect((await visitor(api).post('/forgot-password', { email: uniqueEmail() })).status).toBe(202)
	})
})

describe('mailed link guesses', () => {
	test('20 wrong tokens per IP an hour across verify and reset; then even a good token waits', async () => {
		const { user } = await createUser()
		await visitor(api).post('/forgot-password', { email: user.email })
		const { token } = linkIn(await waitForMail(api, user.email), 'reset-password')

		const ip = freshIp()
		const guess = (index: number) => {
			const path = ['/verify-email', '/validate-reset-token', '/reset-password'][index % 3]!
			return visitor(api, { ip }).post(path, { token: `guess-${index}`, password: strongPassword })
		}
		await attempts(20, guess, 400)
		expectTooMany(await visitor(api, { ip }).post('/validate-reset-token', { token }), 60 * 60)
		expect((await visitor(api).post('/validate-reset-token', { token })).status).toBe(200)
	})

	test('good tokens do not count', async () => {
		const { user } = await createUser()
		await visitor(api).post('/forgot-password', { email: user.email })
		const { token } = linkIn(await waitForMail(api, user.email), 'reset-password')
		const ip = freshIp()
		await attempts(22, () => visitor(api, { ip }).post('/validate-reset-token', { token }), 200)
	})
})

describe('verification mails sent again', () => {
	test('5 per account an hour', async () => {
		const { auth } = await createUser({ verified: false })
		await attempts(5, () => visitor(api, { auth }).post('/resend-verification'), 202)
		expectTooMany(await visitor(api, { auth }).post('/resend-verification'), 60 * 60)
	})
})
