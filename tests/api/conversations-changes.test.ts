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

let api: TestApi
let team: Team
let channel: Channel
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Changes')
	channel = await createLinkChannel(team.workspace.id)
})
afterAll(() => api.close())

const hour = 60 * 60 * 1000

async function patch(number: number, body: unknown, auth = team.agent.auth, headers: Record<string, string> = {}) {
	return api.request('PATCH', conversationsPath(team.workspace.id, `/${number}`), { body, headers: { ...auth, ...headers } })
}

async function thread(number: number): Promise<MessageJson[]> {
	const response = await api.request('GET', conversationsPath(team.workspace.id, `/${number}/messages?limit=100`), { headers: team.agent.auth })
	return (response.body as { messages: MessageJson[] }).messages
}

const activities = async (number: number) => (await thread(number)).filter((message) => message.kind === 'activity').map((message) => message.activity)

async function scheduledWake(conversationId: string) {
	const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${`wake-snoozed:${conversationId}`}`.execute(
		testDb(),
	)
	return rows[0]?.n ?? 0
}

describe('changing a conversation', () => {
	test('agents assign, change the status and the priority; each change is one activity line, a repeat adds none', async () => {
		const { conversation } = await customerWrites(channel, 'changed', 'Hello')
		let response = await patch(conversation.number, { assigneeId: team.otherAgent.user.id, priority: 'high', status: 'pending' })
		expect(response.status, JSON.stringify(response.body)).toBe(200)
		expect(response.body).toMatchObject({ status: 'pending', priority: 'high', assignee: { id: team.otherAgent.user.id, name: team.otherAgent.user.name } })
		const actor = team.agent.user.name
		expect(await activities(conversation.number)).toEqual([
			{ key: 'activity.pending', values: { actor } },
			{ key: 'activity.assigned', values: { actor, assignee: team.otherAgent.user.name } },
			{ key: 'activity.priority.high', values: { actor } },
		])
		response = await patch(conversation.number, { assigneeId: team.otherAgent.user.id, priority: 'high', status: 'pending' })
		expect((await activities(conversation.number)).length).toBe(3)
		response = await patch(conversation.number, { assigneeId: null, status: 'resolved', priority: 'none' }, team.owner.auth)
		expect(response.body).toMatchObject({ status: 'resolved', priority: 'none', assignee: null })
		expect((await activities(conversation.number)).slice(3)).toEqual([
			{ key: 'activity.resolved', values: { actor: team.owner.user.name } },
			{ key: 'activity.unassigned', values: { actor: team.owner.user.name } },
			{ key: 'activity.priority.none', values: { actor: team.owner.user.name } },
		])
		// The activity line's sender is the member who acted.
		expect((await thread(conversation.number)).at(-1)?.sender).toEqual({ id: team.owner.user.id, name: team.owner.user.name })
	})

	test('every role may do everything to a conversation (PRODUCT.md: read, reply, note, assign, status, label)', async () => {
		const label = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'roles' })
		for (const member of [team.owner, team.admin, team.agent]) {
			const { conversation } = await customerWrites(channel, `role-${member.user.id}`, 'Hello')
			const base = conversationsPath(team.workspace.id, `/${conversation.number}`)
			const calls: Array<[string, string, unknown, number]> = [
				['GET', '', undefined, 200],
				['GET', '/messages', undefined, 200],
				['POST', '/messages', { kind: 'text', body: 'reply' }, 201],
				['POST', '/messages', { kind: 'note', body: 'note' }, 201],
				['PATCH', '', { assigneeId: member.user.id, status: 'pending', priority: 'low' }, 200],
				['PATCH', '', { status: 'snoozed', snoozedUntil: new Date(Date.now() + hour).toISOString() }, 200],
				['PUT', '/labels', { labelIds: [label.id] }, 200],
				['POST', '/read', undefined, 204],
			]
			for (const [method, rest, body, status] of calls) {
				const response = await api.request(method, `${base}${rest}`, { body, headers: member.auth })
				expect(response.status, `${method} ${rest} as ${member.user.name}: ${JSON.stringify(response.body)}`).toBe(status)
			}
			const bulk = await api.request('POST', conversationsPath(team.workspace.id, '/bulk'), {
				body: { numbers: [conversation.number], action: 'status', status: 'resolved' },
				headers: member.auth,
			})
			expect(bulk.body).toEqual({ updated: 1 })
		}
	})

	test('snoozing needs a future time, which no other status takes; the wake-up job is scheduled, replaced and removed', async () => {
		const { conversation } = await customerWrites(channel, 'snoozed', 'Later please')
		const refusals: Array<[unknown, string, string]> = [
			[{ status: 'snoozed' }, 'snoozedUntil', 'Choose until when to snooze.'],
			[{ status: 'snoozed', snoozedUntil: new Date(Date.now() - 1000).toISOString() }, 'snoozedUntil', 'Choose a time in the future.'],
			[{ status: 'open', snoozedUntil: new Date(Date.now() + hour).toISOString() }, 'snoozedUntil', 'Only a snoozed conversation has a snooze time.'],
			[{ status: 'snoozed', snoozedUntil: 'tomorrow-ish' }, 'snoozedUntil', 'This value is not valid.'],
			[{ status: 'closed' }, 'status', 'Choose one of: open, pending, resolved, snoozed.'],
			[{ priority: 'critical' }, 'priority', 'Choose one of: none, low, medium, high, urgent.'],
			[{ assigneeId: 'someone' }, 'assigneeId', 'This value is not valid.'],
			[{ number: 3 }, '_', 'Unknown field: number.'],
		]
		for (const [body, field, message] of refusals) {
			const response = await patch(conversation.number, body)
			expect(response.status, JSON.stringify(body)).toBe(400)
			expect(response.body).toMatchObject({ message: 'Some fields are not valid.', details: { source: 'body', fields: { [field]: [message] } } })
		}
		const french = await patch(conversation.number, { status: 'snoozed' }, team.agent.auth, { 'Accept-Language': 'fr' })
		expect(french.body).toMatchObject({
			message: 'Certains champs ne sont pas valides.',
			details: { fields: { snoozedUntil: ['Choisissez jusqu’à quand mettre en attente.'] } },
		})
		const arabic = await patch(conversation.number, { status: 'snoozed' }, team.agent.auth, { 'Accept-Language': 'ar-EG' })
		expect(arabic.body).toMatchObject({ details: { fields: { snoozedUntil: ['اختر حتى متى تؤجل المحادثة.'] } } })

		const until = new Date(Date.now() + hour)
		const snoozed = await patch(conversation.number, { status: 'snoozed', snoozedUntil: until.toISOString() })
		expect(snoozed.body).toMatchObject({ status: 'snoozed', snoozedUntil: until.toISOString() })
		expect(await scheduledWake(conversation.id)).toBe(1)
		await patch(conversation.number, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 2 * hour).toISOString() })
		expect(await scheduledWake(conversation.id)).toBe(1)
		expect(await activities(conversation.number)).toEqual([
			{ key: 'activity.snoozed', values: { actor: team.agent.user.name, until: until.toISOString() } },
			{ key: 'activity.snoozed', values: { actor: team.agent.user.name, until: expect.any(String) } },
		])
		await patch(conversation.number, { status: 'open' })
		expect(await scheduledWake(conversation.id)).toBe(0)
		expect(await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).toMatchObject({ status: 'open', snoozedUntil: null })
	})

	test('a snoozed conversation takes any other status directly, and its wake-up goes (issue 27)', async () => {
		for (const status of ['resolved', 'pending', 'open'] as const) {
			const { conversation } = await customerWrites(channel, `snoozed-to-${status}`, 'Later please')
			expect((await patch(conversation.number, { status: 'snoozed', snoozedUntil: new Date(Date.now() + hour).toISOString() })).status).toBe(200)
			expect(await scheduledWake(conversation.id)).toBe(1)
			const response = await patch(conversation.number, { status })
			expect(response.status, JSON.stringify(response.body)).toBe(200)
			expect(response.body).toMatchObject({ status, snoozedUntil: null })
			expect(await scheduledWake(conversation.id)).toBe(0)
			expect((await activities(conversation.number)).at(-1)).toEqual({
				key: `activity.${status === 'open' ? 'reopened' : status}`,
				values: { actor: team.agent.user.name },
			})
		}
	})

	test('a new message from the customer reopens a snoozed or resolved conversation, clears the snooze and the tabs follow', async () => {
		const team = await createTeam('Reopen')
		const site = await createLinkChannel(team.workspace.id)
		const { conversation } = await customerWrites(site, 'back', 'First')
		const path = conversationsPath(team.workspace.id, `/${conversation.number}`)
		await api.request('PATCH', path, { body: { status: 'snoozed', snoozedUntil: new Date(Date.now() + hour).toISOString() }, headers: team.agent.auth })
		const tabs = async () => ((await api.request('GET', conversationsPath(team.workspace.id), { headers: team.agent.auth })).body as { counts: unknown }).counts
		expect(await tabs()).toEqual({ open: 0, pending: 0, resolved: 0, snoozed: 1 })
		expect(await scheduledWake(conversation.id)).toBe(1)
		await customerWrites(site, 'back', 'Still there?')
		expect(await scheduledWake(conversation.id)).toBe(0)
		expect((await api.request('GET', path, { headers: team.agent.auth })).body).toMatchObject({ status: 'open', snoozedUntil: null })
		expect(await tabs()).toEqual({ open: 1, pending: 0, resolved: 0, snoozed: 0 })
		await api.request('PATCH', path, { body: { status: 'resolved' }, headers: team.agent.auth })
		expect(await tabs()).toEqual({ open: 0, pending: 0, resolved: 1, snoozed: 0 })
		await customerWrites(site, 'back', 'One more thing')
		expect((await api.request('GET', path, { headers: team.agent.auth })).body).toMatchObject({ status: 'open' })
		expect(await tabs()).toEqual({ open: 1, pending: 0, resolved: 0, snoozed: 0 })
	})

	test('the assignee must be a member of this workspace (422, translated)', async () => {
		const { conversation } = await customerWrites(channel, 'assignee', 'Hi')
		for (const assigneeId of [team.outsider.user.id, crypto.randomUUID()]) {
			const response = await patch(conversation.number, { assigneeId })
			expect(response.status).toBe(422)
			expect(response.body).toMatchObject({
				message: 'Choose a member of this workspace.',
				details: { fields: { assigneeId: ['Choose a member of this workspace.'] } },
			})
		}
		const arabic = await patch(conversation.number, { assigneeId: team.outsider.user.id }, team.agent.auth, { 'Accept-Language': 'ar-EG' })
		expect(arabic.body).toMatchObject({ message: 'اختر عضوًا في مساحة العمل هذه.' })
		expect((await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).assignee).toBeNull()
	})
})

describe('labels', () => {
	test('PUT sets exactly the labels given, with a line for those added and one for those removed; a label of another workspace is refused', async () => {
		const [billing, urgent] = await Promise.all([
			createLabel(api, team.owner.auth, team.workspace.id, { title: 'billing-put' }),
			createLabel(api, team.owner.auth, team.workspace.id, { title: 'urgent-put' }),
		])
		const theirs = await createLabel(api, team.outsider.auth, team.elsewhere.id, { title: 'theirs' })
		const { conversation } = await customerWrites(channel, 'labelled', 'Hi')
		const put = (labelIds: string[], headers: Record<string, string> = {}) =>
			api.request('PUT', conversationsPath(team.workspace.id, `/${conversation.number}/labels`), {
				body: { labelIds },
				headers: { ...team.agent.auth, ...headers },
			})
		let response = await put([billing.id, urgent.id, billing.id])
		expect(response.status).toBe(200)
		expect((response.body as ConversationJson).labels.map((label) => label.title)).toEqual(['billing-put', 'urgent-put'])
		response = await put([urgent.id])
		expect((response.body as ConversationJson).labels.map((label) => label.title)).toEqual(['urgent-put'])
		expect(await activities(conversation.number)).toEqual([
			{ key: 'activity.labelsAdded', values: { actor: team.agent.user.name, labels: 'billing-put, urgent-put' } },
			{ key: 'activity.labelsRemoved', values: { actor: team.agent.user.name, labels: 'billing-put' } },
		])
		response = await put([theirs.id], { 'Accept-Language': 'fr' })
		expect(response.status).toBe(422)
		expect(response.body).toMatchObject({ message: 'Certaines de ces étiquettes n’existent plus.' })
		expect((await put(['nope'])).status).toBe(400)
		expect((await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).labels.map((label) => label.title)).toEqual(['urgent-put'])
	})
})

describe('bulk changes', () => {
	test('assign, change status, add and remove a label on many conversations at once; numbers of another workspace are not touched', async () => {
		const team = await createTeam('Bulk')
		const site = await createLinkChannel(team.workspace.id)
		const numbers: number[] = []
		for (let index = 0; index < 5; index++) numbers.push((await customerWrites(site, `bulk-${index}`, 'Hi')).conversation.number)
		const theirSite = await createLinkChannel(team.elsewhere.id)
		const theirs = (await customerWrites(theirSite, 'theirs', 'Hi')).conversation
		const label = await createLabel(api, team.owner.auth, team.workspace.id, { title: 'bulk' })
		const bulk = (body: unknown, headers: Record<string, string> = {}) =>
			api.request('POST', conversationsPath(team.workspace.id, '/bulk'), { body, headers: { ...team.agent.auth, ...headers } })

		expect((await bulk({ numbers: [...numbers, 999], action: 'assign', assigneeId: team.otherAgent.user.id })).body).toEqual({ updated: 5 })
		expect((await bulk({ numbers, action: 'addLabel', labelId: label.id })).body).toEqual({ updated: 5 })
		expect((await bulk({ numbers: numbers.slice(0, 2), action: 'removeLabel', labelId: label.id })).body).toEqual({ updated: 2 })
		expect(
			(await bulk({ numbers: numbers.slice(0, 3), action: 'status', status: 'snoozed', snoozedUntil: new Date(Date.now() + hour).toISOString() })).body,
		).toEqual({ updated: 3 })
		const list = await api.request('GET', conversationsPath(team.workspace.id, `?status=all&assignee=${team.otherAgent.user.id}`), { headers: team.agent.auth })
		const conversations = (list.body as { conversations: ConversationJson[]; counts: unknown }).conversations
		expect(conversations).toHaveLength(5)
		expect(
			conversations
				.filter((conversation) => conversation.labels.length === 1)
				.map((conversation) => conversation.number)
				.sort(),
		).toEqual(numbers.slice(2).sort())
		expect((list.body as { counts: unknown }).counts).toEqual({ open: 2, pending: 0, resolved: 0, snoozed: 3 })

		// A number of another workspace names this workspace's conversation of that number, or none.
		expect((await bulk({ numbers: [theirs.number + 100], action: 'status', status: 'resolved' })).body).toEqual({ updated: 0 })
		expect((await testDb().selectFrom('conversations').select('status').where('id', '=', theirs.id).executeTakeFirstOrThrow()).status).toBe('open')

		const refusals: Array<[unknown, string]> = [
			[{ numbers: [], action: 'assign', assigneeId: null }, 'numbers'],
			[{ numbers: Array.from({ length: 101 }, (_, index) => index + 1), action: 'assign', assigneeId: null }, 'numbers'],
			[{ numbers: [1], action: 'delete' }, 'action'],
			[{ numbers: [1], action: 'assign' }, 'assigneeId'],
			[{ numbers: [1], action: 'status' }, 'status'],
			[{ numbers: [1], action: 'status', status: 'snoozed' }, 'snoozedUntil'],
			[{ numbers: [1], action: 'addLabel' }, 'labelId'],
			[{ numbers: ['one'], action: 'status', status: 'open' }, 'numbers.0'],
		]
		for (const [body, field] of refusals) {
			const response = await bulk(body)
			expect(response.status, JSON.stringify(body)).toBe(400)
			expect(response.body).toMatchObject({ details: { fields: { [field]: [expect.any(String)] } } })
		}
		const french = await bulk({ numbers: [], action: 'assign', assigneeId: null }, { 'Accept-Language': 'fr' })
		expect(french.body).toMatchObject({ message: 'Certains champs ne sont pas valides.' })
		expect((await bulk({ numbers, action: 'assign', assigneeId: team.outsider.user.id })).status).toBe(422)
	})
})

describe('notes', () => {
	test('an @mention of a member is found by their full name, not a longer name, and not the author', async () => {
		const { mentionedMembers } = await import('#api/conversations/actions.ts')
		const team = await createTeam('Mentions')
		const names = await testDb()
			.selectFrom('users')
			.select(['id', 'name'])
			.where('id', 'in', [team.agent.user.id, team.otherAgent.user.id, team.admin.user.id])
			.execute()
		const nameOf = (id: string) => names.find((user) => user.id === id)!.name
		const body = `@${nameOf(team.otherAgent.user.id)} and @${nameOf(team.admin.user.id).toUpperCase()}, see this. @${nameOf(team.agent.user.id)}`
		const mentioned = await mentionedMembers(testDb(), team.workspace.id, body, team.agent.user.id)
		expect(mentioned.sort()).toEqual([team.otherAgent.user.id, team.admin.user.id].sort())
		expect(await mentionedMembers(testDb(), team.workspace.id, `@${nameOf(team.admin.user.id)}x`, team.agent.user.id)).toEqual([])
		expect(await mentionedMembers(testDb(), team.workspace.id, 'no mention here', team.agent.user.id)).toEqual([])
	})

	test('a note never changes what the list shows of the conversation', async () => {
		const { conversation } = await customerWrites(channel, 'noted', 'Question')
		const before = await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)
		await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'note', body: 'Internal only' })
		const after = await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)
		expect(after).toEqual(before)
	})
})

describe('the kept tab counts', () => {
	test('equal a count of the table after creations, changes, bulk changes and deletions, and go with their workspace', async () => {
		const team = await createTeam('Kept counts')
		const site = await createLinkChannel(team.workspace.id)
		const created = []
		for (let index = 0; index < 6; index++) created.push((await customerWrites(site, `kept-${index}`, 'Hi')).conversation)
		const path = (rest: string) => conversationsPath(team.workspace.id, rest)
		await api.request('PATCH', path(`/${created[0]!.number}`), { body: { status: 'resolved', assigneeId: team.agent.user.id }, headers: team.agent.auth })
		await api.request('POST', path('/bulk'), {
			body: { numbers: created.slice(1, 4).map((c) => c.number), action: 'assign', assigneeId: team.admin.user.id },
			headers: team.agent.auth,
		})
		await api.request('POST', path('/bulk'), {
			body: { numbers: created.slice(2, 5).map((c) => c.number), action: 'status', status: 'pending' },
			headers: team.agent.auth,
		})
		await testDb().deleteFrom('contacts').where('id', '=', created[5]!.contactId).execute()
		await customerWrites(site, 'kept-0', 'Reopening')

		const kept = await testDb()
			.selectFrom('conversationCounts')
			.select(['assigneeKey', 'status', 'count'])
			.where('workspaceId', '=', team.workspace.id)
			.where('count', '<>', 0)
			.orderBy('assigneeKey')
			.orderBy('status')
			.execute()
		const { rows: counted } = await sql<{ assigneeKey: string; status: string; count: number }>`
			select coalesce(assignee_id, '00000000-0000-0000-0000-000000000000'::uuid) as assignee_key, status, count(*)::int as count
			from conversations where workspace_id = ${team.workspace.id} group by 1, 2 order by 1, 2`.execute(testDb())
		expect(kept).toEqual(counted)
		expect(counted.reduce((total, row) => total + row.count, 0)).toBe(5)

		await testDb().deleteFrom('workspaces').where('id', '=', team.workspace.id).execute()
		expect(await testDb().selectFrom('conversationCounts').selectAll().where('workspaceId', '=', team.workspace.id).execute()).toEqual([])
	})
})
