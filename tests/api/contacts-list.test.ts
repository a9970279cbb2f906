import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { decodeCursor, encodeCursor } from '#api/contacts/cursor.ts'
import { countCap } from '#api/contacts/queries.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { contactsPath, createContact, createLabel, insertContacts, type ContactJson } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type Page = { contacts: ContactJson[]; nextCursor: string | null; total: number; totalCapped: boolean }

async function list(team: Team, query: string) {
	const response = await api.request('GET', contactsPath(team.workspace.id, query), { headers: team.agent.auth })
	return { status: response.status, body: response.body as Page }
}

async function names(team: Team, query: string) {
	const { status, body } = await list(team, query)
	expect(status, JSON.stringify(body)).toBe(200)
	return body.contacts.map((contact) => contact.name)
}

/** Every page, following `nextCursor` until there is none. */
async function walk(team: Team, query: string) {
	const pages: Page[] = []
	let cursor: string | null = null
	do {
		const { status, body } = await list(team, `${query}${cursor ? `&cursor=${cursor}` : ''}`)
		expect(status, JSON.stringify(body)).toBe(200)
		pages.push(body)
		cursor = body.nextCursor
	} while (cursor && pages.length < 100)
	return pages
}

describe('keyset pages', () => {
	let team: Team
	beforeAll(async () => {
		team = await createTeam('Pages')
		// Ties on every sort key: twelve people with one name, ten created in the same microsecond; others a microsecond apart.
		const same = '2026-01-01T00:00:00.000000Z'
		const contacts = [
			...Array.from({ length: 12 }, (_, i) => ({ name: 'Same Name', createdAt: i < 10 ? same : `2026-01-01T00:00:00.00000${i - 9}Z` })),
			...Array.from({ length: 9 }, (_, i) => ({ name: `Person ${String.fromCharCode(65 + i)}`, createdAt: i < 3 ? same : `2026-01-01T00:00:00.00000${i}Z` })),
			...Array.from({ length: 9 }, (_, i) => ({ name: `Other ${i}`, createdAt: `2025-12-31T23:59:59.99999${i}Z` })),
		]
		await insertContacts(team.workspace.id, contacts)
		// Activity ties too: half of them at one instant.
		await sql`update contacts set last_activity_at = case when name like 'P%' or name like 'O%' then created_at else timestamptz '2026-02-01' end where workspace_id = ${team.workspace.id}`.execute(
			testDb(),
		)
	})

	async function reference(column: 'name_key' | 'created_at' | 'last_activity_at', direction: 'asc' | 'desc') {
		const rows = await sql<{
			id: string
		}>`select id from contacts where workspace_id = ${team.workspace.id} order by ${sql.ref(column)} ${sql.raw(direction)}, id ${sql.raw(direction)}`.execute(
			testDb(),
		)
		return rows.rows.map((row) => row.id)
	}

	test.each([
		['name', 'name_key', 'asc'],
		['name', 'name_key', 'desc'],
		['created', 'created_at', 'asc'],
		['created', 'created_at', 'desc'],
		['activity', 'last_activity_at', 'asc'],
		['activity', 'last_activity_at', 'desc'],
	] as const)('sort=%s direction=%s: every contact exactly once, in order, across pages of 4', async (sort, column, direction) => {
		const pages = await walk(team, `?sort=${sort}&direction=${direction}&limit=4`)
		expect(pages.map((page) => page.contacts.length)).toEqual([4, 4, 4, 4, 4, 4, 4, 2])
		expect(pages.flatMap((page) => page.contacts.map((contact) => contact.id))).toEqual(await reference(column, direction))
		expect(pages.every((page) => page.total === 30)).toBe(true)
		expect(pages.at(-1)?.nextCursor).toBeNull()
	})

	test('25 by default; names A→Z and dates newest first unless told', async () => {
		const first = await list(team, '')
		expect(first.body.contacts).toHaveLength(25)
		expect(first.body.contacts.map((contact) => contact.id)).toEqual((await reference('name_key', 'asc')).slice(0, 25))
		expect(first.body.nextCursor).toMatch(/^[\w-]+$/)
		const created = await list(team, '?sort=created&limit=3')
		expect(created.body.contacts.map((contact) => contact.id)).toEqual((await reference('created_at', 'desc')).slice(0, 3))
		// Parameters a GET form leaves empty count as not given.
		expect((await list(team, '?cursor=&search=&label=&sort=&direction=&limit=')).body.contacts).toHaveLength(25)
	})

	test('an exact page size ends with no next cursor', async () => {
		const { body } = await list(team, '?limit=30')
		expect(body.contacts).toHaveLength(30)
		expect(body.nextCursor).toBeNull()
	})

	test.each([
		['a malformed cursor', '?cursor=garbage!', 'cursor', 'This page link is no longer valid. Start again from the first page.'],
		[
			'a cursor that decodes to nothing of ours',
			`?cursor=${Buffer.from('{"page":2}').toString('base64url')}`,
			'cursor',
			'This page link is no longer valid. Start again from the first page.',
		],
		['a limit of 0', '?limit=0', 'limit', 'Must be at least 1.'],
		['a limit of 101', '?limit=101', 'limit', 'Must be at most 100.'],
		['an unknown sort', '?sort=email', 'sort', 'Choose one of: name, created, activity.'],
		['an unknown direction', '?direction=up', 'direction', 'Choose one of: asc, desc.'],
		['a malformed label', '?label=vip', 'label', 'This value is not valid.'],
	])('refuses %s (400)', async (_, query, field, message) => {
		const { status, body } = await list(team, query)
		expect(status).toBe(400)
		expect(body).toMatchObject({ message: 'Some fields are not valid.', details: { source: 'query', fields: { [field]: [message] } } })
	})

	test('a cursor only continues the sort and direction it came from', async () => {
		const { body } = await list(team, '?sort=created&limit=2')
		for (const query of [`?sort=name&cursor=${body.nextCursor}`, `?sort=created&direction=asc&cursor=${body.nextCursor}`]) {
			const refused = await list(team, query)
			expect(refused.status).toBe(400)
			expect(refused.body).toMatchObject({ details: { fields: { cursor: ['This page link is no longer valid. Start again from the first page.'] } } })
		}
		expect((await list(team, `?sort=created&direction=desc&cursor=${body.nextCursor}`)).status).toBe(200)
	})
})

