import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { hashToken } from '#api/auth/tokens.ts'
import { type AuthAnswer, type ErrorAnswer, linkIn, strongPassword, visitor, waitForMail } from './auth-support.ts'
import { createUser, startApi, testDb, uniqueEmail, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

async function passwordMessages(password: string, language?: string): Promise<string[] | undefined> {
	const response = await visitor(api, { language }).post('/register', { name: 'Rules', email: uniqueEmail(), password })
	expect(response.status).toBe(400)
	return (response.body as ErrorAnswer).details?.fields?.password
}

// Each password breaks exactly one rule of docs/specification.txt, section 5.
const cases = [
	{
		password: 'aB3!aB3',
		en: 'Password must be at least 8 characters',
		ar: 'يجب أن تتكون كلمة المرور من 8 أحرف على الأقل',
		fr: 'Le mot de passe doit contenir au moins 8 caractères',
	},
	{
		password: 'AB3!AB3!',
		en: 'Password must include a lowercase letter',
		ar: 'يجب أن تحتوي كلمة المرور على حرف صغير',
		fr: 'Le mot de passe doit contenir une lettre minuscule',
	},
	{
		password: 'ab3!ab3!',
		en: 'Password must include an uppercase letter',
		ar: 'يجب أن تحتوي كلمة المرور على حرف كبير',
		fr: 'Le mot de passe doit contenir une lettre majuscule',
	},
	{ password: 'aBc!aBc!', en: 'Password must include a number', ar: 'يجب أن تحتوي كلمة المرور على رقم', fr: 'Le mot de passe doit contenir un chiffre' },
	{
		password: 'aB3xaB3x',
		en: 'Password must include a special character',
		ar: 'يجب أن تحتوي كلمة المرور على رمز خاص',
		fr: 'Le mot de passe doit contenir un caractère spécial',
	},
	{
		password: `aB3!${'x'.repeat(125)}`,
		en: 'Password must be at most 128 characters',
		ar: 'يجب ألا تزيد كلمة المرور عن 128 حرفًا',
		fr: 'Le mot de passe doit contenir au plus 128 caractères',
	},
]

describe('the password rule, as the API answers it', () => {
	test.each(cases)('$en', async ({ password, en, ar, fr }) => {
		expect(await passwordMessages(password)).toEqual([en])
		expect(await passwordMessages(password, 'ar-EG,ar;q=0.9')).toEqual([ar])
		expect(await passwordMessages(password, 'fr-x')).toEqual([fr])
	})

	test('every failing rule is reported at once', async () => {
		expect(await passwordMessages('abc')).toEqual([
			'Password must be at least 8 characters',
			'Password must include an uppercase letter',
			'Password must include a number',
			'Password must include a special character',
		])
	})

	test('8 and 128 characters are accepted', async () => {
		for (const password of ['aB3!aB3!', `aB3!${'x'.repeat(124)}`]) {
			const response = await visitor(api).post('/register', { name: 'Edge', email: uniqueEmail(), password })
			expect(response.status).toBe(201)
		}
	})
})

describe('POST /v1/auth/change-password', () => {
	test('changes the password, keeps this session and signs out the others', async () => {
		const { user, password, auth } = await createUser()
		const other = ((await visitor(api).post('/login', { email: user.email, password })).body as AuthAnswer).access_token

		const response = await visitor(api, { auth }).post('/change-password', { currentPassword: password, password: 'Fresh-passw0rd' })
		expect(response.status).toBe(204)
		expect(response.body).toBeNull()

		expect((await visitor(api, { auth }).request('GET', '/profile')).status).toBe(200)
		expect((await visitor(api, { auth: { Authorization: `Bearer ${other}` } }).request('GET', '/profile')).status).toBe(401)
		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(401)
		expect((await visitor(api).post('/login', { email: user.email, password: 'Fresh-passw0rd' })).status).toBe(200)
	})

	test('a wrong current password is a 400 beside that field, and changes nothing', async () => {
		const { user, password, auth } = await createUser()
		const response = await visitor(api, { auth }).post('/change-password', { currentPassword: 'Not-the-0ne', password: 'Fresh-passw0rd' })
		expect(response.status).toBe(400)
		const message = 'Your current password is incorrect.'
		expect(response.body).toEqual({ message, statusCode: 400, details: { source: 'body', fields: { currentPassword: [message] } } })
		const french = await visitor(api, { auth, language: 'fr-x' }).post('/change-password', { currentPassword: 'Not-the-0ne', password: 'Fresh-passw0rd' })
		expect((french.body as ErrorAnswer).details?.fields?.currentPassword).toEqual(['Votre mot de passe actuel est incorrect.'])
		expect((await visitor(api).post('/login', { email: user.email, password })).status).toBe(200)
	})

	test('the new password must meet the rule; the current one is required', async () => {
		const { auth } = await createUser()
		const response = await visitor(api, { auth }).post('/change-password', { password: 'weakling' })
		expect(response.status).toBe(400)
		expect((response.body as ErrorAnswer).details?.fields).toEqual({
			currentPassword: ['This field is required.'],
			password: ['Password must include an uppercase letter', 'Password must include a number', 'Password must include a special character'],
		})
	})

	test('retires a pending password reset link', async () => {
		const { user, password, auth } = await createUser()
		await visitor(api).post('/forgot-password', { email: user.email })
		const { token } = linkIn(await waitForMail(api, user.email), 'reset-password')
		expect((await visitor(api, { auth }).post('/change-password', { currentPassword: password, password: strongPassword })).status).toBe(204)
		expect((await visitor(api).post('/validate-reset-token', { token })).status).toBe(400)
		expect(await testDb().selectFrom('accountTokens').select('id').where('tokenHash', '=', hashToken(token)).execute()).toEqual([])
	})

	test('needs a session', async () => {
		expect((await visitor(api).post('/change-password', { currentPassword: 'x', password: strongPassword })).status).toBe(401)
	})
})
