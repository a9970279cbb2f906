import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { type Channel } from '#api/db/schema.ts'
import { type InboxSummaryJson } from '#api/conversations/json.ts'
import { conversationsPath, createLinkChannel, customerWrites, type ConversationJson, type MessageJson } from './conversations-fixtures.ts'
import { recordEvents, startRealtimeServer, type RealtimeTestServer } from './realtime-support.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

// A conversation's team (issue 30): set by hand and in bulk, filtered and counted, announced.
let server: RealtimeTestServer
let people: Team
let channel: Channel
let billing: { id: string; name: string }
let sales: { id: string; name: string }
let foreign: { id: string; name: string }
beforeAll(async () => {
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	server = await startRealtimeServer()
	people = await createTeam('Team inbox')
	channel = await createLinkChannel(people.workspace.id)
	// The agent is in Billing; nobody of the workspace is in Sales; another workspace has its own team.
	billing = await createWorkspaceTeam(people.workspace.id, people.owner.auth, 'Billing', [people.agent.user.id])
	sales = await createWorkspaceTeam(people.workspace.id, people.owner.auth, 'Sales', [])
	foreign = await createWorkspaceTeam(people.elsewhere.id, people.outsider.auth, 'Billing', [])
})
afterAll(() => server.close())

async function createWorkspaceTeam(workspaceId: string, auth: Record<string, string>, name: string, userIds: string[]) {
	const created = await server.request('POST', `/v1/workspaces/${workspaceId}/teams`, auth, { name, userIds })
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	return created.body as { id: string; name: string }
}

const call = (method: string, rest: string, body?: unknown, headers: Record<string, string> = people.agent.auth) =>
	server.request(method, conversationsPath(people.workspace.id, rest), headers, body)

async function activities(number: number) {
	const { body } = await call('GET', `/${number}/messages?limit=100`)
	return (body as { messages: MessageJson[] }).messages.filter((message) => message.kind === 'activity').map((message) => message.activity)
}

type List = { conversations: ConversationJson[]; counts: Record<string, number>; countsLimit: number | null }
const numbersOf = (list: unknown) => sorted((list as List).conversations.map((conversation) => conversation.number))
const sorted = (numbers: number[]) => [...numbers].sort((a, b) => a - b)

