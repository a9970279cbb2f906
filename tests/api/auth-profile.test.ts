import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AuthAnswer, type ErrorAnswer, visitor } from './auth-support.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type UserJson = AuthAnswer['user']

describe('PATCH /v1/auth/profile', () => {
	test('changes name, locale and theme, and answers the whole user', async () => {
		const workspace = await createWorkspace('Profile Co')
		const { user, auth } = await createUser({ workspaceId: workspace.id, role: 'owner' })
		const response = await visitor(api, { auth }).request('PATCH', '/profile', { name: '  Nour  ', locale: 'ar-eg', theme: 'violet' })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ id: user.id, name: 'Nour', locale: 'ar-eg', theme: 'violet', workspace: { id: workspace.id, role: 'owner' } })

		const stored = await testDb().selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow()
		expect(stored).toMatchObject({ name: 'Nour', locale: 'ar-eg', theme: 'violet' })
		expect(stored.updatedAt.getTime()).toBeGreaterThan(user.updatedAt.getTime())
		expect((await visitor(api, { auth }).request('GET', '/profile')).body).toEqual(response.body)
	})

	test('changes only what it is given', async () => {
		const { auth } = await createUser({ name: 'Keep Me' })
		const response = await visitor(api, { auth }).request('PATCH', '/profile', { theme: 'rose' })
		expect(response.body).toMatchObject({ name: 'Keep Me', locale: 'en-us', theme: 'rose' })
		const nothing = await visitor(api, { auth }).request('PATCH', '/profile', {})
		expect(nothing.status).toBe(200)
		expect((nothing.body as UserJson).theme).toBe('rose')
	})

	test('refuses unknown fields, themes, locales and empty names, in the caller’s language', async () => {
		const { user, auth } = await createUser({ name: 'Unchanged' })
		const response = await visitor(api, { auth }).request('PATCH', '/profile', { name: ' ', theme: 'pink', locale: 'de', email: 'new@example.test' })
		expect(response.status).toBe(400)
		expect(response.body).toEqual({
			message: 'Some fields are not valid.',
			statusCode: 400,
			details: {
				source: 'body',
				fields: {
					name: ['This field is required.'],
					theme: ['Choose one of: zinc, slate, stone, gray, neutral, red, rose, orange, green, blue, yellow, violet.'],
					locale: ['Choose one of: en-us, ar-eg, fr-x.'],
					_: ['Unknown field: email.'],
				},
			},
		})
		const french = await visitor(api, { auth, language: 'fr-x' }).request('PATCH', '/profile', { name: 'x'.repeat(81) })
		expect((french.body as ErrorAnswer).details?.fields).toEqual({ name: ['Au plus 80 caractères.'] })

		const stored = await testDb().selectFrom('users').select(['name', 'email', 'theme']).where('id', '=', user.id).executeTakeFirstOrThrow()
		expect(stored).toEqual({ name: 'Unchanged', email: user.email, theme: 'zinc' })
	})

	test('cannot touch secrets or verification', async () => {
		const { auth } = await createUser({ verified: false })
		for (const field of ['passwordHash', 'emailVerified', 'emailVerifiedAt', 'id']) {
			const response = await visitor(api, { auth }).request('PATCH', '/profile', { [field]: field === 'id' ? 'x' : true })
			expect(response.status).toBe(400)
			expect((response.body as ErrorAnswer).details?.fields?._).toEqual([`Unknown field: ${field}.`])
		}
	})

	test('needs a session', async () => {
		expect((await visitor(api).request('PATCH', '/profile', { theme: 'rose' })).status).toBe(401)
	})
})
