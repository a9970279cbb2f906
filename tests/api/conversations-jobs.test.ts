import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { inject } from 'vitest'
import { wakeJobKey } from '#api/conversations/inbound.ts'
import { deliverMessage, wakeSnoozed } from '#api/conversations/jobs.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { addJob, startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { defaultProviderConfig, startApi, testDb, type TestApi } from './harness.ts'
import {
	conversationsPath,
	createLinkChannel,
	customerWrites,
	getConversation,
	postMessage,
	recordingRealtime,
	type MessageJson,
	type Published,
} from './conversations-fixtures.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

let api: TestApi
let team: Team
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Jobs')
})
afterAll(() => api.close())

/** What was published about one conversation: the runner also runs the jobs other test files left. */
const about = (published: Published[], conversationId: string) => published.filter((entry) => entry.data.conversationId === conversationId)

async function pendingWakeUps(conversationId: string) {
	const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where key = ${wakeJobKey(conversationId)}`.execute(testDb())
	return rows[0]?.n ?? 0
}

function runner(published: Published[]): Promise<JobRunner> {
	return startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: jobHandlers,
		log: quiet,
		config: defaultProviderConfig,
		realtime: recordingRealtime(published),
		pollInterval: 100,
	})
}

/** Waits (up to 15 s) for `check` to hold: jobs run in their own time. */
async function until(check: () => Promise<boolean>) {
	for (let waited = 0; waited < 15_000 && !(await check()); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
}

async function statusOf(messageId: string) {
	return testDb().selectFrom('messages').select(['status', 'error']).where('id', '=', messageId).executeTakeFirstOrThrow()
}

describe('sending a reply', () => {
	test('the send-message job delivers it through the link provider: sent, announced to members and to the visitor', async () => {
		const channel = await createLinkChannel(team.workspace.id)
		const { conversation } = await customerWrites(channel, 'to-deliver', 'Hi')
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Hello from us' })
		const published: Published[] = []
		const jobs = await runner(published)
		try {
			await until(async () => (await statusOf(reply.id)).status !== 'pending')
		} finally {
			await jobs.stop()
		}
		expect(await statusOf(reply.id)).toEqual({ status: 'sent', error: null })
		const data = { workspaceId: team.workspace.id, conversationId: conversation.id, number: conversation.number, messageId: reply.id }
		// Members hear the message as the thread shows it, numbered; the visitor its ids.
		const told = about(published, conversation.id)
		expect(told).toHaveLength(2)
		expect(told).toContainEqual({ channel: `private-visitor-${conversation.id}`, event: 'message.updated', data })
		expect(told).toContainEqual({
			channel: `private-workspace-${team.workspace.id}`,
			event: 'message.updated',
			data: { ...data, seq: expect.any(Number), message: expect.objectContaining({ id: reply.id, status: 'sent', body: 'Hello from us' }) },
		})
		const thread = await api.request('GET', conversationsPath(team.workspace.id, `/${conversation.number}/messages`), { headers: team.agent.auth })
		expect((thread.body as { messages: MessageJson[] }).messages.at(-1)).toMatchObject({ id: reply.id, status: 'sent' })
	})

	test('a contact without an identity on the channel fails the message with a detail; a delivery already done is not repeated', async () => {
		const instagram = await testDb()
			.insertInto('channels')
			.values({ workspaceId: team.workspace.id, kind: 'instagram', name: 'Instagram' })
			.returningAll()
			.executeTakeFirstOrThrow()
		const { conversation } = await customerWrites(instagram, '17841400000000', 'Salam')
		// Their identity on the channel is gone (the contact was merged away): nobody to send to.
		await testDb().updateTable('conversations').set({ identityId: null }).where('id', '=', conversation.id).execute()
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Wa alaykum' })
		const published: Published[] = []
		await deliverMessage(testDb(), recordingRealtime(published), defaultProviderConfig, reply.id)
		expect(await statusOf(reply.id)).toEqual({ status: 'failed', error: 'The contact has no identity on this channel.' })
		expect(published.map((entry) => entry.event)).toEqual(['message.updated', 'message.updated'])
		await deliverMessage(testDb(), recordingRealtime(published), defaultProviderConfig, reply.id)
		expect(published).toHaveLength(2)
	})
})

describe('a snoozed conversation', () => {
	test('reopens by itself when its time comes, even when the job runner restarted in between', async () => {
		const channel = await createLinkChannel(team.workspace.id)
		const { conversation } = await customerWrites(channel, 'sleepy', 'Remind me')
		const snoozed = await api.request('PATCH', conversationsPath(team.workspace.id, `/${conversation.number}`), {
			body: { status: 'snoozed', snoozedUntil: new Date(Date.now() + 1500).toISOString() },
			headers: team.agent.auth,
		})
		expect(snoozed.status).toBe(200)
		const published: Published[] = []
		const first = await runner(published)
		await first.stop()
		expect((await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).status).toBe('snoozed')

		const second = await runner(published)
		try {
			await until(async () => (await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).status === 'open')
		} finally {
			await second.stop()
		}
		expect(await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).toMatchObject({ status: 'open', snoozedUntil: null })
		const lines = await testDb()
			.selectFrom('messages')
			.select('activity')
			.where('conversationId', '=', conversation.id)
			.where('kind', '=', 'activity')
			.orderBy('id')
			.execute()
		expect(lines.at(-1)?.activity).toEqual({ key: 'activity.snoozeEnded', values: {} })
		expect(about(published, conversation.id).map((entry) => entry.event)).toEqual(['conversation.updated', 'message.created'])
		const tabs = await api.request('GET', conversationsPath(team.workspace.id, '?status=snoozed'), { headers: team.agent.auth })
		expect((tabs.body as { conversations: unknown[] }).conversations).toEqual([])
	})

	test('a stale wake-up does nothing: snoozed again until later, or already reopened', async () => {
		const channel = await createLinkChannel(team.workspace.id)
		const { conversation } = await customerWrites(channel, 'stale', 'Later')
		const later = new Date(Date.now() + 60 * 60 * 1000).toISOString()
		await api.request('PATCH', conversationsPath(team.workspace.id, `/${conversation.number}`), {
			body: { status: 'snoozed', snoozedUntil: later },
			headers: team.agent.auth,
		})
		const published: Published[] = []
		await wakeSnoozed(testDb(), recordingRealtime(published), conversation.id)
		expect(await getConversation(api, team.agent.auth, team.workspace.id, conversation.number)).toMatchObject({ status: 'snoozed', snoozedUntil: later })

		await customerWrites(channel, 'stale', 'Actually now')
		await wakeSnoozed(testDb(), recordingRealtime(published), conversation.id)
		expect(published).toEqual([])
		// The job of the old snooze, if it ran anyway, finds an open conversation.
		await testDb()
			.transaction()
			.execute((trx) => addJob(trx, 'wake-snoozed', { conversationId: conversation.id }, { key: wakeJobKey(conversation.id) }))
		const jobs = await runner(published)
		try {
			await until(async () => (await pendingWakeUps(conversation.id)) === 0)
		} finally {
			await jobs.stop()
		}
		expect(await pendingWakeUps(conversation.id)).toBe(0)
		expect(about(published, conversation.id)).toEqual([])
		const lines = await testDb()
			.selectFrom('messages')
			.select('activity')
			.where('conversationId', '=', conversation.id)
			.where('kind', '=', 'activity')
			.execute()
		expect(lines.map((line) => line.activity?.key)).toEqual(['activity.snoozed', 'activity.reopenedByCustomer'])
	})
})
