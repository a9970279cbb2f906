import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, currentWorkspaceOf } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type WorkspaceBody = { id: string; name: string; slug: string; timezone: string; defaultLocale: string; logoColor: string; role: string; createdAt: string }

async function create(auth: Record<string, string>, body: Record<string, unknown>, headers: Record<string, string> = {}) {
	const response = await api.request('POST', '/v1/workspaces', { body, headers: { ...auth, ...headers } })
	return { ...response, workspace: response.body as WorkspaceBody }
}

describe('POST /v1/workspaces', () => {
	test('creates a workspace owned by the caller, which becomes their current one', async () => {
		const { user, auth } = await createUser()
		const response = await create(auth, { name: '  Nile Trading  ', timezone: 'africa/cairo', defaultLocale: 'ar-eg' })
		expect(response.status).toBe(201)
		expect(response.workspace).toMatchObject({ name: 'Nile Trading', slug: 'nile-trading', timezone: 'Africa/Cairo', defaultLocale: 'ar-eg', role: 'owner' })
		expect(response.workspace.logoColor).toMatch(/^#[0-9a-f]{6}$/)
		expect(await currentWorkspaceOf(user.id)).toBe(response.workspace.id)
		const member = await testDb().selectFrom('members').selectAll().where('workspaceId', '=', response.workspace.id).execute()
		expect(member).toEqual([expect.objectContaining({ userId: user.id, role: 'owner' })])

		const profile = await api.request('PUT', '/v1/workspaces/switch', { body: { workspaceId: response.workspace.id }, headers: auth })
		expect(profile.body).toMatchObject({ id: user.id, workspace: { id: response.workspace.id, role: 'owner' } })
	})

	test('defaults to UTC and the request locale', async () => {
		const { auth } = await createUser()
		const french = await create(auth, { name: 'Boulangerie' }, { 'Accept-Language': 'fr-FR' })
		expect(french.workspace).toMatchObject({ timezone: 'UTC', defaultLocale: 'fr-x' })
		const english = await create(auth, { name: 'Bakery' })
		expect(english.workspace.defaultLocale).toBe('en-us')
	})

	test('derives unique slugs: accents stripped, duplicates numbered, Arabic names get a random base', async () => {
		const { auth } = await createUser()
		const name = `Café Lumière ${Date.now().toString(36)}`
		const expected = name.toLowerCase().replace('é', 'e').replace('è', 'e').replace(/ /g, '-')
		const first = await create(auth, { name })
		const second = await create(auth, { name })
		const third = await create(auth, { name: name.toUpperCase() })
		expect([first.workspace.slug, second.workspace.slug, third.workspace.slug]).toEqual([expected, `${expected}-2`, `${expected}-3`])

		const arabic = await create(auth, { name: 'شركة النيل للتجارة' })
		const arabicAgain = await create(auth, { name: 'شركة النيل للتجارة' })
		expect(arabic.status).toBe(201)
		expect(arabic.workspace.name).toBe('شركة النيل للتجارة')
		expect(arabic.workspace.slug).toMatch(/^workspace-[0-9a-f]{6}$/)
		expect(arabicAgain.workspace.slug).toMatch(/^workspace-[0-9a-f]{6}/)
		expect(arabicAgain.workspace.slug).not.toBe(arabic.workspace.slug)
	})

	test('workspaces created at the same moment with the same name still get distinct slugs', async () => {
		const { auth } = await createUser()
		const name = `Rush ${Date.now().toString(36)}`
		const results = await Promise.all(Array.from({ length: 6 }, () => create(auth, { name })))
		expect(results.map((result) => result.status)).toEqual([201, 201, 201, 201, 201, 201])
		expect(new Set(results.map((result) => result.workspace.slug)).size).toBe(6)
	})

	test('refuses bad input with translated field messages', async () => {
		const { auth } = await createUser()
		const response = await create(auth, { name: ' x ', timezone: 'Mars/Olympus', defaultLocale: 'de-de' })
		expect(response.status).toBe(400)
		expect(response.body).toEqual({
			message: 'Some fields are not valid.',
			statusCode: 400,
			details: {
				source: 'body',
				fields: {
					name: ['Must be at least 2 characters.'],
					timezone: ['Choose a valid time zone, such as Europe/Paris.'],
					defaultLocale: ['Choose one of: en-us, ar-eg, fr-x.'],
				},
			},
		})
		const long = await create(auth, { name: 'x'.repeat(61) }, { 'Accept-Language': 'fr-x' })
		expect(long.body).toMatchObject({ details: { fields: { name: ['Au plus 60 caractères.'] } } })
		const arabic = await create(auth, { timezone: '+01:00' }, { 'Accept-Language': 'ar-eg' })
		expect(arabic.body).toMatchObject({ details: { fields: { name: ['هذا الحقل مطلوب.'], timezone: ['اختر منطقة زمنية صالحة، مثل Africa/Cairo.'] } } })
	})

	test('needs a session', async () => {
		const response = await api.request('POST', '/v1/workspaces', { body: { name: 'Nope' } })
		expect(response.status).toBe(401)
		expect(response.headers.get('www-authenticate')).toBe('Bearer')
	})
})

describe('GET /v1/user/workspaces', () => {
	let user: Awaited<ReturnType<typeof createUser>>
	const names = ['Zeta', 'alpha', 'Café Central', 'CAFE noir', 'Beta', '100% Organic', 'under_score', 'Ωmega', 'Délices', 'Gamma', 'Eta', 'Theta']
	beforeAll(async () => {
		user = await createUser()
		for (const name of names) expect((await create(user.auth, { name })).status).toBe(201)
		// Someone else's workspace never shows up in the list.
		const stranger = await createUser()
		await create(stranger.auth, { name: 'Café of a stranger' })
	})

	async function list(query = '', headers: Record<string, string> = {}) {
		return api.request('GET', `/v1/user/workspaces${query}`, { headers: { ...user.auth, ...headers } })
	}

	test('defaults to page 1 of 10, sorted by name without regard to case or accents, with the role', async () => {
		const response = await list()
		expect(response.status).toBe(200)
		const body = response.body as { workspaces: WorkspaceBody[]; page: number; limit: number; total: number }
		expect(body).toMatchObject({ page: 1, limit: 10, total: 12 })
		expect(body.workspaces.map((workspace) => workspace.name)).toEqual([
			'100% Organic',
			'alpha',
			'Beta',
			'Café Central',
			'CAFE noir',
			'Délices',
			'Eta',
			'Gamma',
			'Theta',
			'under_score',
		])
		expect(body.workspaces.every((workspace) => workspace.role === 'owner')).toBe(true)
		expect(Object.keys(body.workspaces[0]!).sort()).toEqual([
			'agentsSeeOwnTeams',
			'businessHours',
			'country',
			'countryChosen',
			'createdAt',
			'defaultCapacity',
			'defaultLocale',
			'id',
			'logoColor',
			'name',
			'reopenAssignment',
			'replyWaitingAfter',
			'requireTwoFactor',
			'role',
			'slug',
			'timezone',
		])
	})

	test('pages add up to the total, with no repeats', async () => {
		const seen: string[] = []
		for (let page = 1; page <= 5; page++) {
			const response = await list(`?page=${page}&limit=3`)
			const body = response.body as { workspaces: WorkspaceBody[]; total: number; page: number; limit: number }
			expect(body).toMatchObject({ total: 12, page, limit: 3 })
			expect(body.workspaces).toHaveLength(page <= 4 ? 3 : 0)
			seen.push(...body.workspaces.map((workspace) => workspace.id))
		}
		expect(new Set(seen).size).toBe(12)
		const last = await list('?page=2&limit=10')
		expect((last.body as { workspaces: unknown[] }).workspaces).toHaveLength(2)
		const all = await list('?limit=100')
		expect((all.body as { workspaces: unknown[] }).workspaces).toHaveLength(12)
	})

	test('empty parameters are ignored, as the web client drops them', async () => {
		const response = await list('?page=&limit=&search=')
		expect(response.body).toMatchObject({ page: 1, limit: 10, total: 12 })
	})

	test.each([
		['?page=0', { page: ['Must be at least 1.'] }],
		['?page=-3', { page: ['Must be at least 1.'] }],
		['?limit=1000', { limit: ['Must be at most 100.'] }],
		['?limit=0', { limit: ['Must be at least 1.'] }],
		['?page=abc&limit=ten', { page: ['This value is not valid.'], limit: ['This value is not valid.'] }],
		['?page=1.5', { page: ['This value is not valid.'] }],
	])('%s is refused with 400', async (query, fields) => {
		const response = await list(query)
		expect(response.status).toBe(400)
		expect(response.body).toEqual({ message: 'Some fields are not valid.', statusCode: 400, details: { source: 'query', fields } })
	})

	test('refusals are translated', async () => {
		const response = await list('?limit=1000', { 'Accept-Language': 'ar-eg' })
		expect(response.body).toMatchObject({ message: 'بعض الحقول غير صالحة.', details: { fields: { limit: ['يجب ألا يزيد عن 100.'] } } })
	})

	test.each([
		['cafe', ['Café Central', 'CAFE noir']],
		['CAFÉ', ['Café Central', 'CAFE noir']],
		['delice', ['Délices']],
		['ωMEGA', ['Ωmega']],
		['100%', ['100% Organic']],
		['%', ['100% Organic']],
		['_', ['under_score']],
		['u_der', []],
		['eta', ['Beta', 'Eta', 'Theta', 'Zeta']],
		['nothing like it', []],
	])('search %j is a case- and accent-insensitive substring', async (search, expected) => {
		const response = await list(`?search=${encodeURIComponent(search)}`)
		const body = response.body as { workspaces: WorkspaceBody[]; total: number }
		expect(body.workspaces.map((workspace) => workspace.name)).toEqual(expected)
		expect(body.total).toBe(expected.length)
	})

	test('a search pages like the full list', async () => {
		const response = await list('?search=eta&limit=3&page=2')
		expect(response.body).toMatchObject({ total: 4, page: 2, limit: 3, workspaces: [{ name: 'Zeta' }] })
	})

	test('a user without workspaces gets an empty list', async () => {
		const { auth } = await createUser()
		const response = await api.request('GET', '/v1/user/workspaces', { headers: auth })
		expect(response.body).toEqual({ workspaces: [], page: 1, limit: 10, total: 0 })
	})

	test('needs a session', async () => {
		expect((await api.request('GET', '/v1/user/workspaces')).status).toBe(401)
	})
})

describe('GET and PATCH /v1/workspaces/{id}', () => {
	test('a member reads the workspace with their own role', async () => {
		const team = await createTeam()
		const response = await api.request('GET', `/v1/workspaces/${team.workspace.id}`, { headers: team.agent.auth })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ id: team.workspace.id, name: team.workspace.name, slug: team.workspace.slug, role: 'agent' })
	})

	test('an admin edits name, time zone, locale and colour; the slug stays', async () => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, {
			body: { name: 'Renamed Workspace', timezone: 'Europe/Paris', defaultLocale: 'fr-x', logoColor: '#AABBCC', slug: 'hijack' },
			headers: team.admin.auth,
		})
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({
			name: 'Renamed Workspace',
			slug: team.workspace.slug,
			timezone: 'Europe/Paris',
			defaultLocale: 'fr-x',
			logoColor: '#aabbcc',
			role: 'admin',
		})
		const stored = await testDb().selectFrom('workspaces').selectAll().where('id', '=', team.workspace.id).executeTakeFirstOrThrow()
		expect(stored).toMatchObject({ name: 'Renamed Workspace', slug: team.workspace.slug, logoColor: '#aabbcc' })
	})

	test('a partial change keeps the rest', async () => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { body: { timezone: 'Asia/Tokyo' }, headers: team.owner.auth })
		expect(response.body).toMatchObject({ name: team.workspace.name, timezone: 'Asia/Tokyo', defaultLocale: team.workspace.defaultLocale })
		const nothing = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { body: {}, headers: team.owner.auth })
		expect(nothing.body).toMatchObject({ name: team.workspace.name, timezone: 'Asia/Tokyo' })
	})

	test('refuses a bad colour, name or time zone', async () => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, {
			body: { name: '', logoColor: 'red', timezone: 'Nowhere/Land' },
			headers: team.owner.auth,
		})
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({
			details: {
				fields: {
					name: ['Must be at least 2 characters.'],
					logoColor: ['Use a colour written like #4f46e5.'],
					timezone: ['Choose a valid time zone, such as Europe/Paris.'],
				},
			},
		})
	})

	test.each(['not-a-uuid', '00000000-0000-0000-0000-000000000000', "1'%20or%201=1"])('an id like %j is 404', async (id) => {
		const { auth } = await createUser()
		const response = await api.request('GET', `/v1/workspaces/${id}`, { headers: auth })
		expect(response.status).toBe(404)
		expect(response.body).toEqual({ message: 'This workspace does not exist, or you are not a member of it.', statusCode: 404, details: null })
	})
})

