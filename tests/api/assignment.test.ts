import crypto from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, test } from 'vitest'
import { drainJobKey } from '#api/assignment/queue.ts'
import { type Channel, type Conversation } from '#api/db/schema.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { workspacePresenceChannel } from '#common/realtime.ts'
import { resolveRealtimeConfig } from '#config/realtime-config.ts'
import { createUser, startApi, testDb, type TestApi } from './harness.ts'
import { conversationsPath, createLinkChannel, customerWrites, recordingRealtime, type Published } from './conversations-fixtures.ts'
import { createTeam, type Team, type TestUser } from './workspaces-fixtures.ts'

/**
 * Auto-assignment (issue 30) through its real paths: the realtime server's signed presence webhooks
 * make members available, customers' messages fill a team's queue, the `drain-queues` and
 * `presence-offline` jobs run in a real job runner, and the API's changes (resolve, hand over,
 * availability, a member removed, a team switched on) free room or fill the queue.
 */

let api: TestApi
let runner: JobRunner
const published: Published[] = []

beforeAll(async () => {
	// A member turns offline a second after their last connection closed, so that the test sees it.
	api = await startApi({ PRESENCE_OFFLINE_AFTER: '1' })
	runner = await startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: { 'drain-queues': jobHandlers['drain-queues'], 'presence-offline': jobHandlers['presence-offline'] },
		log: { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) },
		config: api.config,
		realtime: recordingRealtime(published),
		pollInterval: 100,
	})
})
afterAll(async () => {
	await runner.stop()
	await api.close()
})

/** A presence webhook as the realtime server sends it: signed with the app's secret. */
async function presence(name: 'member_added' | 'member_removed', workspaceId: string, userId: string, options: { secret?: string; at?: Date } = {}) {
	const app = resolveRealtimeConfig(api.config).app
	const rawBody = JSON.stringify({
		time_ms: (options.at ?? new Date()).getTime(),
		events: [{ name, channel: workspacePresenceChannel(workspaceId), user_id: userId }],
	})
	const signature = crypto
		.createHmac('sha256', options.secret ?? app.secret)
		.update(rawBody)
		.digest('hex')
	return api.request('POST', '/webhooks/realtime', {
		rawBody,
		headers: { 'Content-Type': 'application/json', 'X-Pusher-Key': app.key, 'X-Pusher-Signature': signature, 'Accept-Language': 'fr-FR' },
	})
}

/** Waits (up to 10 s) for `check`; fails with `what`. */
async function until<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
	for (const deadline = Date.now() + 10_000; ;) {
		const value = await check()
		if (value) return value
		if (Date.now() > deadline) throw new Error(`${what}: not within 10 s`)
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
}

