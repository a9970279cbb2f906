import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
let people: Team
beforeAll(async () => {
	api = await startApi()
	people = await createTeam('Teams')
})
afterAll(() => api.close())

const teamsPath = (workspaceId: string) => `/v1/workspaces/${workspaceId}/teams`
type TeamJson = { id: string; name: string; description: string | null; autoAssign: boolean; members: Array<{ userId: string; name: string }> }

describe('teams', () => {
	test('an admin creates a team with members of the workspace; everyone reads it, with its members by name', async () => {
		const created = await api.request('POST', teamsPath(people.workspace.id), {
			body: { name: '  Billing ', description: '', autoAssign: true, userIds: [people.agent.user.id, people.otherAgent.user.id] },
			headers: people.admin.auth,
		})
		expect(created.status).toBe(201)
		const team = created.body as TeamJson
		expect(team).toMatchObject({ name: 'Billing', description: null, autoAssign: true })
		expect(team.members.map((member) => member.name)).toEqual(['Agent of Teams', 'Second agent of Teams'])
		const listed = await api.request('GET', teamsPath(people.workspace.id), { headers: people.agent.auth })
		expect(listed.status).toBe(200)
		expect((listed.body as { teams: TeamJson[] }).teams.map((each) => each.id)).toContain(team.id)
	})

	test('a name is unique in the workspace in any case, said beside the field; another workspace may have it', async () => {
		await api.request('POST', teamsPath(people.workspace.id), { body: { name: 'Sales' }, headers: people.owner.auth })
		const taken = await api.request('POST', teamsPath(people.workspace.id), {
			body: { name: 'SALES' },
			headers: { ...people.owner.auth, 'Accept-Language': 'fr' },
		})
		expect(taken.status).toBe(409)
		expect(taken.body).toMatchObject({ details: { fields: { name: ['Une équipe nommée « SALES » existe déjà.'] } } })
		const elsewhere = await api.request('POST', teamsPath(people.elsewhere.id), { body: { name: 'Sales' }, headers: people.outsider.auth })
		expect(elsewhere.status).toBe(201)
	})

	test('only members of the workspace can be in its teams; agents cannot change teams', async () => {
		const stranger = await api.request('POST', teamsPath(people.workspace.id), {
			body: { name: 'Strangers', userIds: [people.outsider.user.id] },
			headers: { ...people.owner.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(stranger.status).toBe(422)
		expect(stranger.body).toMatchObject({ details: { fields: { userIds: ['لا يمكن أن ينضم إلى فرق مساحة العمل هذه إلا أعضاؤها.'] } } })
		const byAgent = await api.request('POST', teamsPath(people.workspace.id), { body: { name: 'Mine' }, headers: people.agent.auth })
		expect(byAgent.status).toBe(403)
	})

	test('members are replaced all at once; a member who leaves the workspace leaves its teams', async () => {
		const created = await api.request('POST', teamsPath(people.workspace.id), { body: { name: 'Night shift' }, headers: people.owner.auth })
		const team = created.body as TeamJson
		const replaced = await api.request('PUT', `${teamsPath(people.workspace.id)}/${team.id}/members`, {
			body: { userIds: [people.otherAgent.user.id, people.otherAgent.user.id] },
			headers: people.owner.auth,
		})
		expect(replaced.status).toBe(200)
		expect((replaced.body as TeamJson).members.map((member) => member.userId)).toEqual([people.otherAgent.user.id])
		await testDb().deleteFrom('members').where('workspaceId', '=', people.workspace.id).where('userId', '=', people.otherAgent.user.id).execute()
		const after = await api.request('GET', `${teamsPath(people.workspace.id)}/${team.id}`, { headers: people.owner.auth })
		expect((after.body as TeamJson).members).toEqual([])
	})

	test('a team deleted leaves its channels and conversations without a team', async () => {
		const team = (await api.request('POST', teamsPath(people.workspace.id), { body: { name: 'Temporary' }, headers: people.owner.auth })).body as TeamJson
		const channel = await testDb()
			.insertInto('channels')
			.values({ workspaceId: people.workspace.id, kind: 'link', name: 'Temp site', slug: `temp-${team.id.slice(0, 8)}`, teamId: team.id })
			.returning('id')
			.executeTakeFirstOrThrow()
		const deleted = await api.request('DELETE', `${teamsPath(people.workspace.id)}/${team.id}`, { headers: people.owner.auth })
		expect(deleted.status).toBe(204)
		const row = await testDb().selectFrom('channels').select('teamId').where('id', '=', channel.id).executeTakeFirstOrThrow()
		expect(row.teamId).toBeNull()
		const again = await api.request('GET', `${teamsPath(people.workspace.id)}/${team.id}`, { headers: people.owner.auth })
		expect(again.status).toBe(404)
		expect(again.body).toMatchObject({ message: 'This team does not exist.' })
	})

	test('a team of another workspace cannot be named by a channel (the keys keep teams inside their workspace)', async () => {
		const theirs = (await api.request('POST', teamsPath(people.elsewhere.id), { body: { name: 'Theirs' }, headers: people.outsider.auth })).body as TeamJson
		await expect(
			testDb()
				.insertInto('channels')
				.values({ workspaceId: people.workspace.id, kind: 'link', name: 'Cross', slug: `cross-${theirs.id.slice(0, 8)}`, teamId: theirs.id })
				.execute(),
		).rejects.toThrow(/channels_team_fk/)
	})
})
