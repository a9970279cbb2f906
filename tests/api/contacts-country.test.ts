import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, type TestApi } from './harness.ts'
import { contactsPath, createContact, importCsv } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type ImportAnswer = { created: number; updated: number; rejected: Array<{ row: number; field?: string; reason: string }> }

// Issue 27: a support team in Cairo types its customers' numbers as they dial them, without +20.
describe('a workspace’s country reads local phone numbers', () => {
	let team: Team
	const workspacePath = () => `/v1/workspaces/${team.workspace.id}`
	beforeAll(async () => {
		team = await createTeam('Cairo Desk')
	})

	test('follows the time zone until an owner or admin chooses one; null follows the time zone again', async () => {
		const utc = await api.request('GET', workspacePath(), { headers: team.agent.auth })
		expect(utc.body).toMatchObject({ timezone: 'UTC', country: null, countryChosen: false })

		const cairo = await api.request('PATCH', workspacePath(), { body: { timezone: 'Africa/Cairo' }, headers: team.admin.auth })
		expect(cairo.body).toMatchObject({ country: 'EG', countryChosen: false })
		const local = await createContact(api, team.agent.auth, team.workspace.id, { name: 'محمد', phone: '010 1234 5678' })
		expect(local.phone).toBe('+201012345678')
		// A contact's own country wins, and so does a number with its prefix.
		expect((await createContact(api, team.agent.auth, team.workspace.id, { name: 'Élodie', phone: '06 12 34 56 78', country: 'FR' })).phone).toBe(
			'+33612345678',
		)
		expect((await createContact(api, team.agent.auth, team.workspace.id, { name: 'Sam', phone: '+1 415 555 2671' })).phone).toBe('+14155552671')
		const edited = await api.request('PATCH', contactsPath(team.workspace.id, `/${local.id}`), { body: { phone: '011 2345 6789' }, headers: team.agent.auth })
		expect(edited.body).toMatchObject({ phone: '+201123456789' })

		const france = await api.request('PATCH', workspacePath(), { body: { country: 'fr' }, headers: team.owner.auth })
		expect(france.body).toMatchObject({ timezone: 'Africa/Cairo', country: 'FR', countryChosen: true })
		expect((await createContact(api, team.agent.auth, team.workspace.id, { name: 'Zoé', phone: '07 81 23 45 67' })).phone).toBe('+33781234567')

		const back = await api.request('PATCH', workspacePath(), { body: { country: '' }, headers: team.admin.auth })
		expect(back.body).toMatchObject({ country: 'EG', countryChosen: false })
		const profile = await api.request('GET', '/v1/auth/profile', { headers: team.owner.auth })
		expect(profile.body).toMatchObject({ workspace: { country: 'EG', countryChosen: false } })
	})

	test('a country that does not exist, or an agent choosing one, is refused', async () => {
		const unknown = await api.request('PATCH', workspacePath(), { body: { country: 'XX' }, headers: team.owner.auth })
		expect(unknown.status).toBe(400)
		expect(unknown.body).toMatchObject({ details: { source: 'body', fields: { country: ['Choose a country as a two-letter code, such as EG or FR.'] } } })
		expect((await api.request('PATCH', workspacePath(), { body: { country: 'EG' }, headers: team.agent.auth })).status).toBe(403)
	})

	test('the CSV import reads local numbers in the workspace’s country unless the request names another', async () => {
		await api.request('PATCH', workspacePath(), { body: { timezone: 'Africa/Cairo', country: null }, headers: team.owner.auth })
		const file = 'name,phone\nنور,010 9876 5432\nAlain,06 11 22 33 44\n'
		const cairo = await importCsv(api, team.agent.auth, team.workspace.id, file)
		expect(cairo.body as ImportAnswer).toEqual({ created: 1, updated: 0, rejected: [{ row: 3, field: 'phone', reason: 'Enter a valid phone number.' }] })
		const france = await importCsv(api, team.agent.auth, team.workspace.id, file, '?country=FR')
		expect(france.body as ImportAnswer).toMatchObject({ created: 1, rejected: [{ row: 2, field: 'phone' }] })
		const alain = await api.request('GET', contactsPath(team.workspace.id, '?search=Alain'), { headers: team.agent.auth })
		expect(alain.body).toMatchObject({ contacts: [{ phone: '+33611223344' }] })
	})
})
