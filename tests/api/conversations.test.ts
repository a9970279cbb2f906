import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Channel } from '#api/db/schema.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createLabel } from './contacts-fixtures.ts'
import {
	conversationsPath,
	createLinkChannel,
	customerWrites,
	getConversation,
	postMessage,
	type ConversationJson,
	type MessageJson,
} from './conversations-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

type ListJson = { conversations: ConversationJson[]; nextCursor: string | null; counts: Record<string, number>; countsLimit: number | null }

let api: TestApi
let team: Team
let channel: Channel
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Inbox')
	channel = await createLinkChannel(team.workspace.id)
})
afterAll(() => api.close())

async function list(query = '', auth = team.agent.auth, workspaceId = team.workspace.id): Promise<ListJson> {
	const response = await api.request('GET', conversationsPath(workspaceId, query), { headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as ListJson
}

async function jobsFor(task: string, payload: Record<string, string>) {
	const { rows } = await sql<{
		n: number
	}>`select count(*)::int as n from graphile_worker._private_jobs jobs join graphile_worker._private_tasks tasks on tasks.id = jobs.task_id
		where tasks.identifier = ${task} and jobs.payload::jsonb @> ${JSON.stringify(payload)}::jsonb`.execute(testDb())
	return rows[0]?.n ?? 0
}

describe('the conversation list', () => {
	test('newest activity first, as the contract shapes it, with the tabs counted per assignee; a new message moves a conversation to the top', async () => {
		const team = await createTeam('List order')
		const channel = await createLinkChannel(team.workspace.id, 'Site')
		const first = await customerWrites(channel, 'a', 'Hello, my order is late')
		const second = await customerWrites(channel, 'b', 'مرحبا')
		let page = await list('', team.agent.auth, team.workspace.id)
		expect(page.conversations.map((conversation) => conversation.number)).toEqual([second.conversation.number, first.conversation.number])
		expect(page.counts).toEqual({ open: 2, pending: 0, resolved: 0, snoozed: 0 })
		expect(page.countsLimit).toBeNull()
		expect(page.nextCursor).toBeNull()
		expect(page.conversations[1]).toEqual({
			id: first.conversation.id,
			number: first.conversation.number,
			status: 'open',
			snoozedUntil: null,
			priority: 'none',
			contact: { id: first.conversation.contactId, name: 'Visitor a', email: null, unverifiedEmail: null, phone: null, avatarColor: expect.any(String) },
			channel: { id: channel.id, kind: 'link', name: 'Site' },
			assignee: null,
			team: null,
			labels: [],
			unreadCount: 1,
			lastMessage: { excerpt: 'Hello, my order is late', direction: 'incoming', sender: null },
			lastActivityAt: expect.any(String),
			firstResponseAt: null,
			createdAt: expect.any(String),
		})

		await customerWrites(channel, 'a', 'Any news?')
		page = await list('', team.agent.auth, team.workspace.id)
		expect(page.conversations.map((conversation) => conversation.number)).toEqual([first.conversation.number, second.conversation.number])
		expect(page.conversations[0]).toMatchObject({ unreadCount: 2, lastMessage: { excerpt: 'Any news?' } })

		const patched = await api.request('PATCH', conversationsPath(team.workspace.id, `/${second.conversation.number}`), {
			body: { assigneeId: team.agent.user.id },
			headers: team.admin.auth,
		})
		expect(patched.status, JSON.stringify(patched.body)).toBe(200)
		expect((await list('?assignee=me', team.agent.auth, team.workspace.id)).conversations.map((conversation) => conversation.number)).toEqual([
			second.conversation.number,
		])
		expect((await list('?assignee=me', team.agent.auth, team.workspace.id)).counts).toEqual({ open: 1, pending: 0, resolved: 0, snoozed: 0 })
		expect((await list('?assignee=unassigned', team.agent.auth, team.workspace.id)).conversations.map((conversation) => conversation.number)).toEqual([
			first.conversation.number,
		])
		expect((await list(`?assignee=${team.agent.user.id}`, team.owner.auth, team.workspace.id)).conversations).toHaveLength(1)
		expect((await list('?assignee=me', team.owner.auth, team.workspace.id)).counts.open).toBe(0)
		const summary = await api.request('GET', conversationsPath(team.workspace.id, '/summary'), { headers: team.agent.auth })
		expect(summary.body).toEqual({ mine: 1, unassigned: 1, myTeams: 0, myTeamIds: [] })
	})

	test('filters by status, channel, label and priority, and sorts by creation or priority', async () => {
		const team = await createTeam('Filters')
		const [site, shop] = await Promise.all([createLinkChannel(team.workspace.id, 'Site'), createLinkChannel(team.workspace.id, 'Shop')])
		const one = (await customerWrites(site, 'one', 'first')).conversation.number
		const two = (await customerWrites(shop, 'two', 'second')).conversation.number
		const three = (await customerWrites(site, 'three', 'third')).conversation.number
		await customerWrites(site, 'one', 'first again')
		const label = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'billing' })
		const patch = (number: number, body: unknown) =>
			api.request('PATCH', conversationsPath(team.workspace.id, `/${number}`), { body, headers: team.agent.auth })
		expect((await patch(two, { priority: 'urgent' })).status).toBe(200)
		expect((await patch(three, { priority: 'low', status: 'pending' })).status).toBe(200)
		expect(
			(await api.request('PUT', conversationsPath(team.workspace.id, `/${one}/labels`), { body: { labelIds: [label.id] }, headers: team.agent.auth })).status,
		).toBe(200)

		const numbers = async (query: string) => (await list(query, team.agent.auth, team.workspace.id)).conversations.map((conversation) => conversation.number)
		expect(await numbers('')).toEqual([one, two])
		expect(await numbers('?status=pending')).toEqual([three])
		expect(await numbers('?status=all')).toEqual([one, three, two])
		expect(await numbers(`?status=all&channelId=${site.id}`)).toEqual([one, three])
		expect(await numbers(`?status=all&labelId=${label.id}`)).toEqual([one])
		expect(await numbers('?status=all&priority=urgent')).toEqual([two])
		expect(await numbers('?status=all&sort=created')).toEqual([three, two, one])
		expect(await numbers('?status=all&sort=priority')).toEqual([two, three, one])
		expect((await list('?status=all', team.agent.auth, team.workspace.id)).counts).toEqual({ open: 2, pending: 1, resolved: 0, snoozed: 0 })
		expect((await list(`?status=all&labelId=${label.id}`, team.agent.auth, team.workspace.id)).conversations[0]?.labels).toEqual([
			{ id: label.id, title: 'billing', color: '#4f46e5' },
		])
	})

	test.each(['activity', 'created', 'priority'])('pages by keyset (sort %s): every conversation once, none skipped, ties included', async (sort) => {
		const team = await createTeam(`Pages ${sort}`)
		const site = await createLinkChannel(team.workspace.id)
		for (let index = 0; index < 23; index++) await customerWrites(site, `visitor-${index}`, `message ${index}`)
		// Ties on the sort keys: the id decides.
		await testDb()
			.updateTable('conversations')
			.set({ lastActivityAt: new Date('2026-01-01T00:00:00.000Z'), priority: 2 })
			.where('workspaceId', '=', team.workspace.id)
			.where('number', '<=', 10)
			.execute()
		const seen: number[] = []
		let after: string | null = null
		let pages = 0
		do {
			const page: ListJson = await list(`?status=all&sort=${sort}&limit=5${after ? `&after=${after}` : ''}`, team.agent.auth, team.workspace.id)
			seen.push(...page.conversations.map((conversation) => conversation.number))
			after = page.nextCursor
			pages++
		} while (after && pages < 10)
		expect(pages).toBe(5)
		expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 23 }, (_, index) => index + 1))
	})

	test('the tabs count what the filters and the search find, each count stopping at the limit (issue 27)', async () => {
		const team = await createTeam('Filtered counts')
		const [site, shop] = await Promise.all([createLinkChannel(team.workspace.id, 'Site'), createLinkChannel(team.workspace.id, 'Shop')])
		const cairo = (await customerWrites(site, 'cairo', 'Do you ship to Cairo?')).conversation.number
		await customerWrites(site, 'paris', 'Livrez-vous à Paris ?')
		const later = (await customerWrites(shop, 'cairo-later', 'Cairo again, for a friend')).conversation.number
		const patch = (number: number, body: unknown) =>
			api.request('PATCH', conversationsPath(team.workspace.id, `/${number}`), { body, headers: team.agent.auth })
		expect((await patch(later, { status: 'resolved' })).status).toBe(200)
		const counts = async (query: string) => {
			const page = await list(query, team.agent.auth, team.workspace.id)
			return { counts: page.counts, countsLimit: page.countsLimit }
		}
		expect(await counts('')).toEqual({ counts: { open: 2, pending: 0, resolved: 1, snoozed: 0 }, countsLimit: null })
		expect(await counts('?search=Cairo')).toEqual({ counts: { open: 1, pending: 0, resolved: 1, snoozed: 0 }, countsLimit: 100 })
		expect(await counts(`?search=Cairo&channelId=${site.id}`)).toEqual({ counts: { open: 1, pending: 0, resolved: 0, snoozed: 0 }, countsLimit: 100 })
		expect(await counts(`?channelId=${shop.id}`)).toEqual({ counts: { open: 0, pending: 0, resolved: 1, snoozed: 0 }, countsLimit: 100 })
		expect(await counts('?search=Cairo&assignee=me')).toEqual({ counts: { open: 0, pending: 0, resolved: 0, snoozed: 0 }, countsLimit: 100 })
		expect((await list(`?search=Cairo`, team.agent.auth, team.workspace.id)).conversations.map((conversation) => conversation.number)).toEqual([cairo])

		// Past the limit a count stops there: a broad search never counts every match.
		for (let index = 0; index < 101; index++) await customerWrites(site, `many-${index}`, `Cairo question ${index}`)
		expect(await counts('?search=Cairo')).toEqual({ counts: { open: 100, pending: 0, resolved: 1, snoozed: 0 }, countsLimit: 100 })
	})

	test('one contact’s conversations, every status, newest first (the contact panel lists them)', async () => {
		const team = await createTeam('Contact conversations')
		const [site, shop] = await Promise.all([createLinkChannel(team.workspace.id, 'Site'), createLinkChannel(team.workspace.id, 'Shop')])
		const first = await customerWrites(site, 'nadia', 'Hello')
		const other = await customerWrites(site, 'karim', 'Hi')
		const second = await customerWrites(shop, 'nadia-shop', 'Hello again')
		// The same person on two channels: one contact, as a merge leaves it.
		await testDb().updateTable('conversations').set({ contactId: first.conversation.contactId }).where('id', '=', second.conversation.id).execute()
		await api.request('PATCH', conversationsPath(team.workspace.id, `/${first.conversation.number}`), {
			body: { status: 'resolved' },
			headers: team.agent.auth,
		})
		const page = await list(`?contactId=${first.conversation.contactId}&status=all`, team.agent.auth, team.workspace.id)
		expect(page.conversations.map((conversation) => conversation.number)).toEqual([second.conversation.number, first.conversation.number])
		expect(page.conversations.map((conversation) => conversation.number)).not.toContain(other.conversation.number)
		expect(page.counts).toEqual({ open: 1, pending: 0, resolved: 1, snoozed: 0 })
		const refused = await api.request('GET', conversationsPath(team.workspace.id, '?contactId=nadia'), { headers: team.agent.auth })
		expect(refused.status).toBe(400)
	})

	test('refuses bad filters and a cursor of another sort with a translated 400', async () => {
		const cursor = (await list('?status=all&limit=1')).nextCursor
		for (const query of [
			'?status=closed',
			'?assignee=someone',
			'?priority=big',
			'?sort=name',
			'?limit=0',
			'?limit=101',
			'?labelId=x',
			'?status=open&status=all',
			`?after=${cursor}&sort=created`,
			'?after=nope',
		]) {
			const response = await api.request('GET', conversationsPath(team.workspace.id, query), { headers: team.agent.auth })
			expect(response.status, query).toBe(400)
			expect(response.body).toMatchObject({ message: 'Some fields are not valid.', statusCode: 400 })
		}
		const french = await api.request('GET', conversationsPath(team.workspace.id, '?after=nope'), { headers: { ...team.agent.auth, 'Accept-Language': 'fr' } })
		expect(french.body).toMatchObject({ details: { fields: { after: ['Ce lien de page n’est plus valide. Recommencez à la première page.'] } } })
		const arabic = await api.request('GET', conversationsPath(team.workspace.id, '?status=closed'), {
			headers: { ...team.agent.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(arabic.body).toMatchObject({ message: expect.not.stringMatching(/[a-z]{4}/), statusCode: 400 })
	})
})

describe('one conversation', () => {
	test('is read by its number; another workspace’s number, a malformed one or an unknown one is 404, translated', async () => {
		const { conversation } = await customerWrites(channel, 'reader', 'Hi')
		expect(await getConversation(api, team.owner.auth, team.workspace.id, conversation.number)).toMatchObject({
			id: conversation.id,
			number: conversation.number,
		})
		const theirs = await createLinkChannel(team.elsewhere.id)
		const elsewhere = await customerWrites(theirs, 'other', 'Hi there')
		for (const number of [String(elsewhere.conversation.number + 1000), 'abc', '-1', '1.5']) {
			const response = await api.request('GET', conversationsPath(team.workspace.id, `/${number}`), { headers: team.agent.auth })
			expect(response.status, number).toBe(404)
		}
		const missing = await api.request('GET', conversationsPath(team.elsewhere.id, `/${elsewhere.conversation.number}`), { headers: team.agent.auth })
		expect(missing.status).toBe(404)
		const unknown = await api.request('GET', conversationsPath(team.workspace.id, '/999999'), { headers: { ...team.agent.auth, 'Accept-Language': 'fr' } })
		expect(unknown.body).toEqual({ message: 'Cette conversation n’existe pas.', statusCode: 404, details: null })
	})

	test('a reply waits for its job, moves the conversation up and sets the first response time once; a note does neither', async () => {
		const { conversation } = await customerWrites(channel, 'replied', 'Where is my parcel?')
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: '  It left this morning.  ' })
		expect(reply).toEqual({
			id: expect.stringMatching(/^\d+$/),
			conversationId: conversation.id,
			direction: 'outgoing',
			kind: 'text',
			body: 'It left this morning.',
			activity: null,
			sender: { id: team.agent.user.id, name: team.agent.user.name },
			status: 'pending',
			error: null,
			attachments: [],
			createdAt: expect.any(String),
		})
		expect(await jobsFor('send-message', { messageId: reply.id })).toBe(1)
		const replied = await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)
		expect(replied).toMatchObject({
			firstResponseAt: reply.createdAt,
			lastMessage: { excerpt: 'It left this morning.', direction: 'outgoing', sender: { id: team.agent.user.id, name: team.agent.user.name } },
		})

		const note = await postMessage(api, team.admin.auth, team.workspace.id, conversation.number, { kind: 'note', body: 'Check with the courier' })
		expect(note).toMatchObject({ kind: 'note', status: null, sender: { id: team.admin.user.id } })
		expect(await jobsFor('send-message', { messageId: note.id })).toBe(0)
		const second = await postMessage(api, team.owner.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Tracking: 123' })
		const after = await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)
		expect(after.firstResponseAt).toBe(reply.createdAt)
		// The list names who wrote the last message: here the owner, not the agent who replied first (issue 27).
		expect(after.lastMessage).toEqual({ excerpt: 'Tracking: 123', direction: 'outgoing', sender: { id: team.owner.user.id, name: team.owner.user.name } })
		expect(second.status).toBe('pending')
	})

	test('refuses an empty, too long or unknown kind of message with a translated 400, in three languages', async () => {
		const { conversation } = await customerWrites(channel, 'refused', 'Hi')
		const target = conversationsPath(team.workspace.id, `/${conversation.number}/messages`)
		for (const [body, field] of [
			[{ kind: 'text', body: '   ' }, 'body'],
			[{ kind: 'text', body: 'x'.repeat(4097) }, 'body'],
			[{ kind: 'activity', body: 'x' }, 'kind'],
			[{ kind: 'text', body: 'x', sender: 'me' }, '_'],
		] as const) {
			const response = await api.request('POST', target, { body, headers: team.agent.auth })
			expect(response.status).toBe(400)
			expect(response.body).toMatchObject({ details: { fields: { [field]: [expect.any(String)] } } })
		}
		const english = await api.request('POST', target, { body: { kind: 'text', body: 'x'.repeat(4097) }, headers: team.agent.auth })
		expect(english.body).toMatchObject({ message: 'Some fields are not valid.', details: { fields: { body: ['Must be at most 4096 characters.'] } } })
		const french = await api.request('POST', target, { body: { kind: 'text', body: '' }, headers: { ...team.agent.auth, 'Accept-Language': 'fr' } })
		expect(french.body).toMatchObject({ message: 'Certains champs ne sont pas valides.' })
		const arabic = await api.request('POST', target, { body: { kind: 'text', body: '' }, headers: { ...team.agent.auth, 'Accept-Language': 'ar-EG' } })
		expect((arabic.body as { message: string }).message).toMatch(/[\u0600-\u06FF]/)
	})

	test('a switched-off channel takes no reply (422, translated), a note still', async () => {
		const team = await createTeam('Switched off')
		const channel = await createLinkChannel(team.workspace.id, 'Old site')
		const { conversation } = await customerWrites(channel, 'off', 'Hello?')
		await testDb().updateTable('channels').set({ enabled: false, status: 'disabled' }).where('id', '=', channel.id).execute()
		const target = conversationsPath(team.workspace.id, `/${conversation.number}/messages`)
		const refused = await api.request('POST', target, { body: { kind: 'text', body: 'Still there?' }, headers: team.agent.auth })
		expect(refused.status).toBe(422)
		expect((refused.body as { message: string }).message).toBe(
			'Old site is switched off: switch it on in Settings › Channels to reply. Private notes still work.',
		)
		const french = await api.request('POST', target, {
			body: { kind: 'text', body: 'Toujours là ?' },
			headers: { ...team.agent.auth, 'Accept-Language': 'fr' },
		})
		expect((french.body as { message: string }).message).toContain('est désactivé')
		expect((await api.request('POST', target, { body: { kind: 'note', body: 'Customer moved to WhatsApp' }, headers: team.agent.auth })).status).toBe(201)
		const kept = await testDb()
			.selectFrom('messages')
			.select('kind')
			.where('conversationId', '=', conversation.id)
			.where('direction', '=', 'outgoing')
			.execute()
		expect(kept).toEqual([{ kind: 'note' }])
	})

	test('the thread pages from the newest by keyset, oldest first within a page, without gaps or repeats', async () => {
		const { conversation } = await customerWrites(channel, 'long-thread', 'message 0')
		for (let index = 1; index < 70; index++) await customerWrites(channel, 'long-thread', `message ${index}`)
		const path = conversationsPath(team.workspace.id, `/${conversation.number}/messages`)
		const bodies: string[] = []
		let before: string | null = null
		let pages = 0
		do {
			const response = await api.request('GET', `${path}${before ? `?before=${before}` : ''}`, { headers: team.agent.auth })
			expect(response.status).toBe(200)
			const page = response.body as { messages: MessageJson[]; olderCursor: string | null }
			const ids = page.messages.map((message) => BigInt(message.id))
			expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)))
			bodies.unshift(...page.messages.map((message) => message.body))
			before = page.olderCursor
			pages++
		} while (before && pages < 5)
		expect(pages).toBe(3)
		expect(bodies).toEqual(Array.from({ length: 70 }, (_, index) => `message ${index}`))
		expect((await api.request('GET', `${path}?before=abc`, { headers: team.agent.auth })).status).toBe(400)
		expect((await api.request('GET', `${path}?limit=500`, { headers: team.agent.auth })).status).toBe(400)
	})

	test('is opened in one request: the conversation, a page of its thread and its contact’s other conversations, latest first', async () => {
		const first = await customerWrites(channel, 'viewed', 'On the site')
		// The same person writes on a second channel: one contact, a second conversation.
		const elsewhere = await createLinkChannel(team.workspace.id, 'Second site')
		await testDb()
			.insertInto('contactIdentities')
			.values({ workspaceId: team.workspace.id, channelId: elsewhere.id, contactId: first.conversation.contactId, externalId: 'viewed' })
			.execute()
		const second = await customerWrites(elsewhere, 'viewed', 'And here')
		for (let index = 0; index < 3; index++) await customerWrites(channel, 'viewed', `more ${index}`)
		type View = { conversation: ConversationJson; thread: { messages: MessageJson[]; olderCursor: string | null }; otherConversations: ConversationJson[] }
		const view = async (number: number, query = '') => {
			const response = await api.request('GET', conversationsPath(team.workspace.id, `/${number}/view${query}`), { headers: team.agent.auth })
			expect(response.status, JSON.stringify(response.body)).toBe(200)
			return response.body as View
		}

		const opened = await view(first.conversation.number, '?limit=2')
		expect(opened.conversation).toEqual(await getConversation(api, team.agent.auth, team.workspace.id, first.conversation.number))
		expect(opened.thread.messages.map((message) => message.body)).toEqual(['more 1', 'more 2'])
		expect(opened.thread.olderCursor).toBe(opened.thread.messages[0]!.id)
		expect(opened.otherConversations).toEqual([await getConversation(api, team.agent.auth, team.workspace.id, second.conversation.number)])
		expect((await view(second.conversation.number)).otherConversations.map((other) => other.number)).toEqual([first.conversation.number])
		// Reading it is not reading the conversation: the unread count stays until POST …/read.
		expect((await view(first.conversation.number)).conversation.unreadCount).toBe(4)

		const third = await customerWrites(elsewhere, 'viewed-later', 'Hello')
		await testDb().updateTable('conversations').set({ contactId: first.conversation.contactId }).where('id', '=', third.conversation.id).execute()
		expect((await view(first.conversation.number)).otherConversations.map((other) => other.number)).toEqual([
			third.conversation.number,
			second.conversation.number,
		])
		expect((await view(first.conversation.number, '?others=1')).otherConversations.map((other) => other.number)).toEqual([third.conversation.number])

		for (const query of ['?others=0', '?others=500', '?before=abc', '?limit=500', '?sort=activity']) {
			const refused = await api.request('GET', conversationsPath(team.workspace.id, `/${first.conversation.number}/view${query}`), {
				headers: { ...team.agent.auth, 'Accept-Language': 'fr' },
			})
			expect(refused.status, query).toBe(400)
			expect(refused.body, query).toMatchObject({ message: 'Certains champs ne sont pas valides.' })
		}
		const unknown = await api.request('GET', conversationsPath(team.workspace.id, '/999999/view'), { headers: team.agent.auth })
		expect(unknown.body).toEqual({ message: 'This conversation does not exist.', statusCode: 404, details: null })
	})

	test('reading sets the reader’s unread count to 0, not anyone else’s', async () => {
		const { conversation } = await customerWrites(channel, 'unread', 'one')
		await customerWrites(channel, 'unread', 'two')
		const read = await api.request('POST', conversationsPath(team.workspace.id, `/${conversation.number}/read`), { headers: team.agent.auth })
		expect(read.status).toBe(204)
		expect((await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).unreadCount).toBe(0)
		expect((await getConversation(api, team.admin.auth, team.workspace.id, conversation.number)).unreadCount).toBe(2)
		await customerWrites(channel, 'unread', 'three')
		expect((await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).unreadCount).toBe(1)
	})

	test('a retried delivery with the same external id is recorded once', async () => {
		const first = await customerWrites(channel, 'retried', 'Once', { externalId: 'provider-1' })
		const again = await customerWrites(channel, 'retried', 'Once', { externalId: 'provider-1' })
		expect(again).toMatchObject({ duplicate: true, message: { id: first.message.id } })
		const page = await api.request('GET', conversationsPath(team.workspace.id, `/${first.conversation.number}/messages`), { headers: team.agent.auth })
		expect((page.body as { messages: MessageJson[] }).messages.map((message) => message.body)).toEqual(['Once'])
	})
})

