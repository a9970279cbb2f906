import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, rolesIn, type Team } from './workspaces-fixtures.ts'

// Issue 30: an agent's capacity and the workspace's assignment settings, as owners and admins set them.
let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

const capacityError = {
	'en-us': 'Enter a whole number from 0 to 1000, or leave it empty.',
	'ar-eg': 'أدخل عددًا صحيحًا من 0 إلى 1000، أو اتركه فارغًا.',
	'fr-x': 'Saisissez un nombre entier de 0 à 1000, ou laissez le champ vide.',
}

async function storedCapacity(workspaceId: string, userId: string) {
	const row = await testDb()
		.selectFrom('members')
		.select('capacity')
		.where('workspaceId', '=', workspaceId)
		.where('userId', '=', userId)
		.executeTakeFirstOrThrow()
	return row.capacity
}

describe('PATCH /v1/workspaces/{id}/members/{userId} with a capacity', () => {
	const change = (team: Team, userId: string, body: unknown, headers: Record<string, string>) =>
		api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${userId}`, { body, headers })

	test('an admin sets an agent’s capacity, the list shows it, and null gives them the workspace’s default again', async () => {
		const team = await createTeam()
		const set = await change(team, team.agent.user.id, { capacity: 5 }, team.admin.auth)
		expect(set.status).toBe(200)
		expect(set.body).toMatchObject({ userId: team.agent.user.id, role: 'agent', capacity: 5 })
		expect(await storedCapacity(team.workspace.id, team.agent.user.id)).toBe(5)
		const list = await api.request('GET', `/v1/workspaces/${team.workspace.id}/members?search=${encodeURIComponent('Agent of')}`, { headers: team.agent.auth })
		expect((list.body as { members: Array<{ userId: string; capacity: number | null }> }).members).toContainEqual(
			expect.objectContaining({ userId: team.agent.user.id, capacity: 5 }),
		)
		const cleared = await change(team, team.agent.user.id, { capacity: null }, team.owner.auth)
		expect(cleared.body).toMatchObject({ capacity: null })
		expect(await storedCapacity(team.workspace.id, team.agent.user.id)).toBeNull()
	})

	test('0 and 1000 are kept; the owner’s capacity is set like anyone’s, their role is not', async () => {
		const team = await createTeam()
		expect((await change(team, team.agent.user.id, { capacity: 0 }, team.owner.auth)).body).toMatchObject({ capacity: 0 })
		const owner = await change(team, team.owner.user.id, { capacity: 1000 }, team.admin.auth)
		expect(owner.status).toBe(200)
		expect(owner.body).toMatchObject({ role: 'owner', capacity: 1000 })
		const demote = await change(team, team.owner.user.id, { role: 'agent', capacity: 3 }, team.admin.auth)
		expect(demote.status).toBe(403)
		expect(await storedCapacity(team.workspace.id, team.owner.user.id)).toBe(1000)
	})

	test('a role and a capacity change together', async () => {
		const team = await createTeam()
		const response = await change(team, team.agent.user.id, { role: 'admin', capacity: 12 }, team.owner.auth)
		expect(response.body).toMatchObject({ role: 'admin', capacity: 12 })
		expect((await rolesIn(team.workspace.id))[team.agent.user.id]).toBe('admin')
		expect(await storedCapacity(team.workspace.id, team.agent.user.id)).toBe(12)
	})

	test.each([-1, 1001, 2.5, '5', true])('refuses %j, in every language, and keeps the old one', async (capacity) => {
		const team = await createTeam()
		await change(team, team.agent.user.id, { capacity: 4 }, team.owner.auth)
		for (const [language, message] of Object.entries(capacityError)) {
			const response = await change(team, team.agent.user.id, { capacity }, { ...team.owner.auth, 'Accept-Language': language })
			expect(response.status).toBe(400)
			const fields = (response.body as { details: { fields: { capacity: string[] } } }).details.fields
			// A number out of range says the range; anything else is not a number at all.
			if (typeof capacity === 'number') expect(fields.capacity).toEqual([message])
			else expect(fields.capacity).toHaveLength(1)
		}
		expect(await storedCapacity(team.workspace.id, team.agent.user.id)).toBe(4)
	})

	test('an agent is refused, even for their own capacity', async () => {
		const team = await createTeam()
		for (const userId of [team.otherAgent.user.id, team.agent.user.id]) {
			const response = await change(team, userId, { capacity: 50 }, team.agent.auth)
			expect(response.status).toBe(403)
			expect(response.body).toMatchObject({ message: 'You are not allowed to do this.' })
			expect(await storedCapacity(team.workspace.id, userId)).toBeNull()
		}
	})

	test('a member of another workspace is 404, and another workspace is 404 to an outsider', async () => {
		const team = await createTeam()
		const foreign = await change(team, team.outsider.user.id, { capacity: 2 }, team.owner.auth)
		expect(foreign.status).toBe(404)
		expect(foreign.body).toMatchObject({ message: 'This person is not a member of the workspace.' })
		expect(await storedCapacity(team.elsewhere.id, team.outsider.user.id)).toBeNull()
		const outsider = await change(team, team.agent.user.id, { capacity: 2 }, team.outsider.auth)
		expect(outsider.status).toBe(404)
		expect(await storedCapacity(team.workspace.id, team.agent.user.id)).toBeNull()
	})
})

describe('GET /v1/workspaces/{id}/members/me', () => {
	test('the caller as a member, with their availability and capacity', async () => {
		const team = await createTeam()
		await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/me`, { body: { availability: 'busy' }, headers: team.agent.auth })
		await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, { body: { capacity: 7 }, headers: team.admin.auth })
		const response = await api.request('GET', `/v1/workspaces/${team.workspace.id}/members/me`, { headers: team.agent.auth })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ userId: team.agent.user.id, role: 'agent', availability: 'busy', capacity: 7 })
		expect((await api.request('GET', `/v1/workspaces/${team.workspace.id}/members/me`, { headers: team.outsider.auth })).status).toBe(404)
	})
})

