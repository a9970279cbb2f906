import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { inboxChangedEvent, workspaceChannel, workspacePresenceChannel } from '#common/realtime.ts'
import { membersWhoSee } from '#api/conversations/visibility.ts'
import { type Channel } from '#api/db/schema.ts'
import { testDb, startApi, type TestApi } from './harness.ts'
import { createFixtures, type Fixtures } from './route-fixtures.ts'
import { fillPath } from './route-list.ts'
import { apiRoutes, paramsOf, routeMatrix } from './route-matrix.ts'
import { conversationsPath, createLinkChannel, customerWrites, type ConversationJson } from './conversations-fixtures.ts'
import { nextEvent, startRealtimeServer } from './realtime-support.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

// "Agents see only their teams' conversations" (issue 30): with the workspace's rule on, an agent sees their teams'
// conversations and those assigned to them, through every route; owners, admins and the rule off see them all.

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

async function setRule(workspaceId: string, owner: Team['owner'], on: boolean) {
	const answer = await api.request('PATCH', `/v1/workspaces/${workspaceId}`, { body: { agentsSeeOwnTeams: on }, headers: owner.auth })
	expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}

/**
 * Every route that names a conversation (or a file of one), and the lists: what an agent outside its team
 * answers while the rule is on. A route added there without a row here fails the first test.
 */
const outsideTeam: Record<string, { status: number }> = {
	'GET /v1/workspaces/:id/conversations/:number': { status: 404 },
	'PATCH /v1/workspaces/:id/conversations/:number': { status: 404 },
	'PUT /v1/workspaces/:id/conversations/:number/labels': { status: 404 },
	'GET /v1/workspaces/:id/conversations/:number/messages': { status: 404 },
	'GET /v1/workspaces/:id/conversations/:number/view': { status: 404 },
	'POST /v1/workspaces/:id/conversations/:number/messages': { status: 404 },
	'POST /v1/workspaces/:id/conversations/:number/messages/:messageId/retry': { status: 404 },
	'POST /v1/workspaces/:id/conversations/:number/read': { status: 404 },
	'GET /v1/workspaces/:id/attachments/:attachmentId': { status: 404 },
	// Lists and counts answer, without it.
	'GET /v1/workspaces/:id/conversations': { status: 200 },
	'GET /v1/workspaces/:id/conversations/summary': { status: 200 },
	'POST /v1/workspaces/:id/conversations/bulk': { status: 200 },
	// pusher-js wants 403 for a channel it may not hear: here the conversation's presence channel.
	'POST /v1/realtime/auth': { status: 403 },
}
const namesAConversation = (key: string) => /^\S+ \/v1\/workspaces\/:id\/(conversations|attachments)/.test(key)