/** The workspace's drain is done: no job of its key waits or runs. */
async function drained(workspaceId: string) {
	await until('the drain ran', async () => {
		const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${drainJobKey(workspaceId)}`.execute(testDb())
		return rows[0]?.n === 0
	})
}

const conversation = (id: string) => testDb().selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function activityKeys(conversationId: string) {
	const rows = await testDb()
		.selectFrom('messages')
		.select('activity')
		.where('conversationId', '=', conversationId)
		.where('kind', '=', 'activity')
		.orderBy('id')
		.execute()
	return rows.map((row) => row.activity)
}

type Setup = { people: Team; channel: Channel; teamId: string; agents: TestUser[] }

/** A workspace with an auto-assigning team of its two agents, a chat link that sends to it, and both agents online (by their choice) and connected. */
async function setup(options: { autoAssign?: boolean; defaultCapacity?: number | null } = {}): Promise<Setup> {
	const people = await createTeam('Assignment')
	const agents = [people.agent, people.otherAgent]
	const created = await api.request('POST', `/v1/workspaces/${people.workspace.id}/teams`, {
		body: { name: 'Support', autoAssign: options.autoAssign ?? true, userIds: agents.map((agent) => agent.user.id) },
		headers: people.owner.auth,
	})
	expect(created.status).toBe(201)
	const teamId = (created.body as { id: string }).id
	const link = await createLinkChannel(people.workspace.id)
	const named = await api.request('PATCH', `/v1/workspaces/${people.workspace.id}/channels/${link.id}`, { body: { teamId }, headers: people.owner.auth })
	expect(named.status).toBe(200)
	const channel = await testDb().selectFrom('channels').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow()
	if (options.defaultCapacity !== undefined) await setWorkspace(people, { defaultCapacity: options.defaultCapacity })
	for (const agent of agents) {
		const online = await api.request('PATCH', `/v1/workspaces/${people.workspace.id}/members/me`, { body: { availability: 'online' }, headers: agent.auth })
		expect(online.status).toBe(200)
		expect((await presence('member_added', people.workspace.id, agent.user.id)).status).toBe(200)
	}
	return { people, channel, teamId, agents }
}

/** The workspace's assignment settings, as its owner changes them. */
async function setWorkspace(people: Team, changes: { defaultCapacity?: number | null; reopenAssignment?: 'keep' | 'reassign' }) {
	const changed = await api.request('PATCH', `/v1/workspaces/${people.workspace.id}`, { body: changes, headers: people.owner.auth })
	expect(changed.status, JSON.stringify(changed.body)).toBe(200)
}

const writes = async (channel: Channel, visitor = crypto.randomUUID()) => (await customerWrites(channel, visitor, 'Hello, anyone there?')).conversation

async function assigned(id: string): Promise<Conversation> {
	return until(`conversation ${id} assigned`, async () => {
		const row = await conversation(id)
		return row.assigneeId ? row : undefined
	})
}

describe('a new conversation', () => {
	let s: Setup
	beforeEach(async () => {
		s = await setup()
	})

	test('goes to the available member with the fewest open conversations, with a line, a queue wait and a notification', async () => {
		const [agent, other] = s.agents
		const first = await assigned((await writes(s.channel)).id)
		const firstTaker = first.assigneeId
		expect([agent!.user.id, other!.user.id]).toContain(firstTaker)
		// The other one now has fewer open conversations.
		const second = await assigned((await writes(s.channel)).id)
		expect(second.assigneeId).not.toBe(firstTaker)
		expect(second.teamId).toBe(s.teamId)
		expect(second.queuedAt).toBeNull()

		const taker = second.assigneeId === agent!.user.id ? agent! : other!
		expect(await activityKeys(second.id)).toContainEqual({ key: 'activity.autoAssigned', values: { assignee: taker.user.name } })
		const waits = await testDb().selectFrom('queueWaits').selectAll().where('conversationId', '=', second.id).execute()
		expect(waits).toMatchObject([{ teamId: s.teamId, automatic: true }])
		await until('the notification', async () =>
			published.some(
				(entry) =>
					entry.channel === `#server-to-user-${taker.user.id}` &&
					(entry.data as { notification?: { conversationNumber: number } }).notification?.conversationNumber === second.number,
			),
		)

		// The thread has the line, with nobody as its sender (the page says it in the reader's language).
		const thread = await api.request('GET', conversationsPath(s.people.workspace.id, `/${second.number}/messages`), { headers: s.people.owner.auth })
		expect((thread.body as { messages: unknown[] }).messages).toContainEqual(
			expect.objectContaining({ kind: 'activity', sender: null, activity: { key: 'activity.autoAssigned', values: { assignee: taker.user.name } } }),
		)
	})

	test('waits in the queue while nobody is available, and goes to the first who comes online, connected', async () => {
		const [agent, other] = s.agents
		await testDb()
			.updateTable('members')
			.set({ availability: 'busy' })
			.where('workspaceId', '=', s.people.workspace.id)
			.where('userId', '=', agent!.user.id)
			.execute()
		expect((await presence('member_removed', s.people.workspace.id, other!.user.id)).status).toBe(200)
		const waiting = await writes(s.channel)
		await drained(s.people.workspace.id)
		expect(await conversation(waiting.id)).toMatchObject({ assigneeId: null, teamId: s.teamId })
		expect((await conversation(waiting.id)).queuedAt).not.toBeNull()

		// Busy is never assigned; online without a connection neither: the other agent reconnects.
		expect((await presence('member_added', s.people.workspace.id, other!.user.id)).status).toBe(200)
		expect((await assigned(waiting.id)).assigneeId).toBe(other!.user.id)
	})

	test('of a team that does not auto-assign waits unassigned, outside any queue, until the team starts auto-assigning', async () => {
		await api.request('PATCH', `/v1/workspaces/${s.people.workspace.id}/teams/${s.teamId}`, { body: { autoAssign: false }, headers: s.people.owner.auth })
		const waiting = await writes(s.channel)
		await drained(s.people.workspace.id)
		expect(await conversation(waiting.id)).toMatchObject({ assigneeId: null, queuedAt: null, teamId: s.teamId })
		const turnedOn = await api.request('PATCH', `/v1/workspaces/${s.people.workspace.id}/teams/${s.teamId}`, {
			body: { autoAssign: true },
			headers: s.people.owner.auth,
		})
		expect(turnedOn.status).toBe(200)
		expect((await assigned(waiting.id)).assigneeId).not.toBeNull()
	})
})