describe('order of names', () => {
	test('without regard to case or accents; Arabic names in alphabetical order, whatever their hamza or vowel marks', async () => {
		const team = await createTeam('Name order')
		await insertContacts(
			team.workspace.id,
			['Zoë', 'ياسر', 'adam', 'ثامر', 'Émile', 'إبراهيم', 'Bob', 'بَسمة', 'أحمد', 'emma'].map((name) => ({ name })),
		)
		expect(await names(team, '')).toEqual(['adam', 'Bob', 'Émile', 'emma', 'Zoë', 'إبراهيم', 'أحمد', 'بَسمة', 'ثامر', 'ياسر'])
		expect(await names(team, '?direction=desc')).toEqual(['ياسر', 'ثامر', 'بَسمة', 'أحمد', 'إبراهيم', 'Zoë', 'emma', 'Émile', 'Bob', 'adam'])
	})
})

describe('search and label filter', () => {
	let team: Team
	beforeAll(async () => {
		team = await createTeam('Search')
		const people = [
			{ name: 'Élodie Durand', email: 'elodie@example.fr', company: 'Café Crème' },
			{ name: 'ELODIE MARTIN', phone: '+33612345678' },
			{ name: 'مُحَمَّد عبد الله' },
			{ name: 'محمد علي', phone: '+201012345678' },
			{ name: 'أحمد حسن', company: 'شركة النيل' },
			{ name: 'فاطمة الزهراء' },
			{ name: 'Zoë Adams', company: 'Nile Trading' },
			{ name: '100% Organic' },
			{ name: 'Bob', email: 'bob_smith@example.com' },
			{ name: 'Bobby', email: 'bobxsmith@example.com' },
		]
		for (const person of people) await createContact(api, team.agent.auth, team.workspace.id, person)
		const outsiderTeam = await createContact(api, team.outsider.auth, team.elsewhere.id, { name: 'Élodie Elsewhere', phone: '+201012345678' })
		expect(outsiderTeam.name).toBe('Élodie Elsewhere')
	})

	test.each([
		['elodie', ['Élodie Durand', 'ELODIE MARTIN']],
		['ÉLODIE', ['Élodie Durand', 'ELODIE MARTIN']],
		['éLoDiE mArTiN', ['ELODIE MARTIN']],
		['durand elodie', ['Élodie Durand']],
		['cafe creme', ['Élodie Durand']],
		['EXAMPLE.FR', ['Élodie Durand']],
		['zoe', ['Zoë Adams']],
		['nile', ['Zoë Adams']],
		['محمد', ['مُحَمَّد عبد الله', 'محمد علي']],
		['مُحَمَّد', ['مُحَمَّد عبد الله', 'محمد علي']],
		['علي', ['محمد علي']],
		['احمد', ['أحمد حسن']],
		['النيل', ['أحمد حسن']],
		['فاطمه', ['فاطمة الزهراء']],
		['1012345678', ['محمد علي']],
		['+20 10 1234 5678', ['محمد علي']],
		['010 1234 5678', ['محمد علي']],
		['0612345678', ['ELODIE MARTIN']],
		['100%', ['100% Organic']],
		['%', ['100% Organic']],
		['bob_', ['Bob']],
		['nobody at all', []],
	])('%s finds %j', async (search, expected) => {
		expect(await names(team, `?search=${encodeURIComponent(search)}`)).toEqual(expected)
	})

	test('a search is paged and counted like the full list', async () => {
		const first = await list(team, '?search=e&limit=2&sort=created&direction=asc')
		expect(first.body.total).toBe(5)
		const pages = await walk(team, '?search=e&limit=2&sort=created&direction=asc')
		expect(pages.flatMap((page) => page.contacts.map((contact) => contact.name))).toEqual(['Élodie Durand', 'ELODIE MARTIN', 'Zoë Adams', 'Bob', 'Bobby'])
	})

	test('reading all matches and sorting them, or walking the sort index, gives the same pages', async () => {
		for (const query of ['?search=e&limit=2', '?search=o&limit=1&sort=created', '?search=a&limit=3&sort=activity&direction=asc']) {
			const first = await list(team, query)
			const both = []
			for (const narrow of [true, false]) {
				const names = first.body.contacts.map((contact) => contact.name)
				let cursor = first.body.nextCursor
				while (cursor) {
					const decoded = decodeCursor(cursor)
					// The first page chose to read all (few) matches; the cursor carries the choice, here forced either way.
					expect(decoded?.narrow).toBe(cursor === first.body.nextCursor ? true : narrow)
					const { body } = await list(team, `${query}&cursor=${encodeCursor({ ...decoded!, narrow })}`)
					// A walking cursor stands for a search whose first page found more than countCap matches: it is not counted again.
					expect(body).toMatchObject(narrow ? { total: first.body.total, totalCapped: false } : { total: countCap, totalCapped: true })
					names.push(...body.contacts.map((contact) => contact.name))
					cursor = body.nextCursor
				}
				both.push(names)
			}
			expect(both[0]!.length).toBe(first.body.total)
			expect(both[1]!.length).toBe(first.body.total)
			expect(both[1]).toEqual(both[0])
		}
		// A cursor past the last match (its contacts deleted meanwhile) still answers the count.
		const beyond = encodeCursor({ sort: 'name', direction: 'asc', key: '\uffff', id: '00000000-0000-4000-8000-000000000000', narrow: true })
		expect((await list(team, `?search=e&cursor=${beyond}`)).body).toEqual({ contacts: [], nextCursor: null, total: 5, totalCapped: false })
	})

	test('by label, alone or with a search', async () => {
		const vip = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'vip' })
		const other = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'other' })
		const { body } = await list(team, '?limit=100')
		const byName = new Map(body.contacts.map((contact) => [contact.name, contact.id]))
		for (const name of ['ELODIE MARTIN', 'محمد علي', 'Bob']) {
			await api.request('PATCH', contactsPath(team.workspace.id, `/${byName.get(name)}`), { body: { labelIds: [vip.id, other.id] }, headers: team.agent.auth })
		}
		const labelled = await list(team, `?label=${vip.id}`)
		expect(labelled.body.total).toBe(3)
		expect(labelled.body.contacts.map((contact) => contact.name)).toEqual(['Bob', 'ELODIE MARTIN', 'محمد علي'])
		expect(labelled.body.contacts[0]?.labels.map((label) => label.title)).toEqual(['other', 'vip'])
		expect(await names(team, `?label=${vip.id}&search=elodie`)).toEqual(['ELODIE MARTIN'])
		const pages = await walk(team, `?label=${vip.id}&limit=2&sort=name&direction=desc`)
		expect(pages.flatMap((page) => page.contacts.map((contact) => contact.name))).toEqual(['محمد علي', 'ELODIE MARTIN', 'Bob'])
		expect(await names(team, '?label=00000000-0000-4000-8000-000000000000')).toEqual([])
	})
})
