import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type Fixture = Team & { invitationId: string }
type Call = { method: string; path: string; body?: unknown }
type Caller = 'owner' | 'admin' | 'agent' | 'outsider'

async function createFixture(): Promise<Fixture> {
	const team = await createTeam('Matrix')
	const invitation = await testDb()
		.insertInto('invitations')
		.values({
			workspaceId: team.workspace.id,
			code: `matrix-${team.workspace.id}`,
			method: 'link',
			role: 'agent',
			expiresAt: new Date(Date.now() + 86_400_000),
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	// Nobody starts in the workspace, so that switching to it shows.
	const people = [team.owner, team.admin, team.agent, team.otherAgent, team.outsider].map((person) => person.user.id)
	await testDb().updateTable('users').set({ currentWorkspaceId: null }).where('id', 'in', people).execute()
	return { ...team, invitationId: invitation.id }
}

/** Everything a refused call must leave untouched. */
async function snapshot(fixture: Fixture) {
	const db = testDb()
	const id = fixture.workspace.id
	return {
		workspace: await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst(),
		members: await db.selectFrom('members').select(['userId', 'role', 'availability']).where('workspaceId', '=', id).orderBy('userId').execute(),
		invitations: await db.selectFrom('invitations').select(['id', 'revokedAt', 'uses']).where('workspaceId', '=', id).orderBy('id').execute(),
		current: await db
			.selectFrom('users')
			.select(['id', 'currentWorkspaceId'])
			.where(
				'id',
				'in',
				[fixture.owner, fixture.admin, fixture.agent, fixture.otherAgent, fixture.outsider].map((person) => person.user.id),
			)
			.orderBy('id')
			.execute(),
	}
}

// Expected status for owner, admin, agent and a non-member (who owns a workspace of their own); reads change nothing.
const matrix: Array<[string, (f: Fixture) => Call, Record<Caller, number>, ('read' | 'write')?]> = [
	['read the workspace', (f) => ({ method: 'GET', path: `/v1/workspaces/${f.workspace.id}` }), { owner: 200, admin: 200, agent: 200, outsider: 404 }, 'read'],
	[
		'edit the workspace',
		(f) => ({ method: 'PATCH', path: `/v1/workspaces/${f.workspace.id}`, body: { name: 'Changed' } }),
		{ owner: 200, admin: 200, agent: 403, outsider: 404 },
	],
	[
		'delete the workspace',
		(f) => ({ method: 'DELETE', path: `/v1/workspaces/${f.workspace.id}`, body: { confirmName: 'Matrix' } }),
		{ owner: 204, admin: 403, agent: 403, outsider: 404 },
	],
	[
		'switch to it',
		(f) => ({ method: 'PUT', path: '/v1/workspaces/switch', body: { workspaceId: f.workspace.id } }),
		{ owner: 200, admin: 200, agent: 200, outsider: 404 },
	],
	[
		'read the overview',
		(f) => ({ method: 'GET', path: `/v1/workspaces/${f.workspace.id}/overview` }),
		{ owner: 200, admin: 200, agent: 200, outsider: 404 },
		'read',
	],
	['list members', (f) => ({ method: 'GET', path: `/v1/workspaces/${f.workspace.id}/members` }), { owner: 200, admin: 200, agent: 200, outsider: 404 }, 'read'],
	[
		'set own availability',
		(f) => ({ method: 'PATCH', path: `/v1/workspaces/${f.workspace.id}/members/me`, body: { availability: 'busy' } }),
		{ owner: 200, admin: 200, agent: 200, outsider: 404 },
	],
	[
		'change a role',
		(f) => ({ method: 'PATCH', path: `/v1/workspaces/${f.workspace.id}/members/${f.otherAgent.user.id}`, body: { role: 'admin' } }),
		{ owner: 200, admin: 200, agent: 403, outsider: 404 },
	],
	[
		'remove a member',
		(f) => ({ method: 'DELETE', path: `/v1/workspaces/${f.workspace.id}/members/${f.otherAgent.user.id}` }),
		{ owner: 204, admin: 204, agent: 403, outsider: 404 },
	],
	['leave', (f) => ({ method: 'POST', path: `/v1/workspaces/${f.workspace.id}/leave` }), { owner: 409, admin: 204, agent: 204, outsider: 404 }],
	[
		'transfer ownership',
		(f) => ({ method: 'POST', path: `/v1/workspaces/${f.workspace.id}/transfer-ownership`, body: { userId: f.otherAgent.user.id } }),
		{ owner: 200, admin: 403, agent: 403, outsider: 404 },
	],
	[
		'list invitations',
		(f) => ({ method: 'GET', path: `/v1/workspaces/${f.workspace.id}/invitations` }),
		{ owner: 200, admin: 200, agent: 403, outsider: 404 },
		'read',
	],
	[
		'invite',
		(f) => ({ method: 'POST', path: `/v1/workspaces/${f.workspace.id}/invitations`, body: { method: 'link', role: 'agent' } }),
		{ owner: 201, admin: 201, agent: 403, outsider: 404 },
	],
	[
		'revoke an invitation',
		(f) => ({ method: 'DELETE', path: `/v1/workspaces/${f.workspace.id}/invitations/${f.invitationId}` }),
		{ owner: 204, admin: 204, agent: 403, outsider: 404 },
	],
]

const cases = matrix.flatMap(([action, call, expected, kind = 'write']) =>
	(Object.keys(expected) as Caller[]).map((caller) => ({ action, call, caller, status: expected[caller], writes: kind !== 'read' })),
)

describe('the role matrix', () => {
	test.each(cases)('$caller: $action → $status', async ({ call, caller, status, writes }) => {
		const fixture = await createFixture()
		const { method, path, body } = call(fixture)
		const before = await snapshot(fixture)
		const response = await api.request(method, path, { body, headers: fixture[caller].auth })
		expect(response.status, JSON.stringify(response.body)).toBe(status)
		if (status === 403) expect(response.body).toEqual({ message: 'You are not allowed to do this.', statusCode: 403, details: null })
		if (status === 404)
			expect(response.body).toEqual({ message: 'This workspace does not exist, or you are not a member of it.', statusCode: 404, details: null })
		if (status >= 400 || !writes) expect(await snapshot(fixture)).toEqual(before)
		else expect(await snapshot(fixture)).not.toEqual(before)
	})

	test.each(matrix.map(([action, call]) => ({ action, call })))('without a session: $action → 401', async ({ call }) => {
		const fixture = await createFixture()
		const { method, path, body } = call(fixture)
		const response = await api.request(method, path, { body })
		expect(response.status).toBe(401)
		expect(response.body).toMatchObject({ message: 'Your session has ended. Please sign in again.' })
	})
})

describe('isolation between workspaces', () => {
	let a: Fixture
	let b: Fixture
	beforeAll(async () => {
		a = await createFixture()
		b = await createFixture()
	})

	test('the owner of A gets 404 for everything of B, as for a workspace that does not exist', async () => {
		const calls = matrix.map(([, call]) => call(b))
		for (const { method, path, body } of calls) {
			const response = await api.request(method, path, { body, headers: a.owner.auth })
			expect(response.status, `${method} ${path}`).toBe(404)
			expect(response.body).toMatchObject({ message: 'This workspace does not exist, or you are not a member of it.' })
		}
	})

	test("B's members, invitations and people cannot be reached through A's id", async () => {
		const headers = a.owner.auth
		const role = await api.request('PATCH', `/v1/workspaces/${a.workspace.id}/members/${b.agent.user.id}`, { body: { role: 'admin' }, headers })
		expect(role.status).toBe(404)
		expect(role.body).toMatchObject({ message: 'This person is not a member of the workspace.' })
		const removal = await api.request('DELETE', `/v1/workspaces/${a.workspace.id}/members/${b.agent.user.id}`, { headers })
		expect(removal.status).toBe(404)
		const transfer = await api.request('POST', `/v1/workspaces/${a.workspace.id}/transfer-ownership`, { body: { userId: b.agent.user.id }, headers })
		expect(transfer.status).toBe(404)
		const revoke = await api.request('DELETE', `/v1/workspaces/${a.workspace.id}/invitations/${b.invitationId}`, { headers })
		expect(revoke.status).toBe(404)
		expect(revoke.body).toMatchObject({ message: 'This invitation does not exist.' })

		const db = testDb()
		expect(
			(await db.selectFrom('members').select('role').where('userId', '=', b.agent.user.id).where('workspaceId', '=', b.workspace.id).executeTakeFirst())?.role,
		).toBe('agent')
		expect((await db.selectFrom('invitations').select('revokedAt').where('id', '=', b.invitationId).executeTakeFirstOrThrow()).revokedAt).toBeNull()
		const list = await api.request('GET', `/v1/workspaces/${a.workspace.id}/invitations`, { headers })
		expect((list.body as { invitations: Array<{ id: string }> }).invitations.map((invitation) => invitation.id)).toEqual([a.invitationId])
	})

	test('malformed member and invitation ids are 404, not 400 or 500', async () => {
		const headers = a.owner.auth
		for (const [method, path] of [
			['PATCH', `/v1/workspaces/${a.workspace.id}/members/nobody`],
			['DELETE', `/v1/workspaces/${a.workspace.id}/members/12`],
			['DELETE', `/v1/workspaces/${a.workspace.id}/invitations/zzz`],
			['GET', '/v1/workspaces/123/members'],
			['POST', '/v1/workspaces/%E2%80%AE/leave'],
		] as const) {
			const response = await api.request(method, path, { body: method === 'GET' ? undefined : { role: 'admin' }, headers })
			expect(response.status, `${method} ${path}`).toBe(404)
		}
		const transfer = await api.request('POST', `/v1/workspaces/${a.workspace.id}/transfer-ownership`, { body: { userId: 'someone' }, headers })
		expect(transfer.status).toBe(404)
	})
})