describe('DELETE /v1/workspaces/{id}', () => {
	test('needs the exact name to confirm', async () => {
		const team = await createTeam('Exact Name')
		for (const confirmName of ['exact name', 'Exact Name ', 'Exact']) {
			const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}`, { body: { confirmName }, headers: team.owner.auth })
			expect(response.status).toBe(400)
			expect(response.body).toEqual({
				message: 'Type the workspace name exactly as shown to confirm.',
				statusCode: 400,
				details: { source: 'body', fields: { confirmName: ['Type the workspace name exactly as shown to confirm.'] } },
			})
		}
		const missing = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}`, { headers: team.owner.auth })
		expect(missing.status).toBe(400)
		expect(missing.body).toMatchObject({ details: { fields: { confirmName: ['This field is required.'] } } })
		const french = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}`, {
			body: { confirmName: 'nope' },
			headers: { ...team.owner.auth, 'Accept-Language': 'fr-x' },
		})
		expect(french.body).toMatchObject({ message: 'Saisissez le nom de l’espace de travail exactement tel qu’il est affiché pour confirmer.' })
		expect(await testDb().selectFrom('workspaces').select('id').where('id', '=', team.workspace.id).executeTakeFirst()).toBeDefined()
	})

	test('deletes members and invitations; those who were in it move to another of their workspaces, or to none', async () => {
		const team = await createTeam('Doomed')
		const db = testDb()
		// The admin also belongs to two other workspaces; they move to the one they joined last.
		const older = await createWorkspace('Older')
		const newer = await createWorkspace('Newer')
		await db
			.insertInto('members')
			.values({ workspaceId: older.id, userId: team.admin.user.id, role: 'agent', createdAt: new Date(Date.now() - 60_000) })
			.execute()
		await db.insertInto('members').values({ workspaceId: newer.id, userId: team.admin.user.id, role: 'agent' }).execute()
		// The second agent has switched elsewhere already: their current workspace stays.
		await db.insertInto('members').values({ workspaceId: older.id, userId: team.otherAgent.user.id, role: 'agent' }).execute()
		await db.updateTable('users').set({ currentWorkspaceId: older.id }).where('id', '=', team.otherAgent.user.id).execute()
		await db
			.insertInto('invitations')
			.values({ workspaceId: team.workspace.id, code: `doomed-${Date.now()}`, method: 'link', role: 'agent', expiresAt: new Date(Date.now() + 86_400_000) })
			.execute()

		const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}`, { body: { confirmName: 'Doomed' }, headers: team.owner.auth })
		expect(response.status).toBe(204)
		expect(await db.selectFrom('workspaces').select('id').where('id', '=', team.workspace.id).executeTakeFirst()).toBeUndefined()
		expect(await db.selectFrom('members').select('userId').where('workspaceId', '=', team.workspace.id).execute()).toEqual([])
		expect(await db.selectFrom('invitations').select('id').where('workspaceId', '=', team.workspace.id).execute()).toEqual([])
		expect(await currentWorkspaceOf(team.admin.user.id)).toBe(newer.id)
		expect(await currentWorkspaceOf(team.otherAgent.user.id)).toBe(older.id)
		expect(await currentWorkspaceOf(team.owner.user.id)).toBeNull()
		const profile = await api.request('GET', `/v1/workspaces/${team.workspace.id}`, { headers: team.owner.auth })
		expect(profile.status).toBe(404)
	})
})