describe('the route matrix, for an agent outside the conversation’s team', () => {
	let fx: Fixtures
	beforeAll(async () => {
		fx = await createFixtures(api)
	})

	test('has a row for every route that names a conversation', () => {
		const keys = apiRoutes()
			.map((route) => route.key)
			.filter(namesAConversation)
		expect(
			keys.filter((key) => !(key in outsideTeam)),
			'routes without a row',
		).toEqual([])
	})

	test('every route answers the agent as if the conversation did not exist, and the lists leave it out; the admin still sees it', async () => {
		const routes = apiRoutes().filter((route) => route.key in outsideTeam)
		expect(routes).toHaveLength(Object.keys(outsideTeam).length)
		const { workspace, owner } = fx.team
		await setRule(workspace.id, owner, true)
		const params = paramsOf(fx.here, fx.team.otherAgent.user.id)
		const send = async (key: string, caller: 'agent' | 'admin') => {
			const route = routes.find((candidate) => candidate.key === key)!
			const prepared = (await routeMatrix[key]!.prepare?.(fx, caller)) ?? {}
			return api.request(route.method, `${fillPath(route.path, { ...params, ...prepared.params })}${prepared.query ? `?${prepared.query}` : ''}`, {
				body: prepared.body,
				headers: { 'X-Forwarded-For': `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.1`, ...fx.team[caller].auth },
			})
		}
		for (const [key, { status }] of Object.entries(outsideTeam)) {
			const answer = await send(key, 'agent')
			expect(answer.status, `${key}: ${JSON.stringify(answer.body)}`).toBe(status)
			if (status === 404) expect(answer.body, key).toMatchObject({ statusCode: 404 })
			expect(JSON.stringify(answer.body), `${key} names the conversation`).not.toContain(fx.here.conversation.id)
		}
		expect((await send('GET /v1/workspaces/:id/conversations', 'agent')).body).toMatchObject({ conversations: [] })
		expect((await send('GET /v1/workspaces/:id/conversations/summary', 'agent')).body).toMatchObject({ unassigned: 0 })
		expect((await send('POST /v1/workspaces/:id/conversations/bulk', 'agent')).body).toEqual({ updated: 0 })
		// What the refused changes would have done did not happen.
		const stored = await testDb().selectFrom('conversations').select(['priority']).where('id', '=', fx.here.conversation.id).executeTakeFirstOrThrow()
		expect(stored.priority).toBe(0)

		// The admin sees it all, the rule notwithstanding.
		for (const key of ['GET /v1/workspaces/:id/conversations/:number', 'GET /v1/workspaces/:id/attachments/:attachmentId', 'POST /v1/realtime/auth']) {
			expect((await send(key, 'admin')).status, key).toBe(200)
		}
		expect(JSON.stringify((await send('GET /v1/workspaces/:id/conversations', 'admin')).body)).toContain(fx.here.conversation.id)

		// In the conversation's team the agent sees it again; and so does everyone once the rule is off.
		await testDb().insertInto('teamMembers').values({ teamId: fx.here.teamOf.id, workspaceId: workspace.id, userId: fx.team.agent.user.id }).execute()
		await testDb().updateTable('conversations').set({ teamId: fx.here.teamOf.id }).where('id', '=', fx.here.conversation.id).execute()
		expect((await send('GET /v1/workspaces/:id/conversations/:number/view', 'agent')).status).toBe(200)
		expect((await send('GET /v1/workspaces/:id/attachments/:attachmentId', 'agent')).status).toBe(200)
		await testDb().updateTable('conversations').set({ teamId: null }).where('id', '=', fx.here.conversation.id).execute()
		expect((await send('GET /v1/workspaces/:id/conversations/:number', 'agent')).status).toBe(404)
		await setRule(workspace.id, owner, false)
		expect((await send('GET /v1/workspaces/:id/conversations/:number', 'agent')).status).toBe(200)
	})
})