describe("a conversation's team", () => {
	test('a member moves a conversation to a team and out of it: the JSON names it, one activity line per change, a repeat adds none', async () => {
		const { conversation } = await customerWrites(channel, 'moved', 'Hello')
		expect((await call('GET', `/${conversation.number}`)).body).toMatchObject({ team: null })
		let answer = await call('PATCH', `/${conversation.number}`, { teamId: billing.id })
		expect(answer.status, JSON.stringify(answer.body)).toBe(200)
		expect(answer.body).toMatchObject({ team: { id: billing.id, name: 'Billing' } })
		await call('PATCH', `/${conversation.number}`, { teamId: billing.id })
		answer = await call('PATCH', `/${conversation.number}`, { teamId: null }, people.owner.auth)
		expect(answer.body).toMatchObject({ team: null })
		expect(await activities(conversation.number)).toEqual([
			{ key: 'activity.teamChanged', values: { actor: people.agent.user.name, team: 'Billing' } },
			{ key: 'activity.teamRemoved', values: { actor: people.owner.user.name } },
		])
		// The thread's view and the list carry it as well.
		await call('PATCH', `/${conversation.number}`, { teamId: sales.id })
		expect((await call('GET', `/${conversation.number}/view`)).body).toMatchObject({ conversation: { team: { id: sales.id, name: 'Sales' } } })
	})

	test("another workspace's team, or no team at all, is refused beside the field in the reader's language, and nothing changes", async () => {
		const { conversation } = await customerWrites(channel, 'refused', 'Hello')
		const foreignTeam = await call(
			'PATCH',
			`/${conversation.number}`,
			{ teamId: foreign.id, status: 'pending' },
			{ ...people.agent.auth, 'Accept-Language': 'fr' },
		)
		expect(foreignTeam.status).toBe(422)
		expect(foreignTeam.body).toMatchObject({ details: { fields: { teamId: ['Choisissez une équipe de cet espace de travail.'] } } })
		const unknown = await call('PATCH', `/${conversation.number}`, { teamId: crypto.randomUUID() }, { ...people.agent.auth, 'Accept-Language': 'ar-EG' })
		expect(unknown.status).toBe(422)
		expect(unknown.body).toMatchObject({ details: { fields: { teamId: ['اختر فريقًا من مساحة العمل هذه.'] } } })
		expect((await call('PATCH', `/${conversation.number}`, { teamId: 'billing' })).status).toBe(400)
		expect((await call('GET', `/${conversation.number}`)).body).toMatchObject({ status: 'open', team: null })
		expect(await activities(conversation.number)).toEqual([])
		// The other workspace cannot move this one's conversation into its team either: it does not find it.
		const outsider = await server.request('PATCH', conversationsPath(people.elsewhere.id, `/${conversation.number}`), people.outsider.auth, {
			teamId: foreign.id,
		})
		expect(outsider.status).toBe(404)
	})

	test('the bulk action moves many conversations to a team or out of theirs; a foreign team changes none of them', async () => {
		const first = (await customerWrites(channel, 'bulk-1', 'Hi')).conversation
		const second = (await customerWrites(channel, 'bulk-2', 'Hi')).conversation
		const numbers = [first.number, second.number]
		const refused = await call('POST', '/bulk', { numbers, action: 'team', teamId: foreign.id })
		expect(refused.status).toBe(422)
		expect(refused.body).toMatchObject({ details: { fields: { teamId: ['Choose a team of this workspace.'] } } })
		expect((await call('POST', '/bulk', { numbers, action: 'team' })).status).toBe(400)
		const moved = await call('POST', '/bulk', { numbers, action: 'team', teamId: billing.id })
		expect(moved.body).toEqual({ updated: 2 })
		for (const number of numbers) {
			expect((await call('GET', `/${number}`)).body).toMatchObject({ team: { id: billing.id } })
			expect(await activities(number)).toEqual([{ key: 'activity.teamChanged', values: { actor: people.agent.user.name, team: 'Billing' } }])
		}
		expect((await call('POST', '/bulk', { numbers, action: 'team', teamId: null })).body).toEqual({ updated: 2 })
		expect((await call('GET', `/${first.number}`)).body).toMatchObject({ team: null })
	})
})