describe('isolation', () => {
	test('every endpoint answers 404 to someone outside the workspace, and changes nothing', async () => {
		const { conversation } = await customerWrites(channel, 'private', 'Secret')
		const label = await createLabel(api, team.owner.auth, team.workspace.id, { title: `isolated-${Date.now()}` })
		const number = conversation.number
		const calls: Array<[string, string, unknown?]> = [
			['GET', ''],
			['GET', '/summary'],
			['GET', `/${number}`],
			['PATCH', `/${number}`, { status: 'resolved' }],
			['PUT', `/${number}/labels`, { labelIds: [label.id] }],
			['POST', '/bulk', { numbers: [number], action: 'status', status: 'resolved' }],
			['GET', `/${number}/messages`],
			['POST', `/${number}/messages`, { kind: 'text', body: 'hacked' }],
			['POST', `/${number}/read`],
		]
		for (const [method, rest, body] of calls) {
			const response = await api.request(method, conversationsPath(team.workspace.id, rest), { body, headers: team.outsider.auth })
			expect(response.status, `${method} ${rest}`).toBe(404)
			expect(response.body).toMatchObject({ message: 'This workspace does not exist, or you are not a member of it.' })
			const anonymous = await api.request(method, conversationsPath(team.workspace.id, rest), { body })
			expect(anonymous.status, `${method} ${rest} without a session`).toBe(401)
		}
		// The outsider's own workspace does not reach this conversation by its number either.
		for (const [method, rest, body] of calls.slice(2)) {
			if (rest === '/bulk') continue
			const response = await api.request(method, conversationsPath(team.elsewhere.id, rest), { body, headers: team.outsider.auth })
			expect(response.status, `${method} ${rest} in their own workspace`).toBe(404)
		}
		const bulk = await api.request('POST', conversationsPath(team.elsewhere.id, '/bulk'), {
			body: { numbers: [number], action: 'status', status: 'resolved' },
			headers: team.outsider.auth,
		})
		expect(bulk.body).toEqual({ updated: 0 })
		const after = await getConversation(api, team.agent.auth, team.workspace.id, number)
		expect(after).toMatchObject({ status: 'open', labels: [], unreadCount: 1 })
		const messages = await testDb().selectFrom('messages').select('body').where('conversationId', '=', conversation.id).execute()
		expect(messages.map((message) => message.body)).toEqual(['Secret'])
	})
})
