import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { waitForMail } from './auth-support.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'
import { seedTwoFactor } from './two-factor-support.ts'
import { createTeam, currentWorkspaceOf, rolesIn, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type MemberBody = {
	userId: string
	name: string
	email: string
	role: string
	availability: string
	capacity: number | null
	twoFactorEnabled: boolean
	joinedAt: string
}
type MemberList = { members: MemberBody[]; page: number; limit: number; total: number }

describe('GET /v1/workspaces/{id}/members', () => {
	let workspaceId: string
	let auth: Record<string, string>
	beforeAll(async () => {
		const workspace = await createWorkspace('Crowded')
		workspaceId = workspace.id
		const owner = await createUser({ workspaceId, role: 'owner', name: 'Zoé Owner', email: `zoe-${Date.now()}@example.test` })
		auth = owner.auth
		const people = [
			['admin', 'Hélène Admin'],
			['admin', 'adam Admin'],
			['agent', 'Émile Agent'],
			['agent', 'bob Agent'],
			['agent', 'Chloé Agent'],
			['agent', 'دينا وكيل'],
		] as const
		for (const [role, name] of people) await createUser({ workspaceId, role, name })
	})

	async function list(query = '') {
		const response = await api.request('GET', `/v1/workspaces/${workspaceId}/members${query}`, { headers: auth })
		return { status: response.status, body: response.body as MemberList }
	}

	test('lists the owner first, then admins, then agents, each by name', async () => {
		const { status, body } = await list()
		expect(status).toBe(200)
		expect(body).toMatchObject({ page: 1, limit: 10, total: 7 })
		expect(body.members.map((member) => member.name)).toEqual([
			'Zoé Owner',
			'adam Admin',
			'Hélène Admin',
			'bob Agent',
			'Chloé Agent',
			'Émile Agent',
			'دينا وكيل',
		])
		const owner = body.members[0]!
		expect(Object.keys(owner).sort()).toEqual(['availability', 'capacity', 'email', 'joinedAt', 'name', 'role', 'twoFactorEnabled', 'userId'])
		expect(owner).toMatchObject({ role: 'owner', availability: 'offline', capacity: null })
		expect(new Date(owner.joinedAt).toISOString()).toBe(owner.joinedAt)
	})

	test('pages', async () => {
		const first = await list('?limit=3')
		const third = await list('?limit=3&page=3')
		expect(first.body.members.map((member) => member.name)).toEqual(['Zoé Owner', 'adam Admin', 'Hélène Admin'])
		expect(third.body).toMatchObject({ total: 7, page: 3, limit: 3, members: [{ name: 'دينا وكيل' }] })
		expect((await list('?page=0')).status).toBe(400)
		expect((await list('?limit=101')).status).toBe(400)
		expect((await list('?limit=x')).status).toBe(400)
	})

	test('searches names and e-mails without regard to case or accents', async () => {
		expect((await list('?search=helene')).body.members.map((member) => member.name)).toEqual(['Hélène Admin'])
		expect((await list('?search=EMILE')).body.members.map((member) => member.name)).toEqual(['Émile Agent'])
		expect((await list('?search=zoe-')).body.members.map((member) => member.name)).toEqual(['Zoé Owner'])
		expect((await list(`?search=${encodeURIComponent('دينا')}`)).body.members.map((member) => member.name)).toEqual(['دينا وكيل'])
		const admins = await list('?search=admin')
		expect(admins.body).toMatchObject({ total: 2 })
	})
})

describe('PATCH /v1/workspaces/{id}/members/{userId}', () => {
	test('an admin promotes an agent and demotes another admin', async () => {
		const team = await createTeam()
		const promote = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, {
			body: { role: 'admin' },
			headers: team.admin.auth,
		})
		expect(promote.status).toBe(200)
		expect(promote.body).toMatchObject({ userId: team.agent.user.id, role: 'admin', email: team.agent.user.email })
		const demote = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, {
			body: { role: 'agent' },
			headers: team.admin.auth,
		})
		expect(demote.body).toMatchObject({ role: 'agent' })
		expect((await rolesIn(team.workspace.id))[team.agent.user.id]).toBe('agent')
	})

	test('nobody makes an owner this way', async () => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, {
			body: { role: 'owner' },
			headers: team.owner.auth,
		})
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { fields: { role: ['Choose one of: admin, agent.'] } } })
		expect((await rolesIn(team.workspace.id))[team.agent.user.id]).toBe('agent')
	})

	test.each(['admin', 'owner'] as const)('the %s cannot demote the owner', async (caller) => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.owner.user.id}`, {
			body: { role: 'agent' },
			headers: team[caller].auth,
		})
		expect(response.status).toBe(403)
		expect(response.body).toMatchObject({ message: 'The owner cannot be demoted or removed. The owner can transfer ownership first.' })
		expect((await rolesIn(team.workspace.id))[team.owner.user.id]).toBe('owner')
	})

	test('a change of nothing is a 400', async () => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, { body: {}, headers: team.owner.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { fields: { _: ['Say what to change: the role, the capacity or both.'] } } })
	})
})

describe('DELETE /v1/workspaces/{id}/members/{userId}', () => {
	test('an admin removes an agent, whose current workspace moves to another of theirs', async () => {
		const team = await createTeam()
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.agent.user.id, role: 'agent' }).execute()
		const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, { headers: team.admin.auth })
		expect(response.status).toBe(204)
		expect(await rolesIn(team.workspace.id)).not.toHaveProperty(team.agent.user.id)
		expect(await currentWorkspaceOf(team.agent.user.id)).toBe(team.elsewhere.id)
		const after = await api.request('GET', `/v1/workspaces/${team.workspace.id}`, { headers: team.agent.auth })
		expect(after.status).toBe(404)
	})

	test('an admin removes another admin', async () => {
		const team = await createTeam()
		await testDb().updateTable('members').set({ role: 'admin' }).where('userId', '=', team.otherAgent.user.id).execute()
		const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.otherAgent.user.id}`, { headers: team.admin.auth })
		expect(response.status).toBe(204)
		expect(await currentWorkspaceOf(team.otherAgent.user.id)).toBeNull()
	})

	test('an admin cannot remove the owner', async () => {
		const team = await createTeam()
		const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.owner.user.id}`, { headers: team.admin.auth })
		expect(response.status).toBe(403)
		expect(response.body).toMatchObject({ message: 'The owner cannot be demoted or removed. The owner can transfer ownership first.' })
		expect((await rolesIn(team.workspace.id))[team.owner.user.id]).toBe('owner')
	})

	test('removing yourself is leaving: allowed for an agent, refused for the owner', async () => {
		const team = await createTeam()
		const agent = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, { headers: team.agent.auth })
		expect(agent.status).toBe(204)
		const owner = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.owner.user.id}`, { headers: team.owner.auth })
		expect(owner.status).toBe(409)
		expect(owner.body).toMatchObject({ message: 'As the owner, you cannot leave this workspace. Transfer ownership to another member first.' })
		expect(Object.keys(await rolesIn(team.workspace.id)).sort()).toEqual([team.owner.user.id, team.admin.user.id, team.otherAgent.user.id].sort())
	})

	test('an unknown member is 404', async () => {
		const team = await createTeam()
		const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/members/00000000-0000-4000-8000-000000000000`, {
			headers: team.owner.auth,
		})
		expect(response.status).toBe(404)
		expect(response.body).toMatchObject({ message: 'This person is not a member of the workspace.' })
	})
})

describe('POST /v1/workspaces/{id}/leave', () => {
	test('the owner must transfer first, in every language', async () => {
		const team = await createTeam()
		const english = await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: team.owner.auth })
		expect(english.status).toBe(409)
		expect(english.body).toEqual({
			message: 'As the owner, you cannot leave this workspace. Transfer ownership to another member first.',
			statusCode: 409,
			details: null,
		})
		const arabic = await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: { ...team.owner.auth, 'Accept-Language': 'ar-eg' } })
		expect(arabic.body).toMatchObject({ message: 'بصفتك المالك، لا يمكنك مغادرة مساحة العمل هذه. انقل الملكية إلى عضو آخر أولًا.' })
		expect((await rolesIn(team.workspace.id))[team.owner.user.id]).toBe('owner')
	})

	test('an admin leaves; their current workspace moves on and the workspace is no longer theirs', async () => {
		const team = await createTeam()
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.admin.user.id, role: 'agent' }).execute()
		const response = await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: team.admin.auth })
		expect(response.status).toBe(204)
		expect(await currentWorkspaceOf(team.admin.user.id)).toBe(team.elsewhere.id)
		const list = await api.request('GET', '/v1/user/workspaces', { headers: team.admin.auth })
		expect(list.body).toMatchObject({ total: 1, workspaces: [{ id: team.elsewhere.id }] })
		const again = await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: team.admin.auth })
		expect(again.status).toBe(404)
	})

	test('leaving a workspace that is not current keeps the current one', async () => {
		const team = await createTeam()
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.agent.user.id, role: 'agent' }).execute()
		await testDb().updateTable('users').set({ currentWorkspaceId: team.elsewhere.id }).where('id', '=', team.agent.user.id).execute()
		const otherWorkspace = await createWorkspace('Third')
		await testDb().insertInto('members').values({ workspaceId: otherWorkspace.id, userId: team.agent.user.id, role: 'agent' }).execute()
		expect((await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: team.agent.auth })).status).toBe(204)
		expect(await currentWorkspaceOf(team.agent.user.id)).toBe(team.elsewhere.id)
	})
})

describe('POST /v1/workspaces/{id}/transfer-ownership', () => {
	test('makes the target the one owner and the old owner an admin', async () => {
		const team = await createTeam()
		const response = await api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, {
			body: { userId: team.agent.user.id },
			headers: team.owner.auth,
		})
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ id: team.workspace.id, role: 'admin' })
		const roles = await rolesIn(team.workspace.id)
		expect(roles[team.agent.user.id]).toBe('owner')
		expect(roles[team.owner.user.id]).toBe('admin')
		expect(Object.values(roles).filter((role) => role === 'owner')).toHaveLength(1)

		// The old owner now is an admin: no more transfers or deletion; the new owner may leave only after handing over.
		const again = await api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, {
			body: { userId: team.owner.user.id },
			headers: team.owner.auth,
		})
		expect(again.status).toBe(403)
		expect((await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: team.agent.auth })).status).toBe(409)
		const back = await api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, {
			body: { userId: team.owner.user.id },
			headers: team.agent.auth,
		})
		expect(back.status).toBe(200)
		expect((await rolesIn(team.workspace.id))[team.owner.user.id]).toBe('owner')
	})

	test('two transfers at once still leave exactly one owner', async () => {
		const team = await createTeam()
		const targets = [team.agent, team.admin, team.otherAgent]
		const responses = await Promise.all(
			targets.map((target) =>
				api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, { body: { userId: target.user.id }, headers: team.owner.auth }),
			),
		)
		expect(responses.map((response) => response.status).sort()).toEqual([200, 403, 403])
		const owners = Object.entries(await rolesIn(team.workspace.id)).filter(([, role]) => role === 'owner')
		expect(owners).toHaveLength(1)
		expect(owners[0]![0]).not.toBe(team.owner.user.id)
	})

	test('the target must be a member, and not the owner themself', async () => {
		const team = await createTeam()
		const outsider = await api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, {
			body: { userId: team.outsider.user.id },
			headers: team.owner.auth,
		})
		expect(outsider.status).toBe(404)
		expect(outsider.body).toMatchObject({ message: 'This person is not a member of the workspace.' })
		const self = await api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, {
			body: { userId: team.owner.user.id },
			headers: team.owner.auth,
		})
		expect(self.status).toBe(409)
		expect(self.body).toMatchObject({ message: 'You already own this workspace. Choose another member.' })
		const missing = await api.request('POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, { body: {}, headers: team.owner.auth })
		expect(missing.status).toBe(400)
		expect((await rolesIn(team.workspace.id))[team.owner.user.id]).toBe('owner')
	})
})

describe('PATCH /v1/workspaces/{id}/members/me', () => {
	test('sets the caller’s availability in that workspace only', async () => {
		const team = await createTeam()
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.agent.user.id, role: 'agent' }).execute()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/me`, {
			body: { availability: 'online' },
			headers: team.agent.auth,
		})
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ userId: team.agent.user.id, availability: 'online', role: 'agent' })
		const rows = await testDb().selectFrom('members').select(['workspaceId', 'availability']).where('userId', '=', team.agent.user.id).execute()
		expect(Object.fromEntries(rows.map((row) => [row.workspaceId, row.availability]))).toEqual({
			[team.workspace.id]: 'online',
			[team.elsewhere.id]: 'offline',
		})
	})

	test('refuses an unknown availability', async () => {
		const team = await createTeam()
		const response = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/me`, { body: { availability: 'away' }, headers: team.agent.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { fields: { availability: ['Choose one of: online, busy, offline.'] } } })
	})
})

describe('POST /v1/workspaces/{id}/members/{userId}/two-factor/reset', () => {
	const reset = (team: Team, userId: string, auth: Record<string, string>, headers: Record<string, string> = {}) =>
		api.request('POST', `/v1/workspaces/${team.workspace.id}/members/${userId}/two-factor/reset`, { headers: { ...auth, ...headers } })

	test('the owner turns off an admin’s: their sessions end, the log says so, and they are mailed in their language', async () => {
		const team = await createTeam('Lost Phone Co')
		await seedTwoFactor(team.admin.user.id, api.config.ENCRYPTION_KEY, { on: true })
		await testDb().updateTable('users').set({ locale: 'fr-x' }).where('id', '=', team.admin.user.id).execute()
		const listed = await api.request('GET', `/v1/workspaces/${team.workspace.id}/members`, { headers: team.owner.auth })
		expect((listed.body as MemberList).members.find((member) => member.userId === team.admin.user.id)).toMatchObject({ twoFactorEnabled: true })

		const answer = await reset(team, team.admin.user.id, team.owner.auth)
		expect(answer.status).toBe(200)
		expect(answer.body).toMatchObject({ userId: team.admin.user.id, twoFactorEnabled: false })
		const user = await testDb()
			.selectFrom('users')
			.select(['twoFactorEnabledAt', 'twoFactorSecret'])
			.where('id', '=', team.admin.user.id)
			.executeTakeFirstOrThrow()
		expect(user).toEqual({ twoFactorEnabledAt: null, twoFactorSecret: null })
		expect((await api.request('GET', '/v1/auth/profile', { headers: team.admin.auth })).status).toBe(401)
		const audit = await testDb()
			.selectFrom('auditEvents')
			.select(['kind', 'values'])
			.where('workspaceId', '=', team.workspace.id)
			.where('kind', '=', 'member.twoFactorReset')
			.execute()
		expect(audit).toEqual([{ kind: 'member.twoFactorReset', values: { member: team.admin.user.name, memberId: team.admin.user.id } }])
		const mail = await waitForMail(api, team.admin.user.email)
		expect(mail.subject).toBe('Votre connexion en deux étapes a été désactivée')
		expect(mail.text).toContain(`${team.owner.user.name} de Lost Phone Co a désactivé la connexion en deux étapes`)
		expect(mail.text).toContain('/fr-x/dashboard/profile#two-factor')
		// Nothing left to reset.
		expect((await reset(team, team.admin.user.id, team.owner.auth)).status).toBe(409)
	})

	test('an admin resets an agent’s but not another admin’s; nobody resets the owner’s, an account of several workspaces, or an outsider’s', async () => {
		const team = await createTeam('Reset Rules Co')
		const key = api.config.ENCRYPTION_KEY
		for (const person of [team.owner, team.admin, team.agent, team.otherAgent, team.outsider]) await seedTwoFactor(person.user.id, key, { on: true })
		const otherAdmin = await createUser({ workspaceId: team.workspace.id, role: 'admin' })
		await seedTwoFactor(otherAdmin.user.id, key, { on: true })

		const refused = await reset(team, otherAdmin.user.id, team.admin.auth, { 'Accept-Language': 'ar-eg' })
		expect(refused.status).toBe(403)
		expect(refused.body).toMatchObject({ message: 'وحده المالك يستطيع إعادة ضبط تسجيل الدخول بخطوتين لمشرف.' })
		expect((await reset(team, team.owner.user.id, team.admin.auth)).status).toBe(403)
		expect((await reset(team, team.owner.user.id, team.owner.auth)).status).toBe(403)
		expect((await reset(team, team.agent.user.id, team.otherAgent.auth)).status).toBe(403)
		expect((await reset(team, team.outsider.user.id, team.owner.auth)).status).toBe(404)

		// The second agent also works in a workspace of their own: theirs to keep.
		const theirOwn = await createWorkspace('Side project')
		await testDb().insertInto('members').values({ workspaceId: theirOwn.id, userId: team.otherAgent.user.id, role: 'owner' }).execute()
		const elsewhere = await reset(team, team.otherAgent.user.id, team.owner.auth)
		expect(elsewhere.status).toBe(409)
		expect(elsewhere.body).toMatchObject({ message: expect.stringContaining('is also a member of other workspaces') })

		expect((await reset(team, team.agent.user.id, team.admin.auth)).status).toBe(200)
	})
})