test('moved by hand to an auto-assigning team, an unassigned conversation joins its queue; moved to a team that does not auto-assign, it leaves it', async () => {
	const s = await setup({ defaultCapacity: 0 })
	const workspaceId = s.people.workspace.id
	const manual = await api.request('POST', `/v1/workspaces/${workspaceId}/teams`, { body: { name: 'Billing' }, headers: s.people.owner.auth })
	const waiting = await conversation((await writes(s.channel)).id)
	await drained(workspaceId)
	expect((await conversation(waiting.id)).queuedAt).not.toBeNull()
	const moved = await api.request('PATCH', conversationsPath(workspaceId, `/${waiting.number}`), {
		body: { teamId: (manual.body as { id: string }).id },
		headers: s.people.owner.auth,
	})
	expect(moved.status).toBe(200)
	expect(await conversation(waiting.id)).toMatchObject({ queuedAt: null, assigneeId: null })

	await setWorkspace(s.people, { defaultCapacity: null })
	const back = await api.request('PATCH', conversationsPath(workspaceId, `/${waiting.number}`), { body: { teamId: s.teamId }, headers: s.people.owner.auth })
	expect(back.status).toBe(200)
	expect((await assigned(waiting.id)).teamId).toBe(s.teamId)
})

describe('capacity', () => {
	test('nobody goes over it; resolving one serves the queue oldest first; a member chosen online takes what waits', async () => {
		const s = await setup({ defaultCapacity: 1 })
		const [agent, other] = s.agents
		const a = await assigned((await writes(s.channel)).id)
		const b = await assigned((await writes(s.channel)).id)
		expect(new Set([a.assigneeId, b.assigneeId])).toEqual(new Set([agent!.user.id, other!.user.id]))
		const older = await writes(s.channel)
		const newer = await writes(s.channel)
		await drained(s.people.workspace.id)
		expect((await conversation(older.id)).assigneeId).toBeNull()
		expect((await conversation(newer.id)).assigneeId).toBeNull()

		// Pending does not count: the agent who set theirs pending takes the oldest waiting one.
		const pending = await api.request('PATCH', conversationsPath(s.people.workspace.id, `/${a.number}`), {
			body: { status: 'pending' },
			headers: s.people.owner.auth,
		})
		expect(pending.status).toBe(200)
		expect((await assigned(older.id)).assigneeId).toBe(a.assigneeId)
		await drained(s.people.workspace.id)
		expect((await conversation(newer.id)).assigneeId).toBeNull()

		// An agent who chose busy, then online again, takes it once they have room.
		const holder = b.assigneeId === agent!.user.id ? agent! : other!
		const me = `/v1/workspaces/${s.people.workspace.id}/members/me`
		expect((await api.request('PATCH', me, { body: { availability: 'busy' }, headers: holder.auth })).status).toBe(200)
		await api.request('PATCH', conversationsPath(s.people.workspace.id, `/${b.number}`), { body: { status: 'resolved' }, headers: holder.auth })
		await drained(s.people.workspace.id)
		expect((await conversation(newer.id)).assigneeId).toBeNull()
		expect((await api.request('PATCH', me, { body: { availability: 'online' }, headers: holder.auth })).status).toBe(200)
		expect((await assigned(newer.id)).assigneeId).toBe(holder.user.id)

		// Everyone full again; an agent's own capacity raised by an admin serves the next at once.
		const next = await writes(s.channel)
		await drained(s.people.workspace.id)
		expect((await conversation(next.id)).assigneeId).toBeNull()
		const raised = await api.request('PATCH', `/v1/workspaces/${s.people.workspace.id}/members/${agent!.user.id}`, {
			body: { capacity: 3 },
			headers: s.people.admin.auth,
		})
		expect(raised.status).toBe(200)
		expect((await assigned(next.id)).assigneeId).toBe(agent!.user.id)
	})

	test('given by hand, a waiting conversation leaves the queue with its wait recorded', async () => {
		const s = await setup({ defaultCapacity: 0 })
		const waiting = await writes(s.channel)
		await drained(s.people.workspace.id)
		const row = await conversation(waiting.id)
		expect(row.queuedAt).not.toBeNull()
		const given = await api.request('PATCH', conversationsPath(s.people.workspace.id, `/${row.number}`), {
			body: { assigneeId: s.people.admin.user.id },
			headers: s.people.owner.auth,
		})
		expect(given.status).toBe(200)
		expect(await conversation(waiting.id)).toMatchObject({ assigneeId: s.people.admin.user.id, queuedAt: null })
		expect(await testDb().selectFrom('queueWaits').selectAll().where('conversationId', '=', waiting.id).execute()).toMatchObject([{ automatic: false }])
	})
})

