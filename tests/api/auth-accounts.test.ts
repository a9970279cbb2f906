import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hashToken } from '#api/auth/tokens.ts'
import { type AuthAnswer, type ErrorAnswer, strongPassword, visitor } from './auth-support.ts'
import { createUser, createWorkspace, startApi, testDb, uniqueEmail, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

describe('POST /v1/auth/register', () => {
	test('creates the account, signs it in and answers 201 with access_token and user', async () => {
		const email = uniqueEmail('ada')
		const response = await visitor(api, { language: 'fr-FR,fr;q=0.9' }).post('/register', {
			name: '  Ada Lovelace  ',
			email: `  ${email.toUpperCase()} `,
			password: strongPassword,
		})
		expect(response.status).toBe(201)
		const body = response.body as AuthAnswer
		expect(Object.keys(body).sort()).toEqual(['access_token', 'user'])
		expect(body.access_token).toMatch(/^[\w-]{43}$/)
		expect(body.user).toMatchObject({ name: 'Ada Lovelace', emailVerified: false, locale: 'fr-x', theme: 'zinc', workspace: null })
		expect(body.user.email.toLowerCase()).toBe(email)

		const profile = await api.request('GET', '/v1/auth/profile', { headers: { Authorization: `Bearer ${body.access_token}` } })
		expect(profile.status).toBe(200)
		expect(profile.body).toEqual(body.user)

		const stored = await testDb().selectFrom('users').selectAll().where('id', '=', body.user.id).executeTakeFirstOrThrow()
		expect(stored.passwordHash).toMatch(/^\$argon2id\$/)
		expect(stored.passwordHash).not.toContain(strongPassword)
	})

	test('keeps only the SHA-256 of the access token', async () => {
		const response = await visitor(api).post('/register', { name: 'Hash', email: uniqueEmail(), password: strongPassword })
		const { access_token: token, user } = response.body as AuthAnswer
		const sessions = await testDb().selectFrom('sessions').selectAll().where('userId', '=', user.id).execute()
		expect(sessions).toHaveLength(1)
		expect(sessions[0]!.tokenHash).toBe(hashToken(token))
		expect(JSON.stringify(sessions)).not.toContain(token)
	})

	test('an explicit locale wins over Accept-Language; only the three locales are accepted', async () => {
		const chosen = await visitor(api, { language: 'fr' }).post('/register', { name: 'Amal', email: uniqueEmail(), password: strongPassword, locale: 'ar-eg' })
		expect((chosen.body as AuthAnswer).user.locale).toBe('ar-eg')
		const english = await visitor(api).post('/register', { name: 'Ann', email: uniqueEmail(), password: strongPassword })
		expect((english.body as AuthAnswer).user.locale).toBe('en-us')

		const refused = await visitor(api).post('/register', { name: 'Ann', email: uniqueEmail(), password: strongPassword, locale: 'de-de' })
		expect(refused.status).toBe(400)
		expect((refused.body as ErrorAnswer).details?.fields).toEqual({ locale: ['Choose one of: en-us, ar-eg, fr-x.'] })
	})

	test('a taken address answers 409 with the message beside the email field, whatever its case', async () => {
		const { user } = await createUser()
		const english = await visitor(api).post('/register', { name: 'Again', email: user.email.toUpperCase(), password: strongPassword })
		expect(english.status).toBe(409)
		const message = 'An account with this e-mail address already exists. Sign in or reset your password.'
		expect(english.body).toEqual({ message, statusCode: 409, details: { source: 'body', fields: { email: [message] } } })

		const arabic = await visitor(api, { language: 'ar-eg' }).post('/register', { name: 'Again', email: user.email, password: strongPassword })
		expect(arabic.status).toBe(409)
		expect((arabic.body as ErrorAnswer).message).toBe('يوجد حساب بهذا البريد الإلكتروني بالفعل. سجّل الدخول أو أعد تعيين كلمة المرور.')
		const count = await testDb()
			.selectFrom('users')
			.select((eb) => eb.fn.countAll<number>().as('count'))
			.where('email', '=', user.email)
			.executeTakeFirstOrThrow()
		expect(count.count).toBe(1)
	})

	test('each field gets its own translated message', async () => {
		const response = await visitor(api).post('/register', { name: '   ', email: 'not-an-address' })
		expect(response.status).toBe(400)
		expect(response.body).toEqual({
			message: 'Some fields are not valid.',
			statusCode: 400,
			details: {
				source: 'body',
				fields: { name: ['This field is required.'], email: ['Enter a valid e-mail address.'], password: ['This field is required.'] },
			},
		})
		const long = await visitor(api).post('/register', { name: 'x'.repeat(81), email: uniqueEmail(), password: strongPassword })
		expect((long.body as ErrorAnswer).details?.fields).toEqual({ name: ['Must be at most 80 characters.'] })
		const exactly80 = await visitor(api).post('/register', { name: 'x'.repeat(80), email: uniqueEmail(), password: strongPassword })
		expect(exactly80.status).toBe(201)
	})
})

describe('POST /v1/auth/login', () => {
	test('answers 200 with a new access token and the user, verified or not', async () => {
		const { user, password } = await createUser({ verified: false })
		const response = await visitor(api).post('/login', { email: ` ${user.email.toUpperCase()} `, password })
		expect(response.status).toBe(200)
		const body = response.body as AuthAnswer
		expect(body.user).toMatchObject({ id: user.id, email: user.email, emailVerified: false, workspace: null })
		const session = await testDb().selectFrom('sessions').select(['tokenHash', 'ip']).where('tokenHash', '=', hashToken(body.access_token)).executeTakeFirst()
		expect(session).toBeDefined()
		const profile = await api.request('GET', '/v1/auth/profile', { headers: { Authorization: `Bearer ${body.access_token}` } })
		expect(profile.status).toBe(200)
	})

	test('the user carries their current workspace with their role in it', async () => {
		const workspace = await createWorkspace('Login Co')
		const { user, password } = await createUser({ workspaceId: workspace.id, role: 'admin' })
		const response = await visitor(api).post('/login', { email: user.email, password })
		expect((response.body as AuthAnswer).user.workspace).toMatchObject({ id: workspace.id, name: 'Login Co', slug: workspace.slug, role: 'admin' })
	})

	test('a wrong password and an unknown address get the same 401 and message', async () => {
		const { user } = await createUser()
		const wrongPassword = await visitor(api).post('/login', { email: user.email, password: 'Wrong-passw0rd' })
		const unknownAddress = await visitor(api).post('/login', { email: uniqueEmail('nobody'), password: 'Wrong-passw0rd' })
		expect(wrongPassword.status).toBe(401)
		expect(unknownAddress.status).toBe(401)
		expect(wrongPassword.body).toEqual({ message: 'The e-mail address or password is incorrect.', statusCode: 401, details: null })
		expect(unknownAddress.body).toEqual(wrongPassword.body)

		const french = await visitor(api, { language: 'fr-x' }).post('/login', { email: user.email, password: 'Wrong-passw0rd' })
		expect((french.body as ErrorAnswer).message).toBe('L’adresse e-mail ou le mot de passe est incorrect.')
		const arabic = await visitor(api, { language: 'ar-eg' }).post('/login', { email: uniqueEmail(), password: 'x' })
		expect((arabic.body as ErrorAnswer).message).toBe('البريد الإلكتروني أو كلمة المرور غير صحيحة.')
	})

	test('missing fields are a 400, not a 401', async () => {
		const response = await visitor(api).post('/login', { email: 'someone@example.test' })
		expect(response.status).toBe(400)
		expect((response.body as ErrorAnswer).details?.fields).toEqual({ password: ['This field is required.'] })
	})
})

describe('POST /v1/auth/logout', () => {
	test('revokes the session it is called with, and only that one', async () => {
		const { user, password, auth } = await createUser()
		const other = ((await visitor(api).post('/login', { email: user.email, password })).body as AuthAnswer).access_token
		const response = await visitor(api, { auth }).post('/logout')
		expect(response.status).toBe(204)
		expect((await visitor(api, { auth }).request('GET', '/profile')).status).toBe(401)
		expect((await visitor(api, { auth }).post('/logout')).status).toBe(401)
		expect((await visitor(api, { auth: { Authorization: `Bearer ${other}` } }).request('GET', '/profile')).status).toBe(200)
	})

	test('needs a session', async () => {
		const response = await visitor(api).post('/logout')
		expect(response.status).toBe(401)
		expect(response.headers.get('www-authenticate')).toBe('Bearer')
	})
})

describe('GET /v1/auth/profile', () => {
	test('answers the signed-in user, without secrets', async () => {
		const { user, auth } = await createUser({ name: 'Profile Person' })
		const response = await visitor(api, { auth }).request('GET', '/profile')
		expect(response.status).toBe(200)
		expect(response.body).toEqual({
			id: user.id,
			name: 'Profile Person',
			email: user.email,
			emailVerified: true,
			locale: 'en-us',
			theme: 'zinc',
			twoFactorEnabled: false,
			notificationSound: false,
			workspace: null,
			createdAt: user.createdAt.toISOString(),
		})
	})

	test('refuses a missing or unknown token with the translated 401', async () => {
		const missing = await visitor(api).request('GET', '/profile')
		expect(missing.status).toBe(401)
		const unknown = await visitor(api, { language: 'fr-x', auth: { Authorization: 'Bearer not-a-real-token' } }).request('GET', '/profile')
		expect(unknown.status).toBe(401)
		expect((unknown.body as ErrorAnswer).message).toBe('Votre session a expiré. Veuillez vous reconnecter.')
	})
})