describe('PUT /v1/workspaces/switch', () => {
	test('a member switches and gets their profile back with the new current workspace', async () => {
		const team = await createTeam()
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.agent.user.id, role: 'admin' }).execute()
		const response = await api.request('PUT', '/v1/workspaces/switch', { body: { workspaceId: team.elsewhere.id }, headers: team.agent.auth })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({
			id: team.agent.user.id,
			email: team.agent.user.email,
			workspace: { id: team.elsewhere.id, name: 'Elsewhere', role: 'admin' },
		})
		expect(await currentWorkspaceOf(team.agent.user.id)).toBe(team.elsewhere.id)
	})

	test.each([
		['a workspace they are not a member of', (team: Awaited<ReturnType<typeof createTeam>>) => team.elsewhere.id],
		['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
		['a malformed id', () => 'elsewhere'],
	])('switching to %s is 404 and changes nothing', async (_, target) => {
		const team = await createTeam()
		const response = await api.request('PUT', '/v1/workspaces/switch', { body: { workspaceId: target(team) }, headers: team.agent.auth })
		expect(response.status).toBe(404)
		expect(response.body).toMatchObject({ message: 'This workspace does not exist, or you are not a member of it.' })
		expect(await currentWorkspaceOf(team.agent.user.id)).toBe(team.workspace.id)
	})

	test('a missing workspaceId is a 400', async () => {
		const { auth } = await createUser()
		const response = await api.request('PUT', '/v1/workspaces/switch', { body: {}, headers: auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { fields: { workspaceId: ['This field is required.'] } } })
	})
})