describe('PATCH /v1/workspaces/{id} with the assignment settings', () => {
	const patch = (team: Team, body: unknown, headers: Record<string, string>) => api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { body, headers })
	const stored = (team: Team) =>
		testDb()
			.selectFrom('workspaces')
			.select(['defaultCapacity', 'reopenAssignment', 'agentsSeeOwnTeams'])
			.where('id', '=', team.workspace.id)
			.executeTakeFirstOrThrow()

	test('a new workspace has no limit, keeps the assignee of a reopened conversation, and shows agents everything', async () => {
		const team = await createTeam()
		const response = await api.request('GET', `/v1/workspaces/${team.workspace.id}`, { headers: team.agent.auth })
		expect(response.body).toMatchObject({ defaultCapacity: null, reopenAssignment: 'keep', agentsSeeOwnTeams: false })
	})

	test.each(['owner', 'admin'] as const)('the %s saves them; every member reads them', async (caller) => {
		const team = await createTeam()
		const response = await patch(team, { defaultCapacity: 8, reopenAssignment: 'reassign', agentsSeeOwnTeams: true }, team[caller].auth)
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ defaultCapacity: 8, reopenAssignment: 'reassign', agentsSeeOwnTeams: true, name: team.workspace.name })
		expect(await stored(team)).toEqual({ defaultCapacity: 8, reopenAssignment: 'reassign', agentsSeeOwnTeams: true })
		const read = await api.request('GET', `/v1/workspaces/${team.workspace.id}`, { headers: team.agent.auth })
		expect(read.body).toMatchObject({ defaultCapacity: 8, reopenAssignment: 'reassign', agentsSeeOwnTeams: true })
		const profile = await api.request('GET', '/v1/auth/profile', { headers: team.agent.auth })
		expect(profile.body).toMatchObject({ workspace: { id: team.workspace.id, defaultCapacity: 8, reopenAssignment: 'reassign', agentsSeeOwnTeams: true } })
		const back = await patch(team, { defaultCapacity: null, reopenAssignment: 'keep', agentsSeeOwnTeams: false }, team[caller].auth)
		expect(back.body).toMatchObject({ defaultCapacity: null, reopenAssignment: 'keep', agentsSeeOwnTeams: false })
		expect(await stored(team)).toEqual({ defaultCapacity: null, reopenAssignment: 'keep', agentsSeeOwnTeams: false })
	})

	test('an agent is refused, and an outsider finds no workspace', async () => {
		const team = await createTeam()
		const agent = await patch(team, { defaultCapacity: 3 }, team.agent.auth)
		expect(agent.status).toBe(403)
		const outsider = await patch(team, { agentsSeeOwnTeams: true }, team.outsider.auth)
		expect(outsider.status).toBe(404)
		expect(await stored(team)).toEqual({ defaultCapacity: null, reopenAssignment: 'keep', agentsSeeOwnTeams: false })
	})

	test('refuses bad values beside each field, in every language, and keeps the old ones', async () => {
		const team = await createTeam()
		const body = { defaultCapacity: 1001, reopenAssignment: 'drop', agentsSeeOwnTeams: 'yes' }
		for (const [language, message] of Object.entries(capacityError)) {
			const response = await patch(team, body, { ...team.owner.auth, 'Accept-Language': language })
			expect(response.status).toBe(400)
			const fields = (response.body as { details: { fields: Record<string, string[]> } }).details.fields
			expect(fields.defaultCapacity).toEqual([message])
			expect(fields.reopenAssignment).toHaveLength(1)
			expect(fields.agentsSeeOwnTeams).toHaveLength(1)
		}
		const english = await patch(team, { defaultCapacity: -3, reopenAssignment: 'drop' }, team.owner.auth)
		expect(english.body).toMatchObject({
			details: { fields: { defaultCapacity: [capacityError['en-us']], reopenAssignment: ['Choose one of: keep, reassign.'] } },
		})
		expect(await stored(team)).toEqual({ defaultCapacity: null, reopenAssignment: 'keep', agentsSeeOwnTeams: false })
	})
})
