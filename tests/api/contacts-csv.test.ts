import { parse } from 'csv-parse/sync'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { contactsIn, contactsPath, createContact, createLabel, importCsv } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type ImportAnswer = { created: number; updated: number; rejected: Array<{ row: number; field?: string; reason: string }> }

async function labelsOf(contactId: string) {
	const rows = await testDb()
		.selectFrom('contactLabels')
		.innerJoin('labels', 'labels.id', 'contactLabels.labelId')
		.select('labels.title')
		.where('contactLabels.contactId', '=', contactId)
		.orderBy('labels.title')
		.execute()
	return rows.map((row) => row.title)
}

async function exportCsv(team: Team, query = '') {
	const response = await fetch(`${api.url}${contactsPath(team.workspace.id, `/export${query}`)}`, { headers: team.agent.auth })
	const bytes = Buffer.from(await response.arrayBuffer())
	return { response, bytes, text: bytes.toString('utf8') }
}

describe('POST /v1/workspaces/{id}/contacts/import', () => {
	test('reads quoted fields with commas, quotes and line breaks, a BOM and CRLF line ends; creates unknown labels', async () => {
		const team = await createTeam('Import')
		const file = [
			'\uFEFFName,E-mail,Phone,Company,Labels,Notes,Ignored column',
			'"Durand, Élodie",ELODIE@example.fr,+33 6 12 34 56 78,"Café ""Crème""",vip; lyon ,"Line one',
			'line two",x',
			'محمد علي,mohamed@example.eg,+20 10 1234 5678,شركة النيل,عملاء_مهمون,,',
			',,,,,,',
			'Zoë,,,,,,',
		].join('\r\n')
		const response = await importCsv(api, team.owner.auth, team.workspace.id, file)
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		expect(response.body).toEqual({ created: 3, updated: 0, rejected: [] })
		const contacts = await contactsIn(team.workspace.id)
		expect(contacts.map(({ id: _, ...contact }) => contact)).toEqual([
			{ name: 'Durand, Élodie', email: 'elodie@example.fr', phone: '+33612345678', company: 'Café "Crème"', notes: 'Line one\r\nline two' },
			{ name: 'Zoë', email: null, phone: null, company: null, notes: null },
			{ name: 'محمد علي', email: 'mohamed@example.eg', phone: '+201012345678', company: 'شركة النيل', notes: null },
		])
		expect(await labelsOf(contacts[0]!.id)).toEqual(['lyon', 'vip'])
		expect(await labelsOf(contacts[2]!.id)).toEqual(['عملاء_مهمون'])
	})

	test('rejects bad rows with their spreadsheet row number and a reason, applies the rest', async () => {
		const team = await createTeam('Import rejects')
		const file = [
			'name,email,phone,labels',
			'Good One,one@example.test,,',
			'Bad Mail,not-an-address,,',
			'Bad Phone,,12345,',
			',nobody@example.test,,',
			'Bad Label,,,"two words"',
			'Too,many,cells,here,really',
			`${'x'.repeat(121)},,,`,
			'Good Two,two@example.test,,',
		].join('\n')
		const response = await importCsv(api, team.owner.auth, team.workspace.id, file)
		expect(response.body).toEqual({
			created: 2,
			updated: 0,
			rejected: [
				{ row: 3, field: 'email', reason: 'Enter a valid e-mail address.' },
				{ row: 4, field: 'phone', reason: 'Enter a valid phone number with its country code, such as +20 10 1234 5678.' },
				{ row: 5, field: 'name', reason: 'This field is required.' },
				{ row: 6, field: 'labels', reason: '“two words” is not a valid label: use only letters, digits, - and _.' },
				{ row: 7, reason: 'This row has more cells than the header row.' },
				{ row: 8, field: 'name', reason: 'Must be at most 120 characters.' },
			],
		})
		expect((await contactsIn(team.workspace.id)).map((contact) => contact.name)).toEqual(['Good One', 'Good Two'])
		const arabic = await importCsv(api, team.owner.auth, team.workspace.id, 'name,email\nX,bad\n', '', { 'Accept-Language': 'ar-EG' })
		expect((arabic.body as ImportAnswer).rejected[0]?.reason).toMatch(/[\u0600-\u06FF]/)
	})

	test('updates the contact with the row’s e-mail, else its phone; empty cells change nothing; a repeated row updates what the first created', async () => {
		const team = await createTeam('Import updates')
		const byEmail = await createContact(api, team.owner.auth, team.workspace.id, {
			name: 'Amira',
			email: 'amira@example.test',
			company: 'Old Co',
			notes: 'Keep me',
		})
		const byPhone = await createContact(api, team.owner.auth, team.workspace.id, { name: 'Omar', phone: '+201012345678' })
		const file = [
			'name,email,phone,company,labels',
			',AMIRA@example.test,,New Co,returning',
			'Omar Farouk,omar@example.test,+20 10 1234 5678,,',
			'Newcomer,new@example.test,,First Co,',
			'Newcomer Again,new@example.test,,,late',
		].join('\n')
		const response = await importCsv(api, team.owner.auth, team.workspace.id, file)
		expect(response.body).toEqual({ created: 1, updated: 3, rejected: [] })
		const contacts = await contactsIn(team.workspace.id)
		expect(contacts.map(({ id: _, ...contact }) => contact)).toEqual([
			{ name: 'Amira', email: 'amira@example.test', phone: null, company: 'New Co', notes: 'Keep me' },
			{ name: 'Newcomer Again', email: 'new@example.test', phone: null, company: 'First Co', notes: null },
			{ name: 'Omar Farouk', email: 'omar@example.test', phone: '+201012345678', company: null, notes: null },
		])
		expect(await labelsOf(byEmail.id)).toEqual(['returning'])
		expect(contacts.find((contact) => contact.id === byPhone.id)?.name).toBe('Omar Farouk')
		expect(await labelsOf(contacts[1]!.id)).toEqual(['late'])
	})

	test('a phone shared by several contacts matches none; a national number needs ?country', async () => {
		const team = await createTeam('Import phones')
		await createContact(api, team.owner.auth, team.workspace.id, { name: 'Twin One', phone: '+201012345678' })
		await createContact(api, team.owner.auth, team.workspace.id, { name: 'Twin Two', phone: '+201012345678' })
		const shared = await importCsv(api, team.owner.auth, team.workspace.id, 'name,phone\nWhich,+201012345678\n')
		expect(shared.body).toEqual({
			created: 0,
			updated: 0,
			rejected: [{ row: 2, field: 'phone', reason: 'Several contacts have this phone number: add their e-mail address to choose one.' }],
		})
		const national = await importCsv(api, team.owner.auth, team.workspace.id, 'name,phone\nLocal,010 9876 5432\n', '?country=EG')
		expect(national.body).toEqual({ created: 1, updated: 0, rejected: [] })
		expect((await contactsIn(team.workspace.id)).find((contact) => contact.name === 'Local')?.phone).toBe('+201098765432')
		const badCountry = await importCsv(api, team.owner.auth, team.workspace.id, 'name\nX\n', '?country=ZZ')
		expect(badCountry.status).toBe(400)
		expect(badCountry.body).toMatchObject({ details: { source: 'query', fields: { country: ['Choose a country as a two-letter code, such as EG or FR.'] } } })
	})

	test('agents import too, but only with labels that exist', async () => {
		const team = await createTeam('Import agents')
		await createLabel(api, team.owner.auth, team.workspace.id, { title: 'Known' })
		const response = await importCsv(api, team.agent.auth, team.workspace.id, 'name,labels\nWith known,known\nWith new,brand-new\n')
		expect(response.body).toEqual({
			created: 1,
			updated: 0,
			rejected: [{ row: 3, field: 'labels', reason: 'The label “brand-new” does not exist, and only owners and admins can create labels.' }],
		})
		expect(await testDb().selectFrom('labels').select('title').where('workspaceId', '=', team.workspace.id).execute()).toEqual([{ title: 'Known' }])
	})

	test('a row the database refuses is rejected alone, with nothing of it applied (not even its new label)', async () => {
		const team = await createTeam('Import atomic')
		const guard = sql`alter table contacts add constraint test_refused_company check (company is distinct from 'Refused') not valid`
		await guard.execute(testDb())
		try {
			const file = 'name,company,labels\nBefore,Fine,kept\nRefused Row,Refused,only-here\nAfter,Fine,kept\n'
			const response = await importCsv(api, team.owner.auth, team.workspace.id, file)
			expect(response.body).toEqual({ created: 2, updated: 0, rejected: [{ row: 3, reason: 'This row could not be saved.' }] })
		} finally {
			await sql`alter table contacts drop constraint test_refused_company`.execute(testDb())
		}
		expect((await contactsIn(team.workspace.id)).map((contact) => contact.name)).toEqual(['After', 'Before'])
		const labels = await testDb().selectFrom('labels').select('title').where('workspaceId', '=', team.workspace.id).execute()
		expect(labels).toEqual([{ title: 'kept' }])
	})

	test.each([
		[
			'an unclosed quote',
			'name,email\n"Open,a@example.test\nB,b@example.test\n',
			400,
			{ message: 'The file is not valid CSV near line 3: check for an unclosed quotation mark.', details: { line: 3 } },
		],
		['no name column', 'email,phone\na@example.test,\n', 400, { message: expect.stringContaining('The file has no “name” column.') }],
		['an empty file', '', 400, { message: 'The file is empty.' }],
		['only a BOM', '\uFEFF', 400, { message: 'The file is empty.' }],
	])('refuses %s as a whole', async (_, file, status, body) => {
		const team = await createTeam('Import refusals')
		const response = await importCsv(api, team.owner.auth, team.workspace.id, file)
		expect(response.status).toBe(status)
		expect(response.body).toMatchObject(body)
		expect(await contactsIn(team.workspace.id)).toEqual([])
	})

	test('refuses a file that is not UTF-8, a JSON body and a file over 20 MB', async () => {
		const team = await createTeam('Import types')
		const latin1 = await importCsv(api, team.owner.auth, team.workspace.id, Buffer.from('name\nZo\xeb\n', 'latin1'))
		expect(latin1).toMatchObject({ status: 400, body: { message: 'The file is not UTF-8 text. In Excel, save it as “CSV UTF-8”.' } })
		const json = await api.request('POST', contactsPath(team.workspace.id, '/import'), { body: { name: 'A' }, headers: team.owner.auth })
		expect(json).toMatchObject({ status: 415, body: { message: 'Send the file as CSV (Content-Type: text/csv).' } })
		const huge = await importCsv(api, team.owner.auth, team.workspace.id, `name\n${'x'.repeat(21 * 1024 * 1024)}\n`)
		expect(huge).toMatchObject({ status: 413, body: { message: 'The request body is too large.' } })
		// Elsewhere the API still takes JSON only.
		const csvElsewhere = await api.request('POST', contactsPath(team.workspace.id), {
			rawBody: 'name\nA\n',
			headers: { ...team.owner.auth, 'Content-Type': 'text/csv' },
		})
		expect(csvElsewhere.status).toBe(415)
	})

	test('50 000 rows in one import, in batches', async () => {
		const team = await createTeam('Import 50k')
		const lines = ['name,email,phone,company,labels']
		for (let i = 0; i < 50_000; i++)
			lines.push(`Contact ${i},contact${i}@example.test,+2010${String(10_000_000 + i)},Company ${i % 100},${i % 2 ? 'odd' : 'even'}`)
		const response = await importCsv(api, team.owner.auth, team.workspace.id, lines.join('\n'))
		expect(response.body).toEqual({ created: 50_000, updated: 0, rejected: [] })
		const list = await api.request('GET', contactsPath(team.workspace.id, '?search=contact49999@'), { headers: team.agent.auth })
		expect(list.body).toMatchObject({ total: 1, contacts: [{ name: 'Contact 49999', phone: '+201010049999', labels: [{ title: 'odd' }] }] })
	}, 60_000)
})

