import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hashToken } from '#api/auth/tokens.ts'
import { type AuthAnswer, type ErrorAnswer, linkIn, mailsTo, strongPassword, visitor, waitForMail } from './auth-support.ts'
import { createUser, startApi, testDb, uniqueEmail, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

const hour = 60 * 60 * 1000

async function register(options: { name?: string; locale?: string } = {}) {
	const email = uniqueEmail()
	const response = await visitor(api).post('/register', { name: options.name ?? 'Link Tester', email, password: strongPassword, locale: options.locale })
	expect(response.status).toBe(201)
	const body = response.body as AuthAnswer
	return { email, user: body.user, auth: { Authorization: `Bearer ${body.access_token}` } }
}

async function expire(token: string) {
	await testDb()
		.updateTable('accountTokens')
		.set({ expiresAt: new Date(Date.now() - 1000) })
		.where('tokenHash', '=', hashToken(token))
		.execute()
}

async function isVerified(userId: string) {
	const user = await testDb().selectFrom('users').select('emailVerifiedAt').where('id', '=', userId).executeTakeFirstOrThrow()
	return user.emailVerifiedAt !== null
}

describe('the verification mail', () => {
	test('is sent on sign-up, in English, with an absolute link to the locale’s page', async () => {
		const { email, user } = await register({ name: 'Grace' })
		const mail = await waitForMail(api, email)
		expect(mail.subject).toBe('Confirm your e-mail address')
		expect(mail.language).toBe('en-us')
		expect(mail.text).toContain('Hello Grace,')
		expect(mail.text).toContain('The link works once, within 24 hours.')
		expect(mail.text).toContain('crm.test')
		const { url, token } = linkIn(mail, 'verify-email')
		expect(`${url.origin}${url.pathname}`).toBe('http://crm.test/en-us/auth/verify-email')
		expect(mail.html).toContain(`href="http://crm.test/en-us/auth/verify-email?token=${token}"`)
		expect(mail.html).toMatch(/<html lang="en-US" dir="ltr">/)

		const stored = await testDb().selectFrom('accountTokens').selectAll().where('userId', '=', user.id).execute()
		expect(stored).toHaveLength(1)
		expect(stored[0]).toMatchObject({ purpose: 'verify_email', tokenHash: hashToken(token), usedAt: null })
		expect(JSON.stringify(stored)).not.toContain(token)
		expect(stored[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(24 * hour - 60_000)
		expect(stored[0]!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(24 * hour)
	})

	test('is written in the account’s language, right to left in Arabic', async () => {
		const arabic = await register({ name: 'أمل', locale: 'ar-eg' })
		const mail = await waitForMail(api, arabic.email)
		expect(mail.subject).toBe('تأكيد عنوان بريدك الإلكتروني')
		expect(mail.language).toBe('ar-eg')
		expect(mail.text).toContain('مرحبًا أمل،')
		expect(linkIn(mail, 'verify-email').url.pathname).toBe('/ar-eg/auth/verify-email')
		expect(mail.html).toMatch(/<html lang="ar-EG" dir="rtl">/)

		const french = await register({ locale: 'fr-x' })
		const frenchMail = await waitForMail(api, french.email)
		expect(frenchMail.subject).toBe('Confirmez votre adresse e-mail')
		expect(frenchMail.text).toContain('Le lien fonctionne une seule fois, pendant 24 heures.')
		expect(linkIn(frenchMail, 'verify-email').url.pathname).toBe('/fr-x/auth/verify-email')
	})

	test('escapes the name in its HTML', async () => {
		const { email } = await register({ name: '<img src=x onerror=alert(1)>' })
		const mail = await waitForMail(api, email)
		expect(mail.html).not.toContain('<img')
		expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;')
		expect(mail.text).toContain('Hello <img src=x onerror=alert(1)>,')
	})
})

describe('POST /v1/auth/verify-email', () => {
	test('the mailed token verifies the address, once', async () => {
		const { email, user, auth } = await register()
		const { token } = linkIn(await waitForMail(api, email), 'verify-email')
		const response = await visitor(api).post('/verify-email', { token })
		expect(response.status).toBe(200)
		expect(response.body).toEqual({ message: 'Your e-mail address is verified. Thank you!' })
		expect(((await visitor(api, { auth }).request('GET', '/profile')).body as AuthAnswer['user']).emailVerified).toBe(true)
		const used = await testDb().selectFrom('accountTokens').select('usedAt').where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow()
		expect(used.usedAt).toBeInstanceOf(Date)

		const again = await visitor(api, { language: 'fr-x' }).post('/verify-email', { token })
		expect(again.status).toBe(400)
		expect(again.body).toEqual({
			message: 'Ce lien de confirmation est invalide, a expiré ou a déjà été utilisé. Vous pouvez en demander un nouveau depuis votre tableau de bord.',
			statusCode: 400,
			details: null,
		})
		expect(user.emailVerified).toBe(false)
	})

	test('an expired token is refused and verifies nothing', async () => {
		const { email, user } = await register()
		const { token } = linkIn(await waitForMail(api, email), 'verify-email')
		await expire(token)
		const response = await visitor(api).post('/verify-email', { token })
		expect(response.status).toBe(400)
		expect((response.body as ErrorAnswer).message).toBe(
			'This confirmation link is invalid, has expired or has already been used. You can ask for a new one from your dashboard.',
		)
		expect(await isVerified(user.id)).toBe(false)
	})

	test('an unknown token, a reset token or no token are refused', async () => {
		expect((await visitor(api).post('/verify-email', { token: 'x'.repeat(43) })).status).toBe(400)
		const { user } = await createUser({ verified: false })
		await visitor(api).post('/forgot-password', { email: user.email })
		const { token: resetToken } = linkIn(await waitForMail(api, user.email), 'reset-password')
		expect((await visitor(api).post('/verify-email', { token: resetToken })).status).toBe(400)
		expect(await isVerified(user.id)).toBe(false)

		const missing = await visitor(api).post('/verify-email', {})
		expect(missing.status).toBe(400)
		expect((missing.body as ErrorAnswer).details?.fields).toEqual({ token: ['This field is required.'] })
	})
})

describe('POST /v1/auth/resend-verification', () => {
	test('answers 202, mails a new link and retires the old one', async () => {
		const { email, user, auth } = await register()
		const first = linkIn(await waitForMail(api, email), 'verify-email').token
		const response = await visitor(api, { auth, language: 'ar-eg' }).post('/resend-verification')
		expect(response.status).toBe(202)
		expect(response.body).toEqual({ message: 'أرسلنا إليك رابط تأكيد جديدًا. تحقّق من بريدك الوارد.' })
		const second = linkIn(await waitForMail(api, email, 2), 'verify-email').token
		expect(second).not.toBe(first)

		expect((await visitor(api).post('/verify-email', { token: first })).status).toBe(400)
		expect((await visitor(api).post('/verify-email', { token: second })).status).toBe(200)
		expect(await isVerified(user.id)).toBe(true)
	})

	test('answers 409 when the address is already verified, and sends nothing', async () => {
		const { user, auth } = await createUser({ verified: true })
		const response = await visitor(api, { auth }).post('/resend-verification')
		expect(response.status).toBe(409)
		expect(response.body).toEqual({ message: 'Your e-mail address is already verified.', statusCode: 409, details: null })
		expect(await mailsTo(api, user.email)).toEqual([])
	})

	test('needs a session', async () => {
		expect((await visitor(api).post('/resend-verification')).status).toBe(401)
	})
})

describe('POST /v1/auth/forgot-password', () => {
	test('answers the same whether or not the address has an account, and mails only a real one', async () => {
		const { user } = await createUser()
		const nobody = uniqueEmail('nobody')
		const unknown = await visitor(api).post('/forgot-password', { email: nobody })
		const known = await visitor(api).post('/forgot-password', { email: user.email })
		expect(known.status).toBe(202)
		expect(unknown.status).toBe(202)
		expect(known.body).toEqual({ message: 'If an account exists for this address, we have sent it a link to reset the password. Check your inbox.' })
		expect(unknown.body).toEqual(known.body)
		expect([...known.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort())

		await waitForMail(api, user.email)
		await new Promise((resolve) => setTimeout(resolve, 200))
		expect(await mailsTo(api, nobody)).toEqual([])
	})

	test('mails a one-hour link in the account’s language', async () => {
		const { user } = await createUser({ name: 'Rémi' })
		await testDb().updateTable('users').set({ locale: 'fr-x' }).where('id', '=', user.id).execute()
		await visitor(api).post('/forgot-password', { email: user.email.toUpperCase() })
		const mail = await waitForMail(api, user.email)
		expect(mail.subject).toBe('Réinitialisez votre mot de passe')
		expect(mail.language).toBe('fr-x')
		expect(mail.text).toContain('Bonjour Rémi,')
		const { url, token } = linkIn(mail, 'reset-password')
		expect(`${url.origin}${url.pathname}`).toBe('http://crm.test/fr-x/auth/reset-password')
		const stored = await testDb().selectFrom('accountTokens').selectAll().where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow()
		expect(stored).toMatchObject({ userId: user.id, purpose: 'reset_password', usedAt: null })
		expect(stored.expiresAt.getTime() - Date.now()).toBeGreaterThan(hour - 60_000)
		expect(stored.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(hour)
	})

	test('a new request retires the earlier link', async () => {
		const { user } = await createUser()
		await visitor(api).post('/forgot-password', { email: user.email })
		const first = linkIn(await waitForMail(api, user.email), 'reset-password').token
		await visitor(api).post('/forgot-password', { email: user.email })
		const second = linkIn(await waitForMail(api, user.email, 2), 'reset-password').token
		expect((await visitor(api).post('/validate-reset-token', { token: first })).status).toBe(400)
		expect((await visitor(api).post('/validate-reset-token', { token: second })).status).toBe(200)
	})

	test('an invalid address is a 400', async () => {
		const response = await visitor(api).post('/forgot-password', { email: 'nope' })
		expect(response.status).toBe(400)
		expect((response.body as ErrorAnswer).details?.fields).toEqual({ email: ['Enter a valid e-mail address.'] })
	})
})

async function resetTokenFor(email: string, count = 1) {
	await visitor(api).post('/forgot-password', { email })
	return linkIn(await waitForMail(api, email, count), 'reset-password').token
}

describe('POST /v1/auth/validate-reset-token', () => {
	test('a live token is valid, and checking it does not use it up', async () => {
		const { user } = await createUser()
		const token = await resetTokenFor(user.email)
		for (let check = 0; check < 2; check++) {
			const response = await visitor(api).post('/validate-reset-token', { token })
			expect(response.status).toBe(200)
			expect(response.body).toEqual({ valid: true })
		}
	})

	test('unknown, expired and verification tokens are refused with one clear message', async () => {
		const expected = {
			message: 'This password reset link is invalid, has expired or has already been used. Ask for a new one.',
			statusCode: 400,
			details: null,
		}
		expect((await visitor(api).post('/validate-reset-token', { token: 'unknown-token' })).body).toEqual(expected)

		const { user } = await createUser()
		const token = await resetTokenFor(user.email)
		await expire(token)
		const expired = await visitor(api).post('/validate-reset-token', { token })
		expect(expired.status).toBe(400)
		expect(expired.body).toEqual(expected)

		const { email } = await register()
		const verifyToken = linkIn(await waitForMail(api, email), 'verify-email').token
		expect((await visitor(api).post('/validate-reset-token', { token: verifyToken })).body).toEqual(expected)

		const arabic = await visitor(api, { language: 'ar-eg' }).post('/validate-reset-token', { token: 'unknown-token' })
		expect((arabic.body as ErrorAnswer).message).toBe('رابط إعادة تعيين كلمة المرور هذا غير صالح أو منتهي الصلاحية أو سبق استخدامه. اطلب رابطًا جديدًا.')
	})
})

describe('POST /v1/auth/reset-password', () => {
	test('sets the new password, uses the token, signs out everywhere and verifies the address', async () => {
		const { user, password, auth } = await createUser({ verified: false })
		const second = ((await visitor(api).post('/login', { email: user.email, password })).body as AuthAnswer).access_token
		const token = await resetTokenFor(user.email)

		const response = await visitor(api).post('/reset-password', { token, password: 'Brand-n3w-secret' })
		expect(response.status).toBe(200)
		expect(response.body).toEqual({ message: 'Your password has been changed. Sign in with your new password.' })

		expect((await visitor(api, { auth }).request('GET', '/profile')).status).toBe(401)
		expect((await visitor(api, { auth: { Authorization: `Bearer ${second}` } }).request('GET', '/profile')).status).toBe(401)
		expect(await testDb().selectFrom('sessions').select('id').where('userId', '=', user.id).execute()).toEqual([])

		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(401)
		const signedIn = await visitor(api).post('/login', { email: user.email, password: 'Brand-n3w-secret' })
		expect(signedIn.status).toBe(200)
		expect((signedIn.body as AuthAnswer).user.emailVerified).toBe(true)

		const stored = await testDb().selectFrom('accountTokens').select('usedAt').where('tokenHash', '=', hashToken(token)).executeTakeFirstOrThrow()
		expect(stored.usedAt).toBeInstanceOf(Date)
		const reused = await visitor(api).post('/reset-password', { token, password: 'An0ther-secret' })
		expect(reused.status).toBe(400)
		expect((reused.body as ErrorAnswer).message).toBe('This password reset link is invalid, has expired or has already been used. Ask for a new one.')
	})

	test('an expired token changes nothing', async () => {
		const { user, password, auth } = await createUser()
		const token = await resetTokenFor(user.email)
		await expire(token)
		const response = await visitor(api).post('/reset-password', { token, password: 'Brand-n3w-secret' })
		expect(response.status).toBe(400)
		expect((await visitor(api, { auth }).request('GET', '/profile')).status).toBe(200)
		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(200)
	})

	test('a weak password is refused with every failing rule, and the link still works afterwards', async () => {
		const { user } = await createUser()
		const token = await resetTokenFor(user.email)
		const weak = await visitor(api).post('/reset-password', { token, password: 'short' })
		expect(weak.status).toBe(400)
		expect((weak.body as ErrorAnswer).details?.fields).toEqual({
			password: [
				'Password must be at least 8 characters',
				'Password must include an uppercase letter',
				'Password must include a number',
				'Password must include a special character',
			],
		})
		expect((await visitor(api).post('/reset-password', { token, password: 'Brand-n3w-secret' })).status).toBe(200)
	})

	test('an unknown token is refused', async () => {
		const response = await visitor(api).post('/reset-password', { token: 'x'.repeat(43), password: 'Brand-n3w-secret' })
		expect(response.status).toBe(400)
	})
})