describe("an agent's lists, counts and notifications with the rule on", () => {
	let people: Team
	let site: Channel
	let numbers: { billing: number; sales: number; none: number; mine: number; resolved: number }
	let billingId: string
	beforeAll(async () => {
		people = await createTeam('Own teams')
		site = await createLinkChannel(people.workspace.id)
		const team = async (name: string, userIds: string[]) => {
			const created = await api.request('POST', `/v1/workspaces/${people.workspace.id}/teams`, { body: { name, userIds }, headers: people.owner.auth })
			expect(created.status).toBe(201)
			return (created.body as { id: string }).id
		}
		billingId = await team('Billing', [people.agent.user.id])
		const salesId = await team('Sales', [people.otherAgent.user.id])
		const write = async (visitor: string, body: string) => (await customerWrites(site, visitor, body)).conversation.number
		numbers = {
			billing: await write('b', 'My invoice is wrong'),
			sales: await write('s', 'A question about my invoice and prices'),
			none: await write('n', 'Where is my invoice'),
			mine: await write('m', 'Hello again'),
			resolved: await write('r', 'Thanks'),
		}
		const patch = (number: number, body: object) =>
			api.request('PATCH', conversationsPath(people.workspace.id, `/${number}`), { body, headers: people.owner.auth })
		await patch(numbers.billing, { teamId: billingId })
		await patch(numbers.sales, { teamId: salesId })
		// Another team's conversation assigned to the agent is theirs to see.
		await patch(numbers.mine, { teamId: salesId, assigneeId: people.agent.user.id })
		await patch(numbers.resolved, { teamId: billingId, status: 'resolved' })
		await setRule(people.workspace.id, people.owner, true)
	})

	const list = async (query: string, who: 'agent' | 'owner' | 'otherAgent' = 'agent') => {
		const answer = await api.request('GET', conversationsPath(people.workspace.id, `?${query}`), { headers: people[who].auth })
		expect(answer.status).toBe(200)
		const body = answer.body as { conversations: ConversationJson[]; counts: Record<string, number> }
		return { numbers: body.conversations.map((conversation) => conversation.number).sort((a, b) => a - b), counts: body.counts }
	}

	test('the lists, a search, a contact’s conversations and the tabs’ counts hold their teams’ and their own only', async () => {
		expect(await list('status=all')).toEqual({
			numbers: [numbers.billing, numbers.mine, numbers.resolved],
			counts: { open: 2, pending: 0, resolved: 1, snoozed: 0 },
		})
		expect((await list('search=invoice')).numbers).toEqual([numbers.billing])
		expect((await list('assignee=unassigned')).numbers).toEqual([numbers.billing])
		expect((await list('assignee=me')).numbers).toEqual([numbers.mine])
		const salesContact = await testDb()
			.selectFrom('conversations')
			.select('contactId')
			.where('number', '=', numbers.sales)
			.where('workspaceId', '=', people.workspace.id)
			.executeTakeFirstOrThrow()
		expect((await list(`contactId=${salesContact.contactId}&status=all`)).numbers).toEqual([])
		// The owner and the other agent (in Sales) see what is theirs to see.
		expect((await list('status=all', 'owner')).numbers).toHaveLength(5)
		expect((await list('status=all', 'otherAgent')).numbers).toEqual([numbers.sales, numbers.mine])
	})

	test('the sidebar counts nobody’s conversations among their teams’ only', async () => {
		const summary = await api.request('GET', conversationsPath(people.workspace.id, '/summary'), { headers: people.agent.auth })
		expect(summary.body).toEqual({ mine: 1, unassigned: 1, myTeams: 1, myTeamIds: [billingId] })
		const owner = await api.request('GET', conversationsPath(people.workspace.id, '/summary'), { headers: people.owner.auth })
		expect(owner.body).toMatchObject({ unassigned: 3 })
	})

	test('handing a conversation over to another team answers with what they did, then it is gone from their view', async () => {
		const { number } = (await customerWrites(site, 'handed', 'Hi')).conversation
		await api.request('PATCH', conversationsPath(people.workspace.id, `/${number}`), { body: { teamId: billingId }, headers: people.owner.auth })
		const salesId = (
			await testDb().selectFrom('teams').select('id').where('workspaceId', '=', people.workspace.id).where('name', '=', 'Sales').executeTakeFirstOrThrow()
		).id
		const handed = await api.request('PATCH', conversationsPath(people.workspace.id, `/${number}`), { body: { teamId: salesId }, headers: people.agent.auth })
		expect(handed.status).toBe(200)
		expect(handed.body).toMatchObject({ number, team: { id: salesId } })
		expect((await api.request('GET', conversationsPath(people.workspace.id, `/${number}`), { headers: people.agent.auth })).status).toBe(404)
	})

	test('a mention names the conversation only to members who see it', async () => {
		const of = (number: number) =>
			testDb()
				.selectFrom('conversations')
				.select(['id', 'workspaceId'])
				.where('number', '=', number)
				.where('workspaceId', '=', people.workspace.id)
				.executeTakeFirstOrThrow()
		const everybody = [people.agent.user.id, people.otherAgent.user.id, people.admin.user.id]
		expect((await membersWhoSee(testDb(), await of(numbers.billing), everybody)).sort()).toEqual([people.agent.user.id, people.admin.user.id].sort())
		expect(await membersWhoSee(testDb(), await of(numbers.none), everybody)).toEqual([people.admin.user.id])
		await setRule(people.workspace.id, people.owner, false)
		expect(await membersWhoSee(testDb(), await of(numbers.none), everybody)).toHaveLength(3)
		await setRule(people.workspace.id, people.owner, true)
	})

	test('the realtime server lets them hear the workspace’s presence, not its channel of every conversation', async () => {
		const auth = (channel: string, who: 'agent' | 'admin') =>
			api.request('POST', '/v1/realtime/auth', { body: { socket_id: '1234.5678', channel_name: channel }, headers: people[who].auth })
		expect((await auth(workspaceChannel(people.workspace.id), 'agent')).status).toBe(403)
		expect((await auth(workspacePresenceChannel(people.workspace.id), 'agent')).status).toBe(200)
		expect((await auth(workspaceChannel(people.workspace.id), 'admin')).status).toBe(200)
	})
})