describe('a reopened conversation', () => {
	async function resolvedWithAwayAssignee(rule: 'keep' | 'reassign') {
		const s = await setup()
		await setWorkspace(s.people, { reopenAssignment: rule })
		const visitor = crypto.randomUUID()
		const first = await assigned((await writes(s.channel, visitor)).id)
		const holder = s.agents.find((agent) => agent.user.id === first.assigneeId)!
		const stays = s.agents.find((agent) => agent !== holder)!
		await api.request('PATCH', conversationsPath(s.people.workspace.id, `/${first.number}`), { body: { status: 'resolved' }, headers: holder.auth })
		// The assignee leaves (their last connection closes).
		expect((await presence('member_removed', s.people.workspace.id, holder.user.id)).status).toBe(200)
		const reopened = await writes(s.channel, visitor)
		expect(reopened.id).toBe(first.id)
		return { s, first, holder, stays }
	}

	test('keeps its assignee when the workspace says keep', async () => {
		const { first, holder } = await resolvedWithAwayAssignee('keep')
		expect(await conversation(first.id)).toMatchObject({ status: 'open', assigneeId: holder.user.id })
	})

	test('goes back through assignment when its assignee is away and the workspace says reassign', async () => {
		const { first, holder, stays } = await resolvedWithAwayAssignee('reassign')
		expect((await assigned(first.id)).assigneeId).toBe(stays.user.id)
		const keys = await activityKeys(first.id)
		expect(keys).toContainEqual({ key: 'activity.unassignedAway', values: { assignee: holder.user.name } })
		expect(keys.at(-1)).toEqual({ key: 'activity.autoAssigned', values: { assignee: stays.user.name } })
	})
})

test('a member who leaves the workspace gives up their conversations, which go back through assignment', async () => {
	const s = await setup()
	const held = await assigned((await writes(s.channel)).id)
	const leaver = s.agents.find((agent) => agent.user.id === held.assigneeId)!
	const stays = s.agents.find((agent) => agent !== leaver)!
	const removed = await api.request('DELETE', `/v1/workspaces/${s.people.workspace.id}/members/${leaver.user.id}`, { headers: s.people.owner.auth })
	expect(removed.status).toBe(204)
	expect((await assigned(held.id)).assigneeId).toBe(stays.user.id)
	expect(await activityKeys(held.id)).toContainEqual({ key: 'activity.unassignedLeft', values: { assignee: leaver.user.name } })
})

describe('presence', () => {
	const availabilityOf = async (workspaceId: string, userId: string) =>
		testDb()
			.selectFrom('members')
			.select(['availability', 'offlineByPresence', 'connectedAt'])
			.where('workspaceId', '=', workspaceId)
			.where('userId', '=', userId)
			.executeTakeFirstOrThrow()

	test('an online member turns offline by themselves a while after their last connection closed, and online again when they return', async () => {
		const s = await setup()
		const [agent] = s.agents
		const workspaceId = s.people.workspace.id
		expect((await availabilityOf(workspaceId, agent!.user.id)).connectedAt).not.toBeNull()
		await presence('member_removed', workspaceId, agent!.user.id)
		expect(await availabilityOf(workspaceId, agent!.user.id)).toMatchObject({ availability: 'online', connectedAt: null })
		await until('offline by themselves', async () => (await availabilityOf(workspaceId, agent!.user.id)).availability === 'offline')
		expect((await availabilityOf(workspaceId, agent!.user.id)).offlineByPresence).toBe(true)
		await presence('member_added', workspaceId, agent!.user.id)
		expect(await availabilityOf(workspaceId, agent!.user.id)).toMatchObject({ availability: 'online', offlineByPresence: false })
	})

	test('a member who chose offline stays offline when they return; a late event changes nothing', async () => {
		const s = await setup()
		const [agent] = s.agents
		const workspaceId = s.people.workspace.id
		expect((await api.request('PATCH', `/v1/workspaces/${workspaceId}/members/me`, { body: { availability: 'offline' }, headers: agent!.auth })).status).toBe(
			200,
		)
		await presence('member_removed', workspaceId, agent!.user.id)
		await presence('member_added', workspaceId, agent!.user.id)
		expect(await availabilityOf(workspaceId, agent!.user.id)).toMatchObject({ availability: 'offline', offlineByPresence: false })
		// A leave stamped before the return arrives after it: they are still connected.
		await presence('member_removed', workspaceId, agent!.user.id, { at: new Date(Date.now() - 60_000) })
		expect((await availabilityOf(workspaceId, agent!.user.id)).connectedAt).not.toBeNull()
	})

	test('a webhook not signed with the app secret is refused (401, translated) and changes nothing', async () => {
		const s = await setup()
		const [agent] = s.agents
		const forged = await presence('member_removed', s.people.workspace.id, agent!.user.id, { secret: 'not-the-secret' })
		expect(forged.status).toBe(401)
		expect(forged.body).toMatchObject({ message: 'La signature du serveur temps réel sur ce webhook est absente ou fausse.' })
		expect((await availabilityOf(s.people.workspace.id, agent!.user.id)).connectedAt).not.toBeNull()
		// Someone else's workspace's presence channel names nobody of this one.
		const stranger = await createUser({ name: 'Stranger' })
		expect((await presence('member_added', s.people.workspace.id, stranger.user.id)).status).toBe(200)
	})
})
