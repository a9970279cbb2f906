import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { contactsPath, createContact, createLabel, labelsPath, type ContactJson, type LabelJson } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

const notMember = { message: 'This workspace does not exist, or you are not a member of it.', statusCode: 404, details: null }
const labelMissing = { message: 'This label does not exist.', statusCode: 404, details: null }

describe('POST /v1/workspaces/{id}/labels', () => {
	let team: Team
	beforeAll(async () => {
		team = await createTeam('Labels')
	})

	test('creates a label: trimmed title, lower-case colour, an empty description is none', async () => {
		const response = await api.request('POST', labelsPath(team.workspace.id), {
			body: { title: '  VIP ', color: '#AABBCC', description: '' },
			headers: team.owner.auth,
		})
		expect(response.status).toBe(201)
		const label = response.body as LabelJson
		expect(Object.keys(label).sort()).toEqual(['color', 'contactCount', 'createdAt', 'description', 'id', 'title', 'updatedAt'])
		expect(label).toMatchObject({ title: 'VIP', color: '#aabbcc', description: null, contactCount: 0 })
	})

	test('titles in any script, with digits, hyphens and underscores', async () => {
		for (const title of ['عملاء_مهمون', 'prioritaire-été', 'Q3_2026', 'नमस्ते']) {
			const label = await createLabel(api, team.admin.auth, team.workspace.id, { title, description: 'Une description' })
			expect(label).toMatchObject({ title, description: 'Une description' })
		}
	})

	test.each([
		['a space', { title: 'two words', color: '#123456' }, 'title', 'Use only letters, digits, hyphens (-) and underscores (_), without spaces.'],
		['punctuation', { title: 'vip!', color: '#123456' }, 'title', 'Use only letters, digits, hyphens (-) and underscores (_), without spaces.'],
		['an empty title', { title: '  ', color: '#123456' }, 'title', 'Must be at least 1 character.'],
		['a long title', { title: 'x'.repeat(51), color: '#123456' }, 'title', 'Must be at most 50 characters.'],
		['no colour', { title: 'nocolour' }, 'color', 'This field is required.'],
		['a colour name', { title: 'named', color: 'red' }, 'color', 'Use a colour written like #4f46e5.'],
		['a long description', { title: 'described', color: '#123456', description: 'x'.repeat(201) }, 'description', 'Must be at most 200 characters.'],
	])('refuses %s (400)', async (_, body, field, message) => {
		const response = await api.request('POST', labelsPath(team.workspace.id), { body, headers: team.owner.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message: 'Some fields are not valid.', details: { source: 'body', fields: { [field]: [message] } } })
	})

	test('a title is unique per workspace whatever its case (409), and free in another workspace', async () => {
		await createLabel(api, team.owner.auth, team.workspace.id, { title: 'Wholesale' })
		const response = await api.request('POST', labelsPath(team.workspace.id), { body: { title: 'WHOLESALE', color: '#000000' }, headers: team.owner.auth })
		expect(response.status).toBe(409)
		expect(response.body).toEqual({
			message: 'A label named “WHOLESALE” already exists.',
			statusCode: 409,
			details: { source: 'body', fields: { title: ['A label named “WHOLESALE” already exists.'] } },
		})
		const arabic = await api.request('POST', labelsPath(team.workspace.id), {
			body: { title: 'wholesale', color: '#000000' },
			headers: { ...team.owner.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(arabic.body).toMatchObject({ message: 'يوجد بالفعل تصنيف باسم «wholesale».' })
		await createLabel(api, team.outsider.auth, team.elsewhere.id, { title: 'Wholesale' })
	})

	test('agents cannot create labels (403)', async () => {
		const response = await api.request('POST', labelsPath(team.workspace.id), { body: { title: 'agentmade', color: '#000000' }, headers: team.agent.auth })
		expect(response.status).toBe(403)
		expect(response.body).toEqual({ message: 'You are not allowed to do this.', statusCode: 403, details: null })
	})
})

describe('GET, PATCH and DELETE /v1/workspaces/{id}/labels', () => {
	let team: Team
	let labels: Record<string, LabelJson>
	let contacts: ContactJson[]
	beforeAll(async () => {
		team = await createTeam('Label list')
		labels = {}
		for (const title of ['gamma', 'Alpha', 'beta', 'دعم']) labels[title] = await createLabel(api, team.owner.auth, team.workspace.id, { title })
		contacts = [
			await createContact(api, team.agent.auth, team.workspace.id, { name: 'One', labelIds: [labels.beta!.id, labels.gamma!.id] }),
			await createContact(api, team.agent.auth, team.workspace.id, { name: 'Two', labelIds: [labels.beta!.id] }),
		]
	})

	test('every member lists the labels by title, whatever the case, with their contact counts', async () => {
		const response = await api.request('GET', labelsPath(team.workspace.id), { headers: team.agent.auth })
		expect(response.status).toBe(200)
		const body = response.body as { labels: LabelJson[] }
		expect(body.labels.map((label) => [label.title, label.contactCount])).toEqual([
			['Alpha', 0],
			['beta', 2],
			['gamma', 1],
			['دعم', 0],
		])
	})

	test('reads one label', async () => {
		const response = await api.request('GET', labelsPath(team.workspace.id, `/${labels.beta!.id}`), { headers: team.agent.auth })
		expect(response.body).toMatchObject({ id: labels.beta!.id, title: 'beta', contactCount: 2 })
	})

	test('owners and admins edit a label; a field left out stays; a taken title is a 409', async () => {
		const path = labelsPath(team.workspace.id, `/${labels.Alpha!.id}`)
		const renamed = await api.request('PATCH', path, { body: { title: 'Alpha-1', description: 'First' }, headers: team.admin.auth })
		expect(renamed.status).toBe(200)
		expect(renamed.body).toMatchObject({ title: 'Alpha-1', description: 'First', color: '#4f46e5' })
		const recoloured = await api.request('PATCH', path, { body: { color: '#FF0000' }, headers: team.owner.auth })
		expect(recoloured.body).toMatchObject({ title: 'Alpha-1', description: 'First', color: '#ff0000' })
		const cleared = await api.request('PATCH', path, { body: { description: null }, headers: team.owner.auth })
		expect(cleared.body).toMatchObject({ description: null })
		const taken = await api.request('PATCH', path, { body: { title: 'BETA' }, headers: team.owner.auth })
		expect(taken.status).toBe(409)
		expect(taken.body).toMatchObject({ details: { fields: { title: ['A label named “BETA” already exists.'] } } })
		const invalid = await api.request('PATCH', path, { body: { title: 'no spaces please' }, headers: team.owner.auth })
		expect(invalid.status).toBe(400)
		const agent = await api.request('PATCH', path, { body: { title: 'agent' }, headers: team.agent.auth })
		expect(agent.status).toBe(403)
	})

	test('deleting a label takes it off its contacts; agents may not; then it is gone', async () => {
		const path = labelsPath(team.workspace.id, `/${labels.beta!.id}`)
		expect((await api.request('DELETE', path, { headers: team.agent.auth })).status).toBe(403)
		expect((await api.request('DELETE', path, { headers: team.admin.auth })).status).toBe(204)
		const one = await api.request('GET', contactsPath(team.workspace.id, `/${contacts[0]!.id}`), { headers: team.agent.auth })
		expect((one.body as ContactJson).labels.map((label) => label.title)).toEqual(['gamma'])
		const links = await testDb().selectFrom('contactLabels').select('contactId').where('labelId', '=', labels.beta!.id).execute()
		expect(links).toEqual([])
		const again = await api.request('DELETE', path, { headers: team.owner.auth })
		expect(again.status).toBe(404)
		expect(again.body).toEqual(labelMissing)
		expect((await api.request('GET', path, { headers: team.owner.auth })).body).toEqual(labelMissing)
	})
})

describe('labels of one workspace cannot be reached from another', () => {
	let a: Team
	let b: Team
	let labelOfB: LabelJson
	beforeAll(async () => {
		a = await createTeam('Label isolation A')
		b = await createTeam('Label isolation B')
		await createLabel(api, a.owner.auth, a.workspace.id, { title: 'mine' })
		labelOfB = await createLabel(api, b.owner.auth, b.workspace.id, { title: 'theirs' })
	})

	test('a non-member gets 404 for every endpoint, as for a workspace that does not exist', async () => {
		const calls: Array<[string, string, unknown?]> = [
			['GET', labelsPath(b.workspace.id)],
			['POST', labelsPath(b.workspace.id), { title: 'intruder', color: '#000000' }],
			['GET', labelsPath(b.workspace.id, `/${labelOfB.id}`)],
			['PATCH', labelsPath(b.workspace.id, `/${labelOfB.id}`), { title: 'renamed' }],
			['DELETE', labelsPath(b.workspace.id, `/${labelOfB.id}`)],
		]
		for (const [method, path, body] of calls) {
			const response = await api.request(method, path, { body, headers: a.owner.auth })
			expect(response.status, `${method} ${path}`).toBe(404)
			expect(response.body).toEqual(notMember)
		}
		for (const path of [labelsPath('not-a-uuid'), labelsPath('00000000-0000-4000-8000-000000000000')]) {
			expect((await api.request('GET', path, { headers: a.owner.auth })).body).toEqual(notMember)
		}
	})

	test("B's label through A's id is a label that does not exist; so is a malformed id", async () => {
		for (const [method, body] of [['GET'], ['PATCH', { title: 'renamed' }], ['DELETE']] as const) {
			const response = await api.request(method, labelsPath(a.workspace.id, `/${labelOfB.id}`), { body, headers: a.owner.auth })
			expect(response.status, method).toBe(404)
			expect(response.body).toEqual(labelMissing)
		}
		expect((await api.request('GET', labelsPath(a.workspace.id, '/nope'), { headers: a.owner.auth })).body).toEqual(labelMissing)
		const list = await api.request('GET', labelsPath(a.workspace.id), { headers: a.owner.auth })
		expect((list.body as { labels: LabelJson[] }).labels.map((label) => label.title)).toEqual(['mine'])
		const untouched = await testDb().selectFrom('labels').select('title').where('id', '=', labelOfB.id).executeTakeFirstOrThrow()
		expect(untouched.title).toBe('theirs')
	})

	test('without a session: 401', async () => {
		const response = await api.request('GET', labelsPath(a.workspace.id))
		expect(response.status).toBe(401)
	})
})
