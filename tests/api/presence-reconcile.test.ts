import crypto from 'node:crypto'
import { Writable } from 'node:stream'
import { sql } from 'kysely'
import { pino } from 'pino'
import { afterAll, beforeAll, expect, inject, test, vi } from 'vitest'
import { reconcilePresence } from '#api/assignment/presence.ts'
import { drainJobKey } from '#api/assignment/queue.ts'
import { type Channel } from '#api/db/schema.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { createMailer } from '#api/mail/mailer.ts'
import { createRealtime } from '#api/realtime/publisher.ts'
import { workspacePresenceChannel } from '#common/realtime.ts'
import { defaultProviderConfig, testDb } from './harness.ts'
import { until } from './channels-fixtures.ts'
import { freePort } from './child-server.ts'
import { createLinkChannel, customerWrites } from './conversations-fixtures.ts'
import { recordEvents, startRealtimeServer, type RealtimeTestServer } from './realtime-support.ts'
import { createTeam, type Team, type TestUser } from './workspaces-fixtures.ts'

/**
 * Presence reconciled against the realtime server (issue 30): its webhooks are lost here (this
 * server sends none: no REALTIME_WEBHOOK_URL), so only `reconcilePresence` tells the app who is
 * connected, as the realtime server lists them (`GET /channels/{name}/users`, through the `pusher`
 * SDK); the `drain-queues` and `presence-offline` jobs run in a real job runner.
 */

// A member turns offline seconds after their leave is applied, so that the test sees it: at one second, a loaded
// machine (the browser tests beside) once took longer between the reconciliation and the next look.
const offlineAfter = 3
let server: RealtimeTestServer
let runner: JobRunner

beforeAll(async () => {
	vi.spyOn(console, 'warn').mockImplementation(() => undefined)
	server = await startRealtimeServer()
	runner = await startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: { 'drain-queues': jobHandlers['drain-queues'], 'presence-offline': jobHandlers['presence-offline'] },
		log: { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) },
		config: defaultProviderConfig,
		realtime: server.realtime,
		pollInterval: 100,
	})
})
afterAll(async () => {
	await runner.stop()
	await server.close()
})

const presenceOf = (workspaceId: string, userId: string) =>
	testDb()
		.selectFrom('members')
		.select(['availability', 'offlineByPresence', 'connectedAt', 'presenceAt'])
		.where('workspaceId', '=', workspaceId)
		.where('userId', '=', userId)
		.executeTakeFirstOrThrow()

/** What a lost webhook leaves: the member online by choice, and marked connected (or not) since a minute ago. */
async function mark(people: Team, member: TestUser, { connected, availability = 'online' }: { connected: boolean; availability?: 'online' | 'busy' }) {
	const minuteAgo = new Date(Date.now() - 60_000)
	await testDb()
		.updateTable('members')
		.set({ availability, offlineByPresence: false, connectedAt: connected ? minuteAgo : null, presenceAt: minuteAgo })
		.where('workspaceId', '=', people.workspace.id)
		.where('userId', '=', member.user.id)
		.execute()
}

/** The member's page open: a connection of the browser module on the workspace's presence channel. */
async function openPage(people: Team, member: TestUser) {
	const client = await server.connect(member.auth)
	await recordEvents(client, workspacePresenceChannel(people.workspace.id))
	const listed = await server.sdk.get({ path: `/channels/${workspacePresenceChannel(people.workspace.id)}/users` })
	expect(((await listed.json()) as { users: Array<{ id: string }> }).users).toContainEqual({ id: member.user.id })
	return client
}

const reconcile = () => reconcilePresence(testDb(), server.realtime, offlineAfter, { leaveGraceMs: 200 })

test('a member marked connected whom the realtime server does not list is disconnected, and turns offline by themselves a while later', async () => {
	const people = await createTeam('Lost leave')
	await mark(people, people.agent, { connected: true })
	// Another is really there: listed, they stay as they were.
	await mark(people, people.otherAgent, { connected: true })
	const client = await openPage(people, people.otherAgent)
	const before = await presenceOf(people.workspace.id, people.otherAgent.user.id)

	await reconcile()
	expect(await presenceOf(people.workspace.id, people.agent.user.id)).toMatchObject({ availability: 'online', connectedAt: null })
	expect(await presenceOf(people.workspace.id, people.otherAgent.user.id)).toEqual(before)
	await until(async () => (await presenceOf(people.workspace.id, people.agent.user.id)).availability === 'offline')
	expect(await presenceOf(people.workspace.id, people.agent.user.id)).toMatchObject({ offlineByPresence: true })
	client.close()
})