describe('GET /v1/workspaces/{id}/contacts/export', () => {
	test('a UTF-8 CSV with a BOM, as an attachment, that imports back into the same contacts', async () => {
		const team = await createTeam('Export')
		const vip = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'vip' })
		const people = [
			{ name: 'Durand, Élodie', email: 'elodie@example.fr', phone: '+33612345678', company: 'Café "Crème"', notes: 'Line one\nline two', labelIds: [vip.id] },
			{ name: 'محمد علي', email: 'mohamed@example.eg', phone: '+201012345678', company: 'شركة النيل' },
			{ name: '=HYPERLINK("http://evil.test")', company: '@risk', notes: '-negative' },
		]
		for (const person of people) await createContact(api, team.owner.auth, team.workspace.id, person)
		const { response, bytes, text } = await exportCsv(team)
		expect(response.status).toBe(200)
		expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
		expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/)
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		const rows = parse(text, { bom: true }) as string[][]
		expect(rows[0]).toEqual(['name', 'email', 'phone', 'company', 'labels', 'notes', 'created_at'])
		expect(rows.slice(1).map((row) => row.slice(0, 6))).toEqual([
			['\'=HYPERLINK("http://evil.test")', '', '', "'@risk", '', "'-negative"],
			['Durand, Élodie', 'elodie@example.fr', '+33612345678', 'Café "Crème"', 'vip', 'Line one\nline two'],
			['محمد علي', 'mohamed@example.eg', '+201012345678', 'شركة النيل', '', ''],
		])

		const copy = await createTeam('Export copy')
		const imported = await importCsv(api, copy.owner.auth, copy.workspace.id, bytes)
		expect(imported.body).toEqual({ created: 3, updated: 0, rejected: [] })
		const strip = (contacts: Awaited<ReturnType<typeof contactsIn>>) => contacts.map(({ id: _, ...contact }) => contact)
		expect(strip(await contactsIn(copy.workspace.id))).toEqual(strip(await contactsIn(team.workspace.id)))
		const again = await importCsv(api, team.owner.auth, team.workspace.id, bytes)
		expect(again.body).toEqual({ created: 1, updated: 2, rejected: [] })
	})

	test('exports the current filter and order, page after page', async () => {
		const team = await createTeam('Export filter')
		const vip = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'vip' })
		const file = ['name,labels', ...Array.from({ length: 2500 }, (_, i) => `Person ${String(i).padStart(4, '0')},${i % 3 === 0 ? 'vip' : ''}`)].join('\n')
		expect((await importCsv(api, team.owner.auth, team.workspace.id, file)).body).toMatchObject({ created: 2500 })
		const all = parse((await exportCsv(team, '?sort=name&direction=desc')).text, { bom: true, columns: true }) as Array<{ name: string; labels: string }>
		expect(all).toHaveLength(2500)
		expect(all[0]?.name).toBe('Person 2499')
		expect(all.at(-1)?.name).toBe('Person 0000')
		const vips = parse((await exportCsv(team, `?label=${vip.id}`)).text, { bom: true, columns: true }) as Array<{ name: string; labels: string }>
		expect(vips).toHaveLength(834)
		expect(vips.every((row) => row.labels === 'vip')).toBe(true)
		// Every word of a search must appear, in any order.
		const searched = parse((await exportCsv(team, '?search=12 person&sort=name')).text, { bom: true, columns: true }) as Array<{ name: string }>
		expect(searched.map((row) => row.name)).toEqual(
			all
				.map((row) => row.name)
				.filter((name) => name.includes('12'))
				.reverse(),
		)
		const invalid = await exportCsv(team, '?sort=email')
		expect(invalid.response.status).toBe(400)
	})
})
