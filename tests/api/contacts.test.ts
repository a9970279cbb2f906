import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { contactsPath, createContact, createLabel, importCsv, type ContactJson, type LabelJson } from './contacts-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

const notMember = { message: 'This workspace does not exist, or you are not a member of it.', statusCode: 404, details: null }
const contactMissing = { message: 'This contact does not exist.', statusCode: 404, details: null }

describe('POST /v1/workspaces/{id}/contacts', () => {
	let team: Team
	beforeAll(async () => {
		team = await createTeam('Contacts')
	})

	test('a name is enough; every member may create', async () => {
		for (const person of [team.owner, team.admin, team.agent]) {
			const contact = await createContact(api, person.auth, team.workspace.id, { name: '  Nour  ' })
			expect(Object.keys(contact).sort()).toEqual([
				'attributes',
				'avatarColor',
				'company',
				'createdAt',
				'email',
				'id',
				'identities',
				'labels',
				'lastActivityAt',
				'name',
				'notes',
				'optedOutAt',
				'phone',
				'possibleMatches',
				'unverifiedEmail',
				'updatedAt',
			])
			expect(contact).toMatchObject({
				name: 'Nour',
				email: null,
				phone: null,
				company: null,
				notes: null,
				attributes: {},
				labels: [],
				identities: [],
				optedOutAt: null,
			})
			expect(contact.avatarColor).toMatch(/^#[0-9a-f]{6}$/)
			expect(contact.lastActivityAt).toBe(contact.createdAt)
		}
	})

	test('e-mail trimmed and lower-cased, phone in E.164, empty fields stored as none', async () => {
		const label = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'lead' })
		const contact = await createContact(api, team.agent.auth, team.workspace.id, {
			name: 'Élodie Durand',
			email: '  Elodie.Durand@Example.FR ',
			phone: '+33 6 12 34 56 78',
			company: '',
			notes: 'Prefers WhatsApp.\nCall after 6 pm.',
			attributes: { plan: 'pro', ville: 'Lyon' },
			labelIds: [label.id, label.id.toUpperCase()],
		})
		expect(contact).toMatchObject({
			email: 'elodie.durand@example.fr',
			phone: '+33612345678',
			company: null,
			notes: 'Prefers WhatsApp.\nCall after 6 pm.',
			attributes: { plan: 'pro', ville: 'Lyon' },
			labels: [{ id: label.id, title: 'lead', color: '#4f46e5' }],
		})
	})

	test('a national number is read in the country given', async () => {
		const contact = await createContact(api, team.agent.auth, team.workspace.id, { name: 'محمد', phone: '010 1234 5678', country: 'eg' })
		expect(contact.phone).toBe('+201012345678')
		expect(contact).not.toHaveProperty('country')
	})

	test.each([
		['no name', {}, 'name', 'This field is required.'],
		['an empty name', { name: '   ' }, 'name', 'Must be at least 1 character.'],
		['a long name', { name: 'x'.repeat(121) }, 'name', 'Must be at most 120 characters.'],
		['a bad e-mail', { name: 'A', email: 'not-an-address' }, 'email', 'Enter a valid e-mail address.'],
		[
			'a national number without a country',
			{ name: 'A', phone: '010 1234 5678' },
			'phone',
			'Enter a valid phone number with its country code, such as +20 10 1234 5678.',
		],
		[
			'a number that does not exist',
			{ name: 'A', phone: '+20 101 234' },
			'phone',
			'Enter a valid phone number with its country code, such as +20 10 1234 5678.',
		],
		['a bad number for its country', { name: 'A', phone: '12', country: 'FR' }, 'phone', 'Enter a valid phone number.'],
		['an unknown country', { name: 'A', phone: '0612345678', country: 'XX' }, 'country', 'Choose a country as a two-letter code, such as EG or FR.'],
		['a long company', { name: 'A', company: 'x'.repeat(121) }, 'company', 'Must be at most 120 characters.'],
		['a non-text attribute', { name: 'A', attributes: { age: 42 } }, 'attributes.age', 'This value is not valid.'],
		[
			'too many attributes',
			{ name: 'A', attributes: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
			'attributes',
			'A contact can have at most 50 custom attributes.',
		],
		['a malformed label id', { name: 'A', labelIds: ['nope'] }, 'labelIds.0', 'This value is not valid.'],
	])('refuses %s (400, beside the field)', async (_, body, field, message) => {
		const response = await api.request('POST', contactsPath(team.workspace.id), { body, headers: team.agent.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message: 'Some fields are not valid.', details: { source: 'body', fields: { [field]: [message] } } })
	})

	test('refuses an unknown label (400, saying so, beside the field)', async () => {
		const response = await api.request('POST', contactsPath(team.workspace.id), {
			body: { name: 'A', labelIds: ['00000000-0000-4000-8000-000000000000'] },
			headers: team.agent.auth,
		})
		const message = 'One of these labels no longer exists. Reload the page and choose again.'
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message, details: { source: 'body', fields: { labelIds: [message] } } })
	})

	test('reports every field at once, in the caller’s language', async () => {
		const response = await api.request('POST', contactsPath(team.workspace.id), {
			body: { name: '', email: 'x', phone: 'abc' },
			headers: { ...team.agent.auth, 'Accept-Language': 'fr' },
		})
		expect(response.body).toMatchObject({
			details: {
				fields: {
					name: [expect.any(String)],
					email: [expect.any(String)],
					phone: ['Saisissez un numéro de téléphone valide avec son indicatif pays, par exemple +33 6 12 34 56 78.'],
				},
			},
		})
	})

	test('a label of another workspace is unknown here', async () => {
		const theirs = await createLabel(api, team.outsider.auth, team.elsewhere.id, { title: 'foreign' })
		const response = await api.request('POST', contactsPath(team.workspace.id), { body: { name: 'A', labelIds: [theirs.id] }, headers: team.owner.auth })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { fields: { labelIds: ['One of these labels no longer exists. Reload the page and choose again.'] } } })
	})

	test('an e-mail is unique per workspace, whatever its case (409 beside the field); another workspace may have it', async () => {
		await createContact(api, team.agent.auth, team.workspace.id, { name: 'First', email: 'same@example.test' })
		const response = await api.request('POST', contactsPath(team.workspace.id), {
			body: { name: 'Second', email: 'SAME@example.test' },
			headers: team.agent.auth,
		})
		expect(response.status).toBe(409)
		expect(response.body).toEqual({
			message: 'A contact with the e-mail address same@example.test already exists.',
			statusCode: 409,
			details: { source: 'body', fields: { email: ['A contact with the e-mail address same@example.test already exists.'] } },
		})
		const arabic = await api.request('POST', contactsPath(team.workspace.id), {
			body: { name: 'Second', email: 'same@example.test' },
			headers: { ...team.agent.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(arabic.body).toMatchObject({ message: 'توجد بالفعل جهة اتصال بعنوان البريد الإلكتروني same@example.test.' })
		await createContact(api, team.outsider.auth, team.elsewhere.id, { name: 'Elsewhere', email: 'same@example.test' })
	})

	test('the body must be JSON (415)', async () => {
		const response = await api.request('POST', contactsPath(team.workspace.id), {
			rawBody: 'name=A',
			headers: { ...team.agent.auth, 'Content-Type': 'application/x-www-form-urlencoded' },
		})
		expect(response.status).toBe(415)
	})
})

describe('GET, PATCH and DELETE /v1/workspaces/{id}/contacts/{contactId}', () => {
	let team: Team
	let labels: LabelJson[]
	let contact: ContactJson
	beforeAll(async () => {
		team = await createTeam('Contact edits')
		labels = [
			await createLabel(api, team.owner.auth, team.workspace.id, { title: 'one' }),
			await createLabel(api, team.owner.auth, team.workspace.id, { title: 'two' }),
		]
	})

	test('reads a contact', async () => {
		contact = await createContact(api, team.agent.auth, team.workspace.id, {
			name: 'Karim',
			email: 'karim@example.test',
			phone: '+201012345678',
			company: 'Nile Trading',
			attributes: { tier: 'gold' },
			labelIds: [labels[0]!.id],
		})
		const response = await api.request('GET', contactsPath(team.workspace.id, `/${contact.id}`), { headers: team.agent.auth })
		expect(response.status).toBe(200)
		expect(response.body).toEqual(contact)
	})

	test('a field left out stays, null or empty clears it; attributes and labels are replaced as a whole', async () => {
		const path = contactsPath(team.workspace.id, `/${contact.id}`)
		const company = await api.request('PATCH', path, { body: { company: 'Delta Foods' }, headers: team.agent.auth })
		expect(company.status).toBe(200)
		expect(company.body).toMatchObject({
			name: 'Karim',
			email: 'karim@example.test',
			phone: '+201012345678',
			company: 'Delta Foods',
			attributes: { tier: 'gold' },
			labels: [{ title: 'one' }],
		})
		expect((company.body as ContactJson).updatedAt > contact.updatedAt).toBe(true)

		const cleared = await api.request('PATCH', path, {
			body: { email: null, phone: '', attributes: { city: 'Alexandria' }, labelIds: [labels[1]!.id] },
			headers: team.agent.auth,
		})
		expect(cleared.body).toMatchObject({ email: null, phone: null, company: 'Delta Foods', attributes: { city: 'Alexandria' }, labels: [{ title: 'two' }] })

		const unlabelled = await api.request('PATCH', path, { body: { labelIds: [] }, headers: team.agent.auth })
		expect(unlabelled.body).toMatchObject({ labels: [], attributes: { city: 'Alexandria' } })

		const nothing = await api.request('PATCH', path, { body: {}, headers: team.agent.auth })
		expect(nothing.body).toEqual(unlabelled.body)
	})

	test('edits are validated like a new contact; the name cannot be emptied; a taken e-mail is a 409', async () => {
		const path = contactsPath(team.workspace.id, `/${contact.id}`)
		await createContact(api, team.agent.auth, team.workspace.id, { name: 'Other', email: 'other@example.test' })
		const taken = await api.request('PATCH', path, { body: { email: 'Other@Example.test' }, headers: team.agent.auth })
		expect(taken.status).toBe(409)
		expect(taken.body).toMatchObject({ details: { fields: { email: ['A contact with the e-mail address other@example.test already exists.'] } } })
		for (const [body, field] of [
			[{ name: null }, 'name'],
			[{ name: '' }, 'name'],
			[{ phone: '12345' }, 'phone'],
			[{ email: 'x@' }, 'email'],
			[{ labelIds: ['00000000-0000-4000-8000-000000000000'] }, 'labelIds'],
		] as const) {
			const response = await api.request('PATCH', path, { body, headers: team.agent.auth })
			expect(response.status, JSON.stringify(body)).toBe(400)
			expect(Object.keys((response.body as { details: { fields: object } }).details.fields)).toEqual([field])
		}
		const phone = await api.request('PATCH', path, { body: { phone: '06 12 34 56 78', country: 'FR' }, headers: team.agent.auth })
		expect(phone.body).toMatchObject({ phone: '+33612345678' })
	})

	test('owners and admins delete a contact, agents may not (403); then it is gone (404)', async () => {
		const doomed = await createContact(api, team.agent.auth, team.workspace.id, { name: 'Doomed', labelIds: [labels[0]!.id] })
		const other = await createContact(api, team.agent.auth, team.workspace.id, { name: 'Doomed too' })
		const path = contactsPath(team.workspace.id, `/${doomed.id}`)
		const refused = await api.request('DELETE', path, { headers: team.agent.auth })
		expect(refused.status).toBe(403)
		expect(refused.body).toEqual({ message: 'You are not allowed to do this.', statusCode: 403, details: null })
		expect((await api.request('GET', path, { headers: team.agent.auth })).status).toBe(200)
		expect((await api.request('DELETE', path, { headers: team.admin.auth })).status).toBe(204)
		expect((await api.request('DELETE', contactsPath(team.workspace.id, `/${other.id}`), { headers: team.owner.auth })).status).toBe(204)
		for (const method of ['GET', 'PATCH', 'DELETE']) {
			const response = await api.request(method, path, { body: method === 'PATCH' ? { name: 'Back' } : undefined, headers: team.owner.auth })
			expect(response.status, method).toBe(404)
			expect(response.body).toEqual(contactMissing)
		}
		expect(await testDb().selectFrom('contactLabels').select('labelId').where('contactId', '=', doomed.id).execute()).toEqual([])
	})
})

describe('contacts of one workspace cannot be reached from another', () => {
	let a: Team
	let b: Team
	let contactOfB: ContactJson
	let labelOfB: LabelJson
	beforeAll(async () => {
		a = await createTeam('Contact isolation A')
		b = await createTeam('Contact isolation B')
		await createContact(api, a.owner.auth, a.workspace.id, { name: 'Mine', email: 'shared@example.test' })
		labelOfB = await createLabel(api, b.owner.auth, b.workspace.id, { title: 'theirs' })
		contactOfB = await createContact(api, b.owner.auth, b.workspace.id, { name: 'Theirs', email: 'shared@example.test', labelIds: [labelOfB.id] })
	})

	const everyEndpoint = (workspaceId: string, contactId: string, labelId: string): Array<[string, string, unknown?]> => [
		['GET', contactsPath(workspaceId)],
		['GET', contactsPath(workspaceId, '?search=theirs')],
		['POST', contactsPath(workspaceId), { name: 'Intruder' }],
		['GET', contactsPath(workspaceId, `/${contactId}`)],
		['PATCH', contactsPath(workspaceId, `/${contactId}`), { name: 'Renamed' }],
		['DELETE', contactsPath(workspaceId, `/${contactId}`)],
		['POST', contactsPath(workspaceId, '/bulk'), { action: 'label', contactIds: [contactId], labelId }],
		['POST', contactsPath(workspaceId, '/bulk'), { action: 'delete', contactIds: [contactId] }],
		['GET', contactsPath(workspaceId, '/export')],
	]

	test('a non-member gets 404 for every endpoint (and the import), and nothing changes', async () => {
		const before = await testDb().selectFrom('contacts').selectAll().where('workspaceId', '=', b.workspace.id).execute()
		for (const [method, path, body] of everyEndpoint(b.workspace.id, contactOfB.id, labelOfB.id)) {
			const response = await api.request(method, path, { body, headers: a.owner.auth })
			expect(response.status, `${method} ${path}`).toBe(404)
			expect(response.body).toEqual(notMember)
		}
		const imported = await importCsv(api, a.owner.auth, b.workspace.id, 'name,email\nIntruder,shared@example.test\n')
		expect(imported).toEqual({ status: 404, body: notMember })
		expect(await testDb().selectFrom('contacts').selectAll().where('workspaceId', '=', b.workspace.id).execute()).toEqual(before)
		for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
			expect((await api.request('GET', contactsPath(id), { headers: a.owner.auth })).body).toEqual(notMember)
		}
	})

	test("B's contact through A's id does not exist; bulk actions and lists skip it", async () => {
		for (const [method, body] of [['GET'], ['PATCH', { name: 'Renamed' }], ['DELETE']] as const) {
			const response = await api.request(method, contactsPath(a.workspace.id, `/${contactOfB.id}`), { body, headers: a.owner.auth })
			expect(response.status, method).toBe(404)
			expect(response.body).toEqual(contactMissing)
		}
		expect((await api.request('GET', contactsPath(a.workspace.id, '/not-a-uuid'), { headers: a.owner.auth })).body).toEqual(contactMissing)
		const bulk = await api.request('POST', contactsPath(a.workspace.id, '/bulk'), {
			body: { action: 'delete', contactIds: [contactOfB.id] },
			headers: a.owner.auth,
		})
		expect(bulk.body).toEqual({ action: 'delete', affected: 0 })
		const foreignLabel = await api.request('POST', contactsPath(a.workspace.id, '/bulk'), {
			body: { action: 'label', contactIds: [contactOfB.id], labelId: labelOfB.id },
			headers: a.owner.auth,
		})
		expect(foreignLabel.status).toBe(404)
		const list = await api.request('GET', contactsPath(a.workspace.id, '?search=shared'), { headers: a.owner.auth })
		expect((list.body as { contacts: ContactJson[] }).contacts.map((contact) => contact.name)).toEqual(['Mine'])
		const filtered = await api.request('GET', contactsPath(a.workspace.id, `?label=${labelOfB.id}`), { headers: a.owner.auth })
		expect(filtered.body).toMatchObject({ contacts: [], total: 0 })
		const after = await testDb().selectFrom('contacts').select(['name', 'email']).where('id', '=', contactOfB.id).executeTakeFirstOrThrow()
		expect(after).toEqual({ name: 'Theirs', email: 'shared@example.test' })
	})

	test('without a session: 401 everywhere', async () => {
		for (const [method, path, body] of everyEndpoint(a.workspace.id, contactOfB.id, labelOfB.id)) {
			const response = await api.request(method, path, { body })
			expect(response.status, `${method} ${path}`).toBe(401)
		}
	})
})