// A loaded machine (the whole run) may take seconds to connect and sign in.
const live = { timeout: 10_000 }

describe('what narrowed agents hear', () => {
	test('told on their own channel, without what changed, when a conversation of theirs changes or leaves them; nothing of the others', async () => {
		const server = await startRealtimeServer()
		try {
			const people = await createTeam('Told')
			const site = await createLinkChannel(people.workspace.id)
			const team = async (name: string, userIds: string[]) =>
				((await server.request('POST', `/v1/workspaces/${people.workspace.id}/teams`, people.owner.auth, { name, userIds })).body as { id: string }).id
			const billing = await team('Billing', [people.agent.user.id])
			const sales = await team('Sales', [people.otherAgent.user.id])
			expect((await server.request('PATCH', `/v1/workspaces/${people.workspace.id}`, people.owner.auth, { agentsSeeOwnTeams: true })).status).toBe(200)
			const heard = { agent: [] as unknown[], otherAgent: [] as unknown[] }
			for (const who of ['agent', 'otherAgent'] as const) {
				const client = await server.connect(people[who].auth)
				await expect.poll(() => client.pusher.user.serverToUserChannel?.subscribed, live).toBe(true)
				client.pusher.user.bind(inboxChangedEvent, (data: unknown) => heard[who].push(data))
			}
			// Who was told since the last call: everything sent so far has arrived once a marker sent after it has (one socket keeps the order).
			const told = async () => {
				await server.realtime.flush()
				const marker = { workspaceId: crypto.randomUUID() }
				const whom: string[] = []
				for (const who of ['agent', 'otherAgent'] as const) {
					await server.realtime.notifyUser(people[who].user.id, inboxChangedEvent, marker)
					await expect.poll(() => heard[who], live).toContainEqual(marker)
					const events = heard[who].splice(0).filter((event) => JSON.stringify(event) !== JSON.stringify(marker))
					expect(events.every((event) => JSON.stringify(event) === JSON.stringify({ workspaceId: people.workspace.id }))).toBe(true)
					if (events.length > 0) whom.push(who)
				}
				return whom
			}
			const { conversation } = await customerWrites(site, 'told', 'Hello', { realtime: server.realtime })
			expect(await told()).toEqual([])
			const patch = (body: object) => server.request('PATCH', conversationsPath(people.workspace.id, `/${conversation.number}`), people.owner.auth, body)

			await patch({ teamId: billing })
			expect(await told()).toEqual(['agent'])
			// Handed over to Sales: it leaves the agent's page, and reaches the other agent's.
			await patch({ teamId: sales })
			expect(await told()).toEqual(['agent', 'otherAgent'])
			// A customer's message in it tells the one who sees it.
			await customerWrites(site, 'told', 'Still there?', { realtime: server.realtime })
			expect(await told()).toEqual(['otherAgent'])
		} finally {
			await server.close()
		}
	})

	test('switching the rule on closes the agents’ connections, so that they subscribe again under it; off, they are told', async () => {
		const server = await startRealtimeServer()
		try {
			const people = await createTeam('Reconnected')
			const client = await server.connect(people.agent.auth)
			await expect.poll(() => client.pusher.user.serverToUserChannel?.subscribed, live).toBe(true)
			const closed = nextEvent(client.pusher.connection, 'state_change', 5000)
			const rule = (on: boolean) => server.request('PATCH', `/v1/workspaces/${people.workspace.id}`, people.owner.auth, { agentsSeeOwnTeams: on })
			expect((await rule(true)).status).toBe(200)
			expect(await closed).toMatchObject({ previous: 'connected' })
			// The module connects again after 2 s (app/realtime/pusher.client.ts).
			await expect
				.poll(() => client.pusher.connection.state === 'connected' && client.pusher.user.serverToUserChannel?.subscribed, { timeout: 10_000 })
				.toBe(true)
			const told = nextEvent(client.pusher.user, inboxChangedEvent, 5000)
			expect((await rule(false)).status).toBe(200)
			expect(await told).toEqual({ workspaceId: people.workspace.id })
		} finally {
			await server.close()
		}
	})
})
