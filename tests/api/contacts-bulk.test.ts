import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { contactsPath, createLabel, insertContacts, type LabelJson } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

describe('POST /v1/workspaces/{id}/contacts/bulk', () => {
	let team: Team
	let label: LabelJson
	let mine: string[]
	let theirs: string[]
	beforeAll(async () => {
		team = await createTeam('Bulk')
		label = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'campaign' })
	})
	beforeEach(async () => {
		mine = (
			await insertContacts(
				team.workspace.id,
				['A', 'B', 'C', 'D'].map((name) => ({ name })),
			)
		).map((row) => row.id)
		theirs = (await insertContacts(team.elsewhere.id, [{ name: 'Elsewhere' }])).map((row) => row.id)
	})

	const bulk = (auth: Record<string, string>, body: unknown) => api.request('POST', contactsPath(team.workspace.id, '/bulk'), { body, headers: auth })

	async function labelled(ids: string[]) {
		const rows = await testDb().selectFrom('contactLabels').select('contactId').where('contactId', 'in', ids).execute()
		return rows.map((row) => row.contactId).sort()
	}

	test('labels the chosen contacts of the workspace only, once however often asked; any member may', async () => {
		const chosen = [mine[0]!, mine[1]!, mine[2]!, theirs[0]!, '00000000-0000-4000-8000-000000000000']
		const response = await bulk(team.agent.auth, { action: 'label', contactIds: chosen, labelId: label.id })
		expect(response.status).toBe(200)
		expect(response.body).toEqual({ action: 'label', affected: 3 })
		expect((await bulk(team.agent.auth, { action: 'label', contactIds: chosen, labelId: label.id })).body).toEqual({ action: 'label', affected: 3 })
		expect(await labelled([...mine, ...theirs])).toEqual([mine[0]!, mine[1]!, mine[2]!].sort())
	})

	test('takes a label off', async () => {
		await bulk(team.agent.auth, { action: 'label', contactIds: mine, labelId: label.id })
		const response = await bulk(team.agent.auth, { action: 'unlabel', contactIds: [mine[0]!, mine[3]!], labelId: label.id })
		expect(response.body).toEqual({ action: 'unlabel', affected: 2 })
		expect(await labelled(mine)).toEqual([mine[1]!, mine[2]!].sort())
	})

	test('owners and admins delete in bulk; agents may not (403, nothing deleted)', async () => {
		const refused = await bulk(team.agent.auth, { action: 'delete', contactIds: mine })
		expect(refused.status).toBe(403)
		const count = async () =>
			(
				await testDb()
					.selectFrom('contacts')
					.select('id')
					.where('id', 'in', [...mine, ...theirs])
					.execute()
			).length
		expect(await count()).toBe(5)
		expect((await bulk(team.admin.auth, { action: 'delete', contactIds: [mine[0]!, mine[1]!, theirs[0]!] })).body).toEqual({ action: 'delete', affected: 2 })
		expect((await bulk(team.owner.auth, { action: 'delete', contactIds: [mine[2]!] })).body).toEqual({ action: 'delete', affected: 1 })
		expect(await count()).toBe(2)
	})

	test.each([
		['no contacts', { action: 'delete', contactIds: [] }, 'contactIds', 'Must be at least 1.'],
		[
			'too many contacts',
			{ action: 'delete', contactIds: Array.from({ length: 1001 }, () => '00000000-0000-4000-8000-000000000000') },
			'contactIds',
			'Must be at most 1000.',
		],
		['a malformed id', { action: 'delete', contactIds: ['x'] }, 'contactIds.0', 'This value is not valid.'],
		['an unknown action', { action: 'archive', contactIds: ['00000000-0000-4000-8000-000000000000'] }, 'action', 'Choose one of: label, unlabel, delete.'],
		['labelling without a label', { action: 'label', contactIds: ['00000000-0000-4000-8000-000000000000'] }, 'labelId', 'This field is required.'],
	])('refuses %s (400)', async (_, body, field, message) => {
		const response = await bulk(team.owner.auth, body)
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { source: 'body', fields: { [field]: [message] } } })
	})

	test('a label that does not exist here is a 404', async () => {
		const theirLabel = await createLabel(api, team.outsider.auth, team.elsewhere.id, { title: 'campaign' })
		for (const labelId of [theirLabel.id, '00000000-0000-4000-8000-000000000000']) {
			const response = await bulk(team.owner.auth, { action: 'label', contactIds: mine, labelId })
			expect(response.status).toBe(404)
			expect(response.body).toMatchObject({ message: 'This label does not exist.' })
		}
		expect(await labelled(mine)).toEqual([])
	})
})