describe('the team filters and counts', () => {
	test("`team` lists one team's conversations or the reader's teams', with the tabs' counts and the sidebar's; a bad value is a translated 400", async () => {
		const workspace = await createTeam('Team filters')
		const site = await createLinkChannel(workspace.workspace.id)
		const support = await createWorkspaceTeam(workspace.workspace.id, workspace.owner.auth, 'Support', [workspace.agent.user.id])
		const night = await createWorkspaceTeam(workspace.workspace.id, workspace.owner.auth, 'Night', [workspace.agent.user.id, workspace.otherAgent.user.id])
		const other = await createWorkspaceTeam(workspace.workspace.id, workspace.owner.auth, 'Other', [workspace.otherAgent.user.id])
		const conversations = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(async (visitor) => (await customerWrites(site, visitor, 'Hello')).conversation))
		const [a, b, c, d, e] = conversations.map((conversation) => conversation.number) as [number, number, number, number, number]
		const path = (rest: string) => conversationsPath(workspace.workspace.id, rest)
		const patch = (number: number, body: object) => server.request('PATCH', path(`/${number}`), workspace.owner.auth, body)
		await patch(a, { teamId: support.id })
		await patch(b, { teamId: night.id, status: 'pending' })
		await patch(c, { teamId: other.id })
		await patch(d, { teamId: support.id, status: 'resolved' })
		// e has no team.
		const list = (query: string, auth = workspace.agent.auth) => server.request('GET', path(`?${query}`), auth)

		const ofSupport = await list(`team=${support.id}&status=all`)
		expect(ofSupport.status).toBe(200)
		expect(numbersOf(ofSupport.body)).toEqual(sorted([a, d]))
		expect((ofSupport.body as List).counts).toEqual({ open: 1, pending: 0, resolved: 1, snoozed: 0 })

		const mine = await list('team=mine')
		expect(numbersOf(mine.body)).toEqual([a])
		expect((mine.body as List).counts).toEqual({ open: 1, pending: 1, resolved: 1, snoozed: 0 })
		expect((mine.body as List).countsLimit).not.toBeNull()
		expect(numbersOf((await list('team=mine&status=all', workspace.otherAgent.auth)).body)).toEqual(sorted([b, c]))
		// The owner is in no team: "mine" is none.
		expect((await list('team=mine&status=all', workspace.owner.auth)).body).toMatchObject({ conversations: [], counts: { open: 0, pending: 0 } })
		// With the other filters: the assignee.
		await patch(a, { assigneeId: workspace.agent.user.id })
		expect(numbersOf((await list('team=mine&assignee=unassigned&status=all')).body)).toEqual(sorted([b, d]))
		expect(numbersOf((await list('status=all')).body)).toEqual(sorted([a, b, c, d, e]))

		// Another workspace's team finds nothing here.
		const foreignTeam = await createWorkspaceTeam(workspace.elsewhere.id, workspace.outsider.auth, 'Support', [])
		expect((await list(`team=${foreignTeam.id}&status=all`)).body).toMatchObject({ conversations: [] })

		const bad = await server.request('GET', path('?team=everyone'), { ...workspace.agent.auth, 'Accept-Language': 'fr' })
		expect(bad.status).toBe(400)
		expect(bad.body).toMatchObject({ details: { fields: { team: ['Choisissez une équipe par son identifiant, ou « mine ».'] } } })

		const summary = await server.request('GET', path('/summary'), workspace.agent.auth)
		expect(summary.body).toEqual({
			mine: 1,
			unassigned: 2,
			myTeams: 1,
			myTeamIds: [support.id, night.id].sort(),
		} satisfies InboxSummaryJson)
		expect((await server.request('GET', path('/summary'), workspace.owner.auth)).body).toMatchObject({ myTeams: 0, myTeamIds: [] })
		expect((await server.request('GET', path('/summary'), workspace.otherAgent.auth)).body).toMatchObject({ myTeams: 1 })
	})
})

describe('the team change announced', () => {
	test('`conversation.updated` carries the row with its team and the team it had, so pages move it between their counts', async () => {
		const listener = await server.connect(people.otherAgent.auth)
		const events = await recordEvents(listener, `private-workspace-${people.workspace.id}`)
		const { conversation } = await customerWrites(channel, 'announced', 'Hello')
		await call('PATCH', `/${conversation.number}`, { teamId: billing.id })
		expect(await events.waitFor('conversation.updated', (data) => data.number === conversation.number)).toMatchObject({
			previous: { status: 'open', assigneeId: null, teamId: null },
			conversation: { team: { id: billing.id, name: 'Billing' } },
		})
		expect(await events.waitFor('message.created', (data) => data.number === conversation.number)).toMatchObject({
			message: { kind: 'activity', activity: { key: 'activity.teamChanged' } },
		})
		await call('POST', '/bulk', { numbers: [conversation.number], action: 'team', teamId: sales.id })
		expect(
			await events.waitFor(
				'conversation.updated',
				(data) => data.number === conversation.number && (data.previous as { teamId: string }).teamId === billing.id,
			),
		).toMatchObject({ conversation: { team: { id: sales.id } } })
		// A change that moves something else keeps the team it had.
		await call('PATCH', `/${conversation.number}`, { status: 'pending' })
		const pending = await events.waitFor(
			'conversation.updated',
			(data) => data.number === conversation.number && (data.conversation as { status: string }).status === 'pending',
		)
		expect(pending.previous).toEqual({ status: 'open', assigneeId: null, teamId: sales.id })
	})
})