describe('GET /v1/workspaces/{id}/overview', () => {
	test('counts members, usable invitations, contacts and channels', async () => {
		const team = await createTeam()
		const db = testDb()
		const day = 86_400_000
		const invitation = (code: string, values: { expiresAt?: Date; revokedAt?: Date; maxUses?: number; uses?: number } = {}) => ({
			workspaceId: team.workspace.id,
			code: `${code}-${team.workspace.id}`,
			method: 'link' as const,
			role: 'agent' as const,
			expiresAt: new Date(Date.now() + day),
			...values,
		})
		await db
			.insertInto('invitations')
			.values([
				invitation('open'),
				invitation('limited', { maxUses: 2, uses: 1 }),
				invitation('expired', { expiresAt: new Date(Date.now() - day) }),
				invitation('revoked', { revokedAt: new Date() }),
				invitation('used', { maxUses: 1, uses: 1 }),
			])
			.execute()
		for (const name of ['Amal', 'Bruno']) {
			expect((await api.request('POST', `/v1/workspaces/${team.workspace.id}/contacts`, { body: { name }, headers: team.agent.auth })).status).toBe(201)
		}
		await db
			.insertInto('channels')
			.values({ workspaceId: team.workspace.id, kind: 'link', name: 'Website', slug: `site-${team.workspace.id}` })
			.execute()
		const response = await api.request('GET', `/v1/workspaces/${team.workspace.id}/overview`, { headers: team.agent.auth })
		expect(response.status).toBe(200)
		expect(response.body).toEqual({ members: 4, pendingInvitations: 2, contacts: 2, channels: 1 })
	})
})