test('a member off the list for a moment (a page reloading) and back before the second look stays connected', async () => {
	const people = await createTeam('Reload')
	await mark(people, people.agent, { connected: true })
	const before = await presenceOf(people.workspace.id, people.agent.user.id)
	const reconciled = reconcilePresence(testDb(), server.realtime, offlineAfter, { leaveGraceMs: 3000 })
	const client = await openPage(people, people.agent)
	await reconciled
	expect(await presenceOf(people.workspace.id, people.agent.user.id)).toEqual(before)
	client.close()
})

test('a member the realtime server lists but marked disconnected is connected, and the queue waiting for them is served', async () => {
	const people = await createTeam('Lost return')
	const created = await server.request('POST', `/v1/workspaces/${people.workspace.id}/teams`, people.owner.auth, {
		name: 'Support',
		autoAssign: true,
		userIds: [people.agent.user.id, people.otherAgent.user.id],
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	const link = await createLinkChannel(people.workspace.id)
	const named = await server.request('PATCH', `/v1/workspaces/${people.workspace.id}/channels/${link.id}`, people.owner.auth, {
		teamId: (created.body as { id: string }).id,
	})
	expect(named.status).toBe(200)
	const channel: Channel = await testDb().selectFrom('channels').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow()
	// Nobody available: the agent's connection unknown (their webhook lost), the other busy.
	await mark(people, people.agent, { connected: false })
	await mark(people, people.otherAgent, { connected: true, availability: 'busy' })
	const { conversation } = await customerWrites(channel, crypto.randomUUID(), 'Hello?')
	await until(async () => {
		const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${drainJobKey(people.workspace.id)}`.execute(
			testDb(),
		)
		return rows[0]?.n === 0
	})
	const waiting = await testDb().selectFrom('conversations').selectAll().where('id', '=', conversation.id).executeTakeFirstOrThrow()
	expect(waiting).toMatchObject({ assigneeId: null })
	expect(waiting.queuedAt).not.toBeNull()

	const agentPage = await openPage(people, people.agent)
	const busyPage = await openPage(people, people.otherAgent)
	await reconcile()
	expect((await presenceOf(people.workspace.id, people.agent.user.id)).connectedAt).not.toBeNull()
	const served = await until(async () => {
		const row = await testDb().selectFrom('conversations').selectAll().where('id', '=', conversation.id).executeTakeFirstOrThrow()
		return row.assigneeId ? row : undefined
	})
	expect(served).toMatchObject({ assigneeId: people.agent.user.id, queuedAt: null })
	agentPage.close()
	busyPage.close()
})

test('when the realtime server cannot be reached, nothing changes and a warning says so', async () => {
	const people = await createTeam('Realtime away')
	await mark(people, people.agent, { connected: true })
	await mark(people, people.otherAgent, { connected: false })
	const before = await Promise.all([people.agent, people.otherAgent].map((member) => presenceOf(people.workspace.id, member.user.id)))
	// A port nobody listens on any more.
	const port = await freePort()
	const lines: Array<{ level: number; msg: string }> = []
	const logger = pino(
		{ level: 'warn' },
		new Writable({
			write(chunk: Buffer, _encoding, done) {
				lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string })
				done()
			},
		}),
	)
	const away = createRealtime({ target: () => ({ ...server.target(), port }), logger })

	await reconcilePresence(testDb(), away, offlineAfter, { leaveGraceMs: 200 })
	expect(await Promise.all([people.agent, people.otherAgent].map((member) => presenceOf(people.workspace.id, member.user.id)))).toEqual(before)
	expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: 'could not ask the realtime server for the users of a channel' }))
	const { rows } = await sql<{
		n: number
	}>`select count(*)::int as n from graphile_worker.jobs where key like ${`presence-offline:${people.workspace.id}:%`}`.execute(testDb())
	expect(rows[0]?.n).toBe(0)
})

test('the job changes nothing where reconciling is switched off (PRESENCE_RECONCILE=false), and reconciles otherwise', async () => {
	const people = await createTeam('Switched off')
	await mark(people, people.agent, { connected: true })
	const before = await presenceOf(people.workspace.id, people.agent.user.id)
	const helpers = { db: testDb(), realtime: server.realtime, mailer: createMailer(defaultProviderConfig, { info: () => {} }) }
	await jobHandlers['reconcile-presence']({}, { ...helpers, config: { ...defaultProviderConfig, PRESENCE_RECONCILE: false } })
	expect(await presenceOf(people.workspace.id, people.agent.user.id)).toEqual(before)
	await jobHandlers['reconcile-presence']({}, { ...helpers, config: defaultProviderConfig })
	expect((await presenceOf(people.workspace.id, people.agent.user.id)).connectedAt).toBeNull()
})
