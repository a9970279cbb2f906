import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { countCap } from '#api/contacts/queries.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { contactsPath, createContact, createLabel, importCsv, insertContacts, labelsPath, type ContactJson, type LabelJson } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type Page = { contacts: ContactJson[]; nextCursor: string | null; total: number; totalCapped: boolean }

async function list(team: Team, query = '') {
	const response = await api.request('GET', contactsPath(team.workspace.id, query), { headers: team.agent.auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as Page
}

async function labels(team: Team) {
	const response = await api.request('GET', labelsPath(team.workspace.id), { headers: team.agent.auth })
	expect(response.status).toBe(200)
	return (response.body as { labels: LabelJson[] }).labels
}

/** The counts as the triggers keep them equal a recount, in the team's workspace and the one next door. */
async function expectCountsRecounted(team: Team) {
	const db = testDb()
	for (const workspaceId of [team.workspace.id, team.elsewhere.id]) {
		const kept = await db.selectFrom('workspaces').select('contactCount').where('id', '=', workspaceId).executeTakeFirstOrThrow()
		const recount = await db
			.selectFrom('contacts')
			.select((eb) => eb.fn.countAll<number>().as('n'))
			.where('workspaceId', '=', workspaceId)
			.executeTakeFirstOrThrow()
		expect(kept.contactCount).toBe(recount.n)
	}
	const recounted = await db
		.selectFrom('labels')
		.leftJoin('contactLabels', 'contactLabels.labelId', 'labels.id')
		.select(['labels.id', (eb) => eb.fn.count<number>('contactLabels.contactId').as('n')])
		.where('labels.workspaceId', 'in', [team.workspace.id, team.elsewhere.id])
		.groupBy('labels.id')
		.execute()
	const kept = await db.selectFrom('labels').select(['id', 'contactCount']).where('workspaceId', 'in', [team.workspace.id, team.elsewhere.id]).execute()
	expect(Object.fromEntries(kept.map((label) => [label.id, label.contactCount]))).toEqual(Object.fromEntries(recounted.map((label) => [label.id, label.n])))
	// The search table (migration 0008) holds exactly the contacts, as they are now.
	const unsynced = await sql<{ n: number }>`
		select count(*)::int as n from contacts full join contact_search on contact_search.contact_id = contacts.id
		where coalesce(contacts.workspace_id, contact_search.workspace_id) in (${team.workspace.id}, ${team.elsewhere.id})
			and (contacts.id is null or contact_search.contact_id is null or contact_search.workspace_id <> contacts.workspace_id
				or contact_search.name_key <> contacts.name_key or contact_search.search_text <> contacts.search_text
				or contact_search.created_at <> contacts.created_at or contact_search.last_activity_at <> contacts.last_activity_at)
	`.execute(db)
	expect(unsynced.rows[0]?.n).toBe(0)
	// And the API answers them.
	const total = (await list(team)).total
	expect(total).toBe((await db.selectFrom('workspaces').select('contactCount').where('id', '=', team.workspace.id).executeTakeFirstOrThrow()).contactCount)
	for (const label of await labels(team)) {
		expect(label.contactCount).toBe(recounted.find((row) => row.id === label.id)?.n ?? 0)
		expect((await list(team, `?label=${label.id}`)).total).toBe(label.contactCount)
	}
	return total
}

describe('contact counts', () => {
	test('the list total, every label count and the search table stay equal to a recount through creates, edits, bulk actions, deletes, imports and label deletion', async () => {
		const team = await createTeam()
		const auth = team.owner.auth
		const id = team.workspace.id
		const [vip, lead] = await Promise.all([createLabel(api, auth, id, { title: 'VIP' }), createLabel(api, auth, id, { title: 'Lead' })])
		const neighbourLabel = await createLabel(api, team.outsider.auth, team.elsewhere.id, { title: 'VIP' })
		expect(await expectCountsRecounted(team)).toBe(0)

		const created = await Promise.all(
			Array.from({ length: 12 }, (_, n) => createContact(api, auth, id, { name: `Person ${n}`, labelIds: n % 2 ? [vip.id] : [vip.id, lead.id] })),
		)
		await createContact(api, team.outsider.auth, team.elsewhere.id, { name: 'Next door', labelIds: [neighbourLabel.id] })
		expect(await expectCountsRecounted(team)).toBe(12)

		// An edit that replaces the labels, then the bulk actions.
		const [first, second, third, ...rest] = created.map((contact) => contact.id)
		expect((await api.request('PATCH', contactsPath(id, `/${first}`), { body: { labelIds: [lead.id] }, headers: auth })).status).toBe(200)
		expect(
			(await api.request('POST', contactsPath(id, '/bulk'), { body: { action: 'label', contactIds: rest, labelId: lead.id }, headers: auth })).status,
		).toBe(200)
		expect(
			(await api.request('POST', contactsPath(id, '/bulk'), { body: { action: 'unlabel', contactIds: [second, third], labelId: vip.id }, headers: auth }))
				.status,
		).toBe(200)
		expect(await expectCountsRecounted(team)).toBe(12)

		// An edit is searched by its new name at once.
		expect((await api.request('PATCH', contactsPath(id, `/${third}`), { body: { name: 'Zacharie Renamed' }, headers: auth })).status).toBe(200)
		expect((await list(team, '?search=zacharie')).contacts.map((contact) => contact.id)).toEqual([third])
		expect(await expectCountsRecounted(team)).toBe(12)

		expect((await api.request('DELETE', contactsPath(id, `/${first}`), { headers: auth })).status).toBe(204)
		expect(
			(await api.request('POST', contactsPath(id, '/bulk'), { body: { action: 'delete', contactIds: [second, ...rest.slice(0, 3)] }, headers: auth })).status,
		).toBe(200)
		expect(await expectCountsRecounted(team)).toBe(7)

		// An import creates contacts, updates one by e-mail and creates a label.
		const rows = Array.from({ length: 30 }, (_, n) => `Imported ${n},imported${n}@example.test,,,VIP;Imported,,`)
		const imported = await importCsv(api, auth, id, `name,email,phone,company,labels,notes,created_at\n${rows.join('\n')}\n`)
		expect(imported.status, JSON.stringify(imported.body)).toBe(200)
		expect(await expectCountsRecounted(team)).toBe(37)

		// A label's deletion takes it off its contacts (cascade): the other labels keep their counts.
		expect((await api.request('DELETE', labelsPath(id, `/${vip.id}`), { headers: auth })).status).toBe(204)
		expect(await expectCountsRecounted(team)).toBe(37)
	})

	test('writers of one workspace at the same time leave the counts right (no lost update, no deadlock)', async () => {
		const team = await createTeam()
		const auth = team.owner.auth
		const id = team.workspace.id
		const label = await createLabel(api, auth, id, { title: 'Busy' })
		const seeded = await Promise.all(Array.from({ length: 10 }, (_, n) => createContact(api, auth, id, { name: `Seeded ${n}`, labelIds: [label.id] })))
		const responses = await Promise.all([
			...Array.from({ length: 10 }, (_, n) =>
				api.request('POST', contactsPath(id), { body: { name: `Concurrent ${n}`, labelIds: [label.id] }, headers: auth }),
			),
			api.request('POST', contactsPath(id, '/bulk'), {
				body: { action: 'delete', contactIds: seeded.slice(0, 5).map((contact) => contact.id) },
				headers: auth,
			}),
			api.request('POST', contactsPath(id, '/bulk'), {
				body: { action: 'unlabel', contactIds: seeded.slice(5).map((contact) => contact.id), labelId: label.id },
				headers: auth,
			}),
			importCsv(api, auth, id, 'name,labels\nFrom a file,Busy\nAnother,Busy\n'),
		])
		expect(responses.map((response) => response.status)).toEqual([...Array(10).fill(201), 200, 200, 200])
		expect(await expectCountsRecounted(team)).toBe(17)
		expect((await labels(team)).find((found) => found.id === label.id)?.contactCount).toBe(12)
	})

	test(`a search with more than ${countCap.toLocaleString('en-US')} matches says so on every page; ?count=exact counts them; other lists count exactly`, async () => {
		const team = await createTeam()
		const many = countCap + 5
		// Straight into the database: the triggers count rows however they arrive.
		await sql`
			insert into contacts (workspace_id, name, avatar_color)
			select ${team.workspace.id}, 'Capped ' || i, '#6366f1' from generate_series(1, ${many}) as i
		`.execute(testDb())
		await insertContacts(team.workspace.id, [{ name: 'Someone else' }])
		await insertContacts(team.elsewhere.id, [{ name: 'Capped next door' }])

		const first = await list(team, '?search=capped')
		expect(first).toMatchObject({ total: countCap, totalCapped: true })
		expect(first.contacts).toHaveLength(25)
		const second = await list(team, `?search=capped&cursor=${first.nextCursor}`)
		expect(second).toMatchObject({ total: countCap, totalCapped: true })
		expect(second.contacts.map((contact) => contact.id)).not.toContain(first.contacts[0]?.id)
		expect(await list(team, '?search=capped&count=exact')).toMatchObject({ total: many, totalCapped: false })
		expect(await list(team, `?search=capped&count=exact&cursor=${first.nextCursor}`)).toMatchObject({ total: many, totalCapped: false })

		// Fewer matches, the whole list and a label: exact without asking.
		// 1999, 11999 and 19990 to 19999.
		expect(await list(team, '?search=capped 1999')).toMatchObject({ total: 12, totalCapped: false })
		expect(await list(team)).toMatchObject({ total: many + 1, totalCapped: false })
		expect(await list(team, '?count=exact')).toMatchObject({ total: many + 1, totalCapped: false })
		expect(await expectCountsRecounted(team)).toBe(many + 1)
	})

	test('?count takes only "exact"', async () => {
		const team = await createTeam()
		const response = await api.request('GET', contactsPath(team.workspace.id, '?count=all'), { headers: team.agent.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { source: 'query', fields: { count: [expect.any(String)] } } })
	})
})
