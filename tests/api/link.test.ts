import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Kysely } from 'kysely'
import { addActivity } from '#api/conversations/inbound.ts'
import { up } from '#api/db/migrations/0036_link_away_message.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

type Thread = {
	conversationId: string | null
	messages: Array<{ id: string; direction: string; body: string; senderName: string | null; createdAt: string }>
	olderCursor: string | null
}

let api: TestApi
let team: Team
let slug: string
let channelId: string
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Link visitors')
	slug = `visit-${crypto.randomBytes(4).toString('hex')}`
	const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
		body: { kind: 'link', name: 'Website', slug, settings: { greeting: 'Welcome!' } },
		headers: team.owner.auth,
	})
	channelId = (created.body as { id: string }).id
	const away = { enabled: false, text: 'We reply within a day.', translations: { 'fr-x': 'Nous répondons sous un jour.' } }
	const replies = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/channels/${channelId}`, {
		body: { autoReplies: { away } },
		headers: team.owner.auth,
	})
	expect(replies.status).toBe(200)
})
afterAll(() => api.close())

const newToken = () => crypto.randomBytes(32).toString('base64url')
// Each test its own address (believed from loopback, as from the web app), so address limits do not carry over.
const newIp = () => `10.${crypto.randomInt(255)}.${crypto.randomInt(255)}.${crypto.randomInt(255)}`
const as = (token: string, extra: Record<string, string> = {}) => ({ 'X-Visitor-Token': token, 'X-Forwarded-For': newIp(), ...extra })

function post(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}, to = slug) {
	return api.request('POST', `/v1/link/${to}/messages`, { body, headers: { ...as(token), ...headers } })
}

async function thread(token: string, query = '', to = slug): Promise<Thread> {
	const response = await api.request('GET', `/v1/link/${to}/messages${query}`, { headers: as(token) })
	expect(response.status).toBe(200)
	return response.body as Thread
}

/** The contact a visitor's identity belongs to. */
async function visitorContact(token: string): Promise<string> {
	const identity = await testDb()
		.selectFrom('contactIdentities')
		.select('contactId')
		.where('externalId', '=', crypto.createHash('sha256').update(token).digest('hex'))
		.executeTakeFirstOrThrow()
	return identity.contactId
}

const gone = { message: 'This chat link does not exist or is switched off.', statusCode: 404, details: null }

describe('the link channel’s public face', () => {
	test('anyone reads the page of an enabled link: business name, greeting, the away reply’s words and what the pre-chat form asks', async () => {
		const response = await api.request('GET', `/v1/link/${slug.toUpperCase()}`)
		expect(response.status).toBe(200)
		expect(response.body).toEqual({
			slug,
			name: 'Website',
			businessName: 'Link visitors',
			logoColor: expect.any(String),
			greeting: 'Welcome!',
			awayText: 'We reply within a day.',
			askName: false,
			askEmail: false,
			closed: false,
			backAt: null,
			timezone: 'UTC',
		})
	})

	test('the away reply’s words come in the page’s language where the owner translated them, else its text', async () => {
		const french = await api.request('GET', `/v1/link/${slug}`, { headers: { 'Accept-Language': 'fr-x' } })
		expect(french.body).toMatchObject({ awayText: 'Nous répondons sous un jour.' })
		const arabic = await api.request('GET', `/v1/link/${slug}`, { headers: { 'Accept-Language': 'ar-eg' } })
		expect(arabic.body).toMatchObject({ awayText: 'We reply within a day.' })
	})

	test('migration 0036 folds a page’s older away message into the away auto-reply, losing no words and sending none', async () => {
		const db = testDb()
		const channelWith = async (settings: Record<string, unknown>, autoReplies: unknown) => {
			const created = await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
				body: { kind: 'link', name: 'Older', slug: `older-${crypto.randomBytes(4).toString('hex')}` },
				headers: team.owner.auth,
			})
			const id = (created.body as { id: string }).id
			await db
				.updateTable('channels')
				.set({ settings, autoReplies: autoReplies as never })
				.where('id', '=', id)
				.execute()
			return id
		}
		const greeting = { greeting: 'Hi', askName: true, askEmail: false }
		const textless = await channelWith({ ...greeting, awayMessage: ' Back at 9. ' }, null)
		const worded = await channelWith(
			{ ...greeting, awayMessage: 'Back at 9.' },
			{ away: { enabled: true, text: 'We are closed.', translations: { 'fr-x': 'Fermé.' } }, greeting: { enabled: false, text: '', translations: {} } },
		)
		const same = await channelWith({ ...greeting, awayMessage: 'Back at 9.' }, { away: { enabled: false, text: 'Back at 9.', translations: {} } })
		const blank = await channelWith({ ...greeting, awayMessage: '  ' }, null)
		await up(db as unknown as Kysely<unknown>)
		const rows = await db.selectFrom('channels').select(['id', 'settings', 'autoReplies']).where('id', 'in', [textless, worded, same, blank]).execute()
		const of = (id: string) => rows.find((row) => row.id === id)!
		for (const row of rows) expect(row.settings).toEqual(greeting)
		// Never sent before: not sent now until the owner switches it on.
		expect(of(textless).autoReplies).toEqual({ away: { enabled: false, text: 'Back at 9.', translations: {} } })
		expect(of(worded).autoReplies).toEqual({
			away: { enabled: true, text: 'We are closed.\n\nBack at 9.', translations: { 'fr-x': 'Fermé.' } },
			greeting: { enabled: false, text: '', translations: {} },
		})
		expect(of(same).autoReplies).toEqual({ away: { enabled: false, text: 'Back at 9.', translations: {} } })
		expect(of(blank).autoReplies).toBeNull()
		// The page reads the folded words.
		const page = await api.request(
			'GET',
			`/v1/link/${(await db.selectFrom('channels').select('slug').where('id', '=', textless).executeTakeFirstOrThrow()).slug}`,
		)
		expect(page.body).toMatchObject({ greeting: 'Hi', awayText: 'Back at 9.' })
	})

	test('an unknown or switched-off slug answers 404 on every route, translated', async () => {
		const off = `off-${crypto.randomBytes(4).toString('hex')}`
		await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			body: { kind: 'link', name: 'Off', slug: off, enabled: false },
			headers: team.owner.auth,
		})
		for (const target of ['no-such-link', off]) {
			expect((await api.request('GET', `/v1/link/${target}`)).body).toEqual(gone)
			expect((await api.request('GET', `/v1/link/${target}/messages`, { headers: as(newToken()) })).body).toEqual(gone)
			expect((await post(newToken(), { body: 'Hello?' }, {}, target)).body).toEqual(gone)
		}
		const arabic = await api.request('GET', '/v1/link/no-such-link', { headers: { 'Accept-Language': 'ar-EG' } })
		expect(arabic.body).toMatchObject({ statusCode: 404, message: 'رابط الدردشة هذا غير موجود أو متوقف.' })
	})
})

describe('a visitor', () => {
	test('writes without an account: a contact, its identity (the token’s SHA-256), a numbered conversation in the inbox', async () => {
		const token = newToken()
		expect(await thread(token)).toEqual({ conversationId: null, survey: null, messages: [], olderCursor: null })
		const response = await post(token, { body: '  Hello, are you open on Friday?  ' })
		expect(response.status).toBe(201)
		const answer = response.body as { conversationId: string; message: { id: string; body: string; direction: string } }
		expect(answer.message).toMatchObject({ body: 'Hello, are you open on Friday?', direction: 'incoming', senderName: null })
		const hash = crypto.createHash('sha256').update(token).digest('hex')
		const identity = await testDb()
			.selectFrom('contactIdentities')
			.selectAll()
			.where('channelId', '=', channelId)
			.where('externalId', '=', hash)
			.executeTakeFirstOrThrow()
		const conversation = await testDb().selectFrom('conversations').selectAll().where('id', '=', answer.conversationId).executeTakeFirstOrThrow()
		expect(conversation).toMatchObject({ workspaceId: team.workspace.id, channelId, identityId: identity.id, status: 'open', incomingCount: 1 })
		const contact = await testDb().selectFrom('contacts').selectAll().where('id', '=', identity.contactId).executeTakeFirstOrThrow()
		expect(contact.name).toBe(`Visitor ${hash.slice(0, 6)}`)
		// Nothing stores the token itself.
		const stored = JSON.stringify(await testDb().selectFrom('contactIdentities').selectAll().where('channelId', '=', channelId).execute())
		expect(stored).not.toContain(token)
		// Members see that the contact wrote on the link, never the hash that names their cookie.
		const read = await api.request('GET', `/v1/workspaces/${team.workspace.id}/contacts/${contact.id}`, { headers: team.agent.auth })
		expect((read.body as { identities: unknown[] }).identities).toEqual([
			{ channelId, channelKind: 'link', channelName: expect.any(String), externalId: null, since: expect.any(String) },
		])
		expect(JSON.stringify(read.body)).not.toContain(hash)

		const again = await post(token, { body: 'Second question' })
		expect((again.body as { conversationId: string }).conversationId).toBe(answer.conversationId)
	})

	test('reads their own thread: their messages and the team’s replies, never notes nor activity, paged from the newest', async () => {
		const token = newToken()
		const first = (await post(token, { body: 'm1' })).body as { conversationId: string }
		const conversation = await testDb().selectFrom('conversations').selectAll().where('id', '=', first.conversationId).executeTakeFirstOrThrow()
		const insert = (direction: 'incoming' | 'outgoing', kind: 'text' | 'note', body: string, senderId: string | null = null) =>
			testDb()
				.insertInto('messages')
				.values({ workspaceId: team.workspace.id, conversationId: conversation.id, channelId, direction, kind, body, senderId })
				.execute()
		await insert('outgoing', 'text', 'Hi! Yes, we are.', team.agent.user.id)
		await insert('outgoing', 'note', 'Private: VIP customer', team.agent.user.id)
		await addActivity(testDb(), conversation, { key: 'activity.reopenedByCustomer', values: {} })
		for (let n = 2; n <= 5; n++) await post(token, { body: `m${n}` })

		const all = await thread(token)
		expect(all.conversationId).toBe(conversation.id)
		expect(all.messages.map((message) => [message.direction, message.body, message.senderName])).toEqual([
			['incoming', 'm1', null],
			['outgoing', 'Hi! Yes, we are.', team.agent.user.name],
			['incoming', 'm2', null],
			['incoming', 'm3', null],
			['incoming', 'm4', null],
			['incoming', 'm5', null],
		])
		expect(all.olderCursor).toBeNull()

		const newest = await thread(token, '?limit=4')
		expect(newest.messages.map((message) => message.body)).toEqual(['m2', 'm3', 'm4', 'm5'])
		const older = await thread(token, `?limit=4&before=${newest.olderCursor}`)
		expect(older).toMatchObject({ olderCursor: null })
		expect(older.messages.map((message) => message.body)).toEqual(['m1', 'Hi! Yes, we are.'])

		// Another visitor of the same channel sees nothing of it.
		const stranger = newToken()
		await post(stranger, { body: 'Mine' })
		expect((await thread(stranger)).messages.map((message) => message.body)).toEqual(['Mine'])
		expect((await api.request('GET', `/v1/link/${slug}/messages?before=abc`, { headers: as(token) })).status).toBe(400)
	})

	test('a visitor who gives the e-mail of another visitor’s contact never reads nor writes in that visitor’s thread', async () => {
		const email = `shared-${crypto.randomBytes(3).toString('hex')}@example.com`
		const first = newToken()
		await post(first, { body: 'My secret order number is 42', email })
		const second = newToken()
		const answer = (await post(second, { body: 'Hello', email })).body as { conversationId: string }
		// Their own conversation, with a contact of their own: the first visitor's is not theirs to read, nor to write in.
		expect(await thread(second)).toMatchObject({ conversationId: answer.conversationId, messages: [{ body: 'Hello' }] })
		const conversations = await testDb()
			.selectFrom('conversations')
			.innerJoin('contacts', 'contacts.id', 'conversations.contactId')
			.select(['conversations.id', 'contacts.email'])
			.where('conversations.channelId', '=', channelId)
			.where('conversations.id', '=', answer.conversationId)
			.execute()
		expect(conversations).toEqual([{ id: answer.conversationId, email: null }])
		expect((await thread(first)).messages.map((message) => message.body)).toEqual(['My secret order number is 42'])
	})

	test('the pre-chat form asks name and e-mail before the first message only, with translated messages; the e-mail is a claim, never the contact it names', async () => {
		const asking = `ask-${crypto.randomBytes(4).toString('hex')}`
		await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			body: { kind: 'link', name: 'Asks', slug: asking, settings: { askName: true, askEmail: true } },
			headers: team.owner.auth,
		})
		const known = await testDb()
			.insertInto('contacts')
			.values({ workspaceId: team.workspace.id, name: 'Nadia Known', email: 'nadia.known@example.com', phone: '+201001234567', avatarColor: '#123456' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const token = newToken()
		const refused = await post(token, { body: 'Hi' }, {}, asking)
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({ details: { fields: { name: ['Please tell us your name.'], email: ['Please give your e-mail address.'] } } })
		const french = await post(token, { body: 'Salut', name: 'Nadia', email: 'pas-un-email' }, { 'Accept-Language': 'fr' }, asking)
		expect(french.body).toMatchObject({ details: { fields: { email: ['Saisissez une adresse e-mail valide.'] } } })
		const arabic = await post(token, { body: 'مرحبا' }, { 'Accept-Language': 'ar-EG' }, asking)
		expect(arabic.body).toMatchObject({ details: { fields: { name: ['يُرجى كتابة اسمك.'] } } })

		expect((await post(token, { body: 'Hi', name: 'Nadia', email: ' Nadia.Known@example.com ' }, {}, asking)).status).toBe(201)
		// A contact of their own, the e-mail kept as what they typed; the known contact is untouched and shown as a possible match.
		const contactId = await visitorContact(token)
		expect(contactId).not.toBe(known.id)
		const visitor = await api.request('GET', `/v1/workspaces/${team.workspace.id}/contacts/${contactId}`, { headers: team.agent.auth })
		expect(visitor.body).toMatchObject({
			name: 'Nadia',
			email: null,
			unverifiedEmail: 'nadia.known@example.com',
			phone: null,
			possibleMatches: [{ id: known.id, name: 'Nadia Known' }],
		})
		expect(await testDb().selectFrom('contactIdentities').select('id').where('contactId', '=', known.id).execute()).toEqual([])
		expect((await post(token, { body: 'No form the second time' }, {}, asking)).status).toBe(201)
	})

	test('a name and an e-mail the channel does not ask for are ignored', async () => {
		const token = newToken()
		const email = `unasked-${crypto.randomBytes(3).toString('hex')}@example.com`
		expect((await post(token, { body: 'Hello', name: 'Grace Gold', email })).status).toBe(201)
		const contact = await testDb()
			.selectFrom('contacts')
			.select(['name', 'email', 'unverifiedEmail'])
			.where('id', '=', await visitorContact(token))
			.executeTakeFirstOrThrow()
		expect(contact).toEqual({ name: expect.stringMatching(/^Visitor /), email: null, unverifiedEmail: null })
	})

	test('a visitor who types a customer’s e-mail gets nothing of theirs: not their contact, thread, campaigns nor opt-out', async () => {
		const email = `grace-${crypto.randomBytes(3).toString('hex')}@example.com`
		const asking = `claim-${crypto.randomBytes(4).toString('hex')}`
		await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			body: { kind: 'link', name: 'Claims', slug: asking, settings: { askEmail: true } },
			headers: team.owner.auth,
		})
		// The real customer: created by hand, then writing on the link channel themselves.
		const grace = await testDb()
			.insertInto('contacts')
			.values({ workspaceId: team.workspace.id, name: 'Grace Gold', email, company: 'A-99812', avatarColor: '#123456' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const attacker = newToken()
		const answer = await post(attacker, { body: 'STOP', email: email.toUpperCase() }, {}, asking)
		expect(answer.status).toBe(201)
		expect(await visitorContact(attacker)).not.toBe(grace.id)
		const real = await testDb()
			.selectFrom('contacts')
			.select(['optedOutAt', 'lastActivityAt', 'createdAt'])
			.where('id', '=', grace.id)
			.executeTakeFirstOrThrow()
		expect(real.optedOutAt).toBeNull()
		// Their conversation's contact is their own, and the inbox says the e-mail is theirs to claim only.
		const { conversationId } = answer.body as { conversationId: string }
		const listed = await testDb().selectFrom('conversations').select('contactId').where('id', '=', conversationId).executeTakeFirstOrThrow()
		expect(listed.contactId).not.toBe(grace.id)
	})

	test('four first messages at once with one e-mail: four contacts, four threads, no 500, nothing lost', async () => {
		const asking = `race-${crypto.randomBytes(4).toString('hex')}`
		await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			body: { kind: 'link', name: 'Race', slug: asking, settings: { askEmail: true } },
			headers: team.owner.auth,
		})
		for (const email of ['shared-known@example.com', `new-${crypto.randomBytes(3).toString('hex')}@example.com`]) {
			const tokens = [newToken(), newToken(), newToken(), newToken()]
			const answers = await Promise.all(tokens.map((token, index) => post(token, { body: `first of ${index}`, email }, {}, asking)))
			expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201])
			await Promise.all(tokens.map((token, index) => post(token, { body: `second of ${index}` }, {}, asking)))
			for (const [index, token] of tokens.entries()) {
				expect((await thread(token, '', asking)).messages.map((message) => message.body)).toEqual([`first of ${index}`, `second of ${index}`])
			}
			expect(new Set(await Promise.all(tokens.map(visitorContact))).size).toBe(4)
		}
	})

	test('an owner or admin merges a visitor into the contact they named; each visitor keeps their own thread', async () => {
		const email = `merge-${crypto.randomBytes(3).toString('hex')}@example.com`
		const asking = `merge-${crypto.randomBytes(4).toString('hex')}`
		await api.request('POST', `/v1/workspaces/${team.workspace.id}/channels`, {
			body: { kind: 'link', name: 'Merges', slug: asking, settings: { askEmail: true } },
			headers: team.owner.auth,
		})
		const [first, second] = [newToken(), newToken()]
		await post(first, { body: 'From my phone', email }, {}, asking)
		await post(second, { body: 'From my laptop', email }, {}, asking)
		const customer = await testDb()
			.insertInto('contacts')
			.values({ workspaceId: team.workspace.id, name: 'Merged Customer', email, avatarColor: '#123456' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const merge = (visitor: string, into: string, auth: Record<string, string>, workspaceId = team.workspace.id) =>
			api.request('POST', `/v1/workspaces/${workspaceId}/contacts/${visitor}/merge`, { body: { into }, headers: auth })
		const [firstContact, secondContact] = [await visitorContact(first), await visitorContact(second)]

		expect((await merge(firstContact, customer.id, team.agent.auth)).status).toBe(403)
		expect((await merge(firstContact, customer.id, team.outsider.auth, team.elsewhere.id)).status).toBe(404)
		expect((await merge(firstContact, firstContact, team.admin.auth)).body).toMatchObject({
			statusCode: 400,
			details: { fields: { into: ['A contact cannot be merged into itself.'] } },
		})
		const merged = await merge(firstContact, customer.id, team.admin.auth)
		expect(merged.status).toBe(200)
		expect(merged.body).toMatchObject({ id: customer.id, email, identities: [{ channelKind: 'link' }] })
		expect((await merge(secondContact, customer.id, team.owner.auth)).status).toBe(200)
		expect((await api.request('GET', `/v1/workspaces/${team.workspace.id}/contacts/${firstContact}`, { headers: team.owner.auth })).status).toBe(404)

		// One contact, two visitors: each next message continues that visitor's own thread, which only they read.
		await post(first, { body: 'Phone again' }, {}, asking)
		await post(second, { body: 'Laptop again' }, {}, asking)
		expect((await thread(first, '', asking)).messages.map((message) => message.body)).toEqual(['From my phone', 'Phone again'])
		expect((await thread(second, '', asking)).messages.map((message) => message.body)).toEqual(['From my laptop', 'Laptop again'])
		const conversations = await testDb().selectFrom('conversations').select('id').where('contactId', '=', customer.id).execute()
		expect(conversations).toHaveLength(2)
		const audit = await testDb()
			.selectFrom('auditEvents')
			.select(['kind', 'values'])
			.where('workspaceId', '=', team.workspace.id)
			.where('kind', '=', 'contacts.merged')
			.execute()
		expect(audit).toHaveLength(2)
	})

	test.each([
		['no token', {}, { body: 'x' }, 'This chat needs a visitor token (the X-Visitor-Token header, 32 to 256 letters, digits, - or _).'],
		[
			'a short token',
			{ 'X-Visitor-Token': 'short' },
			{ body: 'x' },
			'This chat needs a visitor token (the X-Visitor-Token header, 32 to 256 letters, digits, - or _).',
		],
		['an empty message', null, { body: '   ' }, 'Some fields are not valid.'],
		['a message over 4 096 characters', null, { body: 'x'.repeat(4097) }, 'Some fields are not valid.'],
		['an unknown field', null, { body: 'x', html: '<b>' }, 'Some fields are not valid.'],
	])('is refused with a 400 for %s', async (_, headers, body, message) => {
		const response = await api.request('POST', `/v1/link/${slug}/messages`, { body, headers: headers ?? as(newToken()) })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ message })
	})

	test('HTML is kept as text: the API stores what was typed, the page never renders it', async () => {
		const token = newToken()
		await post(token, { body: '<img src=x onerror=alert(1)>' })
		expect((await thread(token)).messages[0]?.body).toBe('<img src=x onerror=alert(1)>')
	})

	test('signs only their own conversation’s realtime channel', async () => {
		const token = newToken()
		const sign = (channelName: string, visitor = token) =>
			api.request('POST', `/v1/link/${slug}/realtime/auth`, { body: { socket_id: '123.456', channel_name: channelName }, headers: as(visitor) })
		const before = await sign(`private-visitor-${crypto.randomUUID()}`)
		expect(before.status).toBe(403)
		const { conversationId } = (await post(token, { body: 'Hello' })).body as { conversationId: string }
		const own = await sign(`private-visitor-${conversationId}`)
		expect(own.status).toBe(200)
		expect(own.body).toEqual({ auth: expect.stringMatching(/^[^:]+:[0-9a-f]{64}$/) })

		const other = newToken()
		const theirs = (await post(other, { body: 'Me too' })).body as { conversationId: string }
		const refused = await sign(`private-visitor-${theirs.conversationId}`)
		expect(refused.body).toEqual({ message: 'You may only listen to your own conversation.', statusCode: 403, details: null })
		for (const name of [`private-workspace-${team.workspace.id}`, `presence-conversation-${conversationId}`, `presence-workspace-${team.workspace.id}`]) {
			expect((await sign(name)).status).toBe(403)
		}
		expect(
			(await api.request('POST', `/v1/link/${slug}/realtime/auth`, { body: { socket_id: '1.2', channel_name: `private-visitor-${conversationId}` } })).status,
		).toBe(400)
	})

	test('marks the team’s replies read up to the newest on their screen, in their own conversation only; the agents’ thread shows it', async () => {
		const token = newToken()
		const { conversationId } = (await post(token, { body: 'Is it in stock?' })).body as { conversationId: string }
		const conversation = await testDb().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow()
		const reply = async (kind: 'text' | 'note', status: 'sent' | 'delivered' | 'failed' | null) => {
			const row = await testDb()
				.insertInto('messages')
				.values({
					workspaceId: team.workspace.id,
					conversationId,
					channelId,
					direction: 'outgoing',
					kind,
					body: `${kind} ${String(status)}`,
					senderId: team.agent.user.id,
					status,
				})
				.returning('id')
				.executeTakeFirstOrThrow()
			return String(row.id)
		}
		const failed = await reply('text', 'failed')
		const first = await reply('text', 'sent')
		const note = await reply('note', null)
		const shown = await reply('text', 'delivered')
		const later = await reply('text', 'sent')
		const statusOf = async (id: string) => (await testDb().selectFrom('messages').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

		// Another visitor names these messages: nothing of this conversation changes.
		const stranger = newToken()
		await post(stranger, { body: 'Me too' })
		const read = (visitor: string, upTo: string, extra: Record<string, string> = {}) =>
			api.request('POST', `/v1/link/${slug}/read`, { body: { upTo }, headers: as(visitor, extra) })
		expect((await read(stranger, later)).status).toBe(204)
		expect(await statusOf(first)).toBe('sent')

		expect((await read(token, shown)).status).toBe(204)
		expect([await statusOf(failed), await statusOf(first), await statusOf(note), await statusOf(shown), await statusOf(later)]).toEqual([
			'failed',
			'read',
			null,
			'read',
			'sent',
		])
		const agentThread = await api.request('GET', `/v1/workspaces/${team.workspace.id}/conversations/${conversation.number}/messages`, {
			headers: team.agent.auth,
		})
		const byId = new Map(
			(agentThread.body as { messages: Array<{ id: string; status: string | null }> }).messages.map((message) => [message.id, message.status]),
		)
		expect([byId.get(first), byId.get(shown), byId.get(later)]).toEqual(['read', 'read', 'sent'])

		// Nothing to mark, or no conversation yet: still a quiet 204. What is no message id, or no visitor, is refused.
		expect((await read(token, shown)).status).toBe(204)
		expect((await read(newToken(), later)).status).toBe(204)
		expect((await read(token, 'latest')).status).toBe(400)
		expect((await api.request('POST', `/v1/link/${slug}/read`, { body: { upTo: shown } })).status).toBe(400)
		expect((await api.request('POST', `/v1/link/no-such-link/read`, { body: { upTo: shown }, headers: as(token) })).body).toEqual(gone)
	})

	test('marking read is rate-limited per visitor, with a translated 429', async () => {
		const token = newToken()
		for (let n = 0; n < 30; n++) expect((await api.request('POST', `/v1/link/${slug}/read`, { body: { upTo: '1' }, headers: as(token) })).status).toBe(204)
		const limited = await api.request('POST', `/v1/link/${slug}/read`, { body: { upTo: '1' }, headers: as(token, { 'Accept-Language': 'fr' }) })
		expect(limited.status).toBe(429)
		expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/)
		expect(limited.body).toMatchObject({ statusCode: 429, message: expect.stringMatching(/^Trop de tentatives/) })
	})

	test('is rate-limited per visitor and per address, with a translated 429', async () => {
		const token = newToken()
		const ip = newIp()
		for (let n = 0; n < 20; n++) expect((await post(token, { body: `burst ${n}` }, { 'X-Forwarded-For': newIp() })).status).toBe(201)
		const limited = await post(token, { body: 'one too many' }, { 'Accept-Language': 'ar-EG' })
		expect(limited.status).toBe(429)
		expect(limited.headers.get('Retry-After')).toMatch(/^\d+$/)
		expect(limited.body).toMatchObject({ statusCode: 429, message: expect.stringContaining('محاولات كثيرة') })

		// Many tokens from one address.
		for (let n = 0; n < 60; n++) expect((await post(newToken(), { body: `from one address ${n}` }, { 'X-Forwarded-For': ip })).status).toBe(201)
		const fromAddress = await post(newToken(), { body: 'again' }, { 'X-Forwarded-For': ip })
		expect(fromAddress.status).toBe(429)
		expect(fromAddress.body).toMatchObject({ message: expect.stringMatching(/^Too many attempts\. Try again in \d+ seconds?\.$/) })
	})

	test('an IPv6 client is counted by its /64: a new address in the same network is the same client', async () => {
		const network = `2001:db8:${crypto.randomInt(0xffff).toString(16)}:${crypto.randomInt(0xffff).toString(16)}`
		for (let n = 1; n <= 60; n++) expect((await post(newToken(), { body: `v6 ${n}` }, { 'X-Forwarded-For': `${network}::${n.toString(16)}` })).status).toBe(201)
		expect((await post(newToken(), { body: 'another interface' }, { 'X-Forwarded-For': `${network}:ffff:ffff:ffff:1` })).status).toBe(429)
		expect(
			(await post(newToken(), { body: 'another network' }, { 'X-Forwarded-For': `2001:db8:ffff:${crypto.randomInt(0xffff).toString(16)}::1` })).status,
		).toBe(201)
	})
})
