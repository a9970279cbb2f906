import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type NotificationJson, type NotificationPage } from '#common/notifications.ts'
import { startScheduledCampaign } from '#api/campaigns/sending.ts'
import { prune } from '#api/jobs/prune.ts'
import { notifyCampaignEnded, notifyChannelDisconnected } from '#api/notifications/triggers.ts'
import { notifyWaiting } from '#api/notifications/waiting.ts'
import { silentRealtime } from '#api/realtime/publisher.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { conversationsPath, createLinkChannel, customerWrites, postMessage } from './conversations-fixtures.ts'
import { createTeam, type Team, type TestUser } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

const base = (workspaceId: string) => `/v1/workspaces/${workspaceId}`

async function listOf(user: TestUser, workspaceId: string, query = ''): Promise<NotificationPage> {
	const response = await api.request('GET', `${base(workspaceId)}/notifications${query}`, { headers: user.auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as NotificationPage
}

async function assign(team: Team, by: TestUser, number: number, to: TestUser) {
	const response = await api.request('PATCH', conversationsPath(team.workspace.id, `/${number}`), { body: { assigneeId: to.user.id }, headers: by.auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
}

/** A conversation of the team's link channel, written by a customer named `name`. */
async function conversationOf(team: Team, name: string) {
	const channel = await createLinkChannel(team.workspace.id)
	const { conversation } = await customerWrites(channel, name.toLowerCase(), 'Hello', { name })
	return { channel, conversation }
}

describe('what a member is notified of', () => {
	test('a conversation assigned to them by someone else, with who did it and the customer; not what they took themselves', async () => {
		const team = await createTeam('Assigned notifications')
		const { conversation } = await conversationOf(team, 'Nadia')
		await assign(team, team.agent, conversation.number, team.otherAgent)
		const page = await listOf(team.otherAgent, team.workspace.id)
		expect(page.unread).toBe(1)
		expect(page.notifications).toEqual([
			expect.objectContaining({
				kind: 'assigned',
				conversationNumber: conversation.number,
				values: { number: conversation.number, contact: 'Nadia', actor: team.agent.user.name },
				readAt: null,
			}),
		])
		await assign(team, team.agent, conversation.number, team.agent)
		expect((await listOf(team.agent, team.workspace.id)).notifications).toEqual([])
	})

	test('a mention in a private note, with its words; the customer’s new messages of their conversation, gathered into one until read', async () => {
		const team = await createTeam('Mentions and messages')
		const { channel, conversation } = await conversationOf(team, 'Omar')
		await assign(team, team.owner, conversation.number, team.agent)
		await postMessage(api, team.owner.auth, team.workspace.id, conversation.number, { kind: 'note', body: `@${team.otherAgent.user.name} please look` })
		const mentioned = await listOf(team.otherAgent, team.workspace.id)
		expect(mentioned.notifications).toEqual([
			expect.objectContaining({
				kind: 'mentioned',
				values: expect.objectContaining({ actor: team.owner.user.name, excerpt: `@${team.otherAgent.user.name} please look` }),
			}),
		])

		await customerWrites(channel, 'omar', 'Are you there?', { name: 'Omar' })
		await customerWrites(channel, 'omar', 'Hello??', { name: 'Omar' })
		let page = await listOf(team.agent, team.workspace.id)
		const messages = page.notifications.filter((entry) => entry.kind === 'message')
		expect(messages).toEqual([expect.objectContaining({ values: expect.objectContaining({ count: 2, excerpt: 'Hello??', contact: 'Omar' }) })])
		expect(page.unread).toBe(2)

		// Read, then a third: a new one of its own.
		const read = await api.request('POST', `${base(team.workspace.id)}/notifications/read`, { body: { ids: [messages[0]!.id] }, headers: team.agent.auth })
		expect(read.body).toEqual({ unread: 1 })
		await customerWrites(channel, 'omar', 'Third', { name: 'Omar' })
		page = await listOf(team.agent, team.workspace.id)
		expect(page.notifications.filter((entry) => entry.kind === 'message').map((entry) => [entry.values.count, entry.readAt === null])).toEqual([
			[1, true],
			[2, false],
		])
	})

	test('a muted conversation notifies nobody', async () => {
		const team = await createTeam('Muted notifications')
		const { channel, conversation } = await conversationOf(team, 'Quiet')
		await assign(team, team.owner, conversation.number, team.agent)
		await testDb().updateTable('conversations').set({ mutedAt: new Date() }).where('id', '=', conversation.id).execute()
		await customerWrites(channel, 'quiet', 'Anyone?', { name: 'Quiet' })
		await assign(team, team.owner, conversation.number, team.otherAgent)
		expect((await listOf(team.agent, team.workspace.id)).notifications.map((entry) => entry.kind)).toEqual(['assigned'])
		expect((await listOf(team.otherAgent, team.workspace.id)).notifications).toEqual([])
	})

	test('a wait in a team’s queue past the team’s threshold tells its members once per stay; a customer waiting for a reply tells the assignee once per message', async () => {
		const team = await createTeam('Waiting notifications')
		const db = testDb()
		const { channel, conversation } = await conversationOf(team, 'Waiting')
		const queue = await db
			.insertInto('teams')
			.values({ workspaceId: team.workspace.id, name: 'Front desk', notifyAfter: 10 })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db
			.insertInto('teamMembers')
			.values([team.agent, team.otherAgent].map((member) => ({ workspaceId: team.workspace.id, teamId: queue.id, userId: member.user.id })))
			.execute()
		await db
			.updateTable('conversations')
			.set({ teamId: queue.id, assigneeId: null, queuedAt: sql<Date>`now() - interval '9 minutes'` })
			.where('id', '=', conversation.id)
			.execute()
		expect(await notifyWaiting(db)).toEqual([])
		await db
			.updateTable('conversations')
			.set({ queuedAt: sql<Date>`now() - interval '12 minutes'` })
			.where('id', '=', conversation.id)
			.execute()
		expect(await notifyWaiting(db)).toHaveLength(2)
		expect(await notifyWaiting(db)).toEqual([])
		for (const member of [team.agent, team.otherAgent])
			expect((await listOf(member, team.workspace.id)).notifications).toEqual([
				expect.objectContaining({
					kind: 'queueWaiting',
					conversationNumber: conversation.number,
					values: expect.objectContaining({ team: 'Front desk', minutes: 12 }),
				}),
			])
		expect((await listOf(team.owner, team.workspace.id)).notifications).toEqual([])

		// Assigned, the customer writes and waits past the workspace's 15 minutes.
		await assign(team, team.owner, conversation.number, team.agent)
		await customerWrites(channel, 'waiting', 'Still there?', { name: 'Waiting' })
		await db
			.updateTable('conversations')
			.set({ lastActivityAt: sql<Date>`now() - interval '16 minutes'` })
			.where('id', '=', conversation.id)
			.execute()
		expect(await notifyWaiting(db)).toHaveLength(1)
		expect(await notifyWaiting(db)).toEqual([])
		expect((await listOf(team.agent, team.workspace.id)).notifications[0]).toMatchObject({ kind: 'replyWaiting', values: { minutes: 16, contact: 'Waiting' } })
		// Answered: nothing waits.
		await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Yes!' })
		await db
			.updateTable('conversations')
			.set({ lastActivityAt: sql<Date>`now() - interval '20 minutes'` })
			.where('id', '=', conversation.id)
			.execute()
		expect(await notifyWaiting(db)).toEqual([])
	})

	test('a campaign that ended tells who started it, once; a disconnected channel tells owners and admins once per failing stretch', async () => {
		const team = await createTeam('Campaign and channel notifications')
		const db = testDb()
		const { channel } = await conversationOf(team, 'Reader')
		const campaign = await db
			.insertInto('campaigns')
			.values({ workspaceId: team.workspace.id, channelId: channel.id, name: 'Spring sale', body: 'Hi', status: 'completed', createdBy: team.agent.user.id })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db.transaction().execute(async (trx) => {
			expect(await notifyCampaignEnded(trx, campaign.id)).toHaveLength(1)
			expect(await notifyCampaignEnded(trx, campaign.id)).toEqual([])
		})
		expect((await listOf(team.agent, team.workspace.id)).notifications).toEqual([
			expect.objectContaining({ kind: 'campaignDone', campaignId: campaign.id, values: { campaign: 'Spring sale', sent: 0, failed: 0 } }),
		])

		// A scheduled campaign that finds nobody at its time ends at once, with nobody watching: its author is told too.
		const nobody = await db
			.insertInto('campaigns')
			.values({
				workspaceId: team.workspace.id,
				channelId: channel.id,
				name: 'Nobody yet',
				body: 'Hi',
				status: 'scheduled',
				labelsIn: [crypto.randomUUID()],
				createdBy: team.agent.user.id,
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await startScheduledCampaign(db, silentRealtime, nobody.id)
		expect(await db.selectFrom('campaigns').select(['status', 'recipientCount']).where('id', '=', nobody.id).executeTakeFirst()).toEqual({
			status: 'completed',
			recipientCount: 0,
		})
		expect((await listOf(team.agent, team.workspace.id)).notifications[0]).toEqual(
			expect.objectContaining({ kind: 'campaignDone', campaignId: nobody.id, values: { campaign: 'Nobody yet', sent: 0, failed: 0 } }),
		)

		await db
			.updateTable('channels')
			.set({ status: 'error', failingSince: sql<Date>`now()` })
			.where('id', '=', channel.id)
			.execute()
		await db.transaction().execute(async (trx) => {
			expect(await notifyChannelDisconnected(trx, channel.id)).toHaveLength(2)
			expect(await notifyChannelDisconnected(trx, channel.id)).toEqual([])
		})
		for (const manager of [team.owner, team.admin])
			expect((await listOf(manager, team.workspace.id)).notifications).toEqual([
				expect.objectContaining({ kind: 'channelDisconnected', channelId: channel.id, values: { channel: channel.name } }),
			])
		expect((await listOf(team.otherAgent, team.workspace.id)).notifications).toEqual([])
	})
})

describe('preferences', () => {
	test('the defaults, a change that sticks, off in the app keeps the row for the mail only, off everywhere writes nothing; bad input is a translated 400', async () => {
		const team = await createTeam('Notification preferences')
		const path = `${base(team.workspace.id)}/notification-preferences`
		const agentDefaults = await api.request('GET', path, { headers: team.agent.auth })
		expect(agentDefaults.body).toMatchObject({
			sound: false,
			preferences: { assigned: { app: true, email: true, push: true }, message: { app: true, email: false, push: true } },
		})
		expect((agentDefaults.body as { kinds: string[] }).kinds).not.toContain('channelDisconnected')
		expect(((await api.request('GET', path, { headers: team.admin.auth })).body as { kinds: string[] }).kinds).toContain('channelDisconnected')

		const changed = await api.request('PUT', path, { body: { preferences: { message: { app: false, email: true } }, sound: true }, headers: team.agent.auth })
		expect(changed.body).toMatchObject({ sound: true, preferences: { message: { app: false, email: true, push: true } } })
		// Only what differs from the defaults is kept.
		expect(
			await testDb().selectFrom('notificationPreferences').select(['kind', 'medium', 'enabled']).where('userId', '=', team.agent.user.id).execute(),
		).toEqual(
			expect.arrayContaining([
				{ kind: 'message', medium: 'app', enabled: false },
				{ kind: 'message', medium: 'email', enabled: true },
			]),
		)

		const { channel, conversation } = await conversationOf(team, 'Pref')
		await assign(team, team.owner, conversation.number, team.agent)
		await customerWrites(channel, 'pref', 'New one', { name: 'Pref' })
		const page = await listOf(team.agent, team.workspace.id)
		expect(page.notifications.map((entry) => entry.kind)).toEqual(['assigned'])
		const rows = await testDb().selectFrom('notifications').select(['kind', 'inApp']).where('userId', '=', team.agent.user.id).orderBy('id').execute()
		expect(rows).toEqual([
			{ kind: 'assigned', inApp: true },
			{ kind: 'message', inApp: false },
		])

		await api.request('PUT', path, { body: { preferences: { message: { email: false, push: false } } }, headers: team.agent.auth })
		await customerWrites(channel, 'pref', 'Another', { name: 'Pref' })
		expect(await testDb().selectFrom('notifications').select('id').where('userId', '=', team.agent.user.id).execute()).toHaveLength(2)

		for (const body of [{ preferences: { nope: { app: true } } }, { preferences: { message: { app: 'yes' } } }, { sound: 1 }, { extra: true }]) {
			const refused = await api.request('PUT', path, { body, headers: { ...team.agent.auth, 'Accept-Language': 'fr' } })
			expect(refused.status, JSON.stringify(body)).toBe(400)
			expect((refused.body as { message: string }).message).not.toMatch(/^[a-z]+[.:]/)
		}
	})
})

describe('thresholds', () => {
	test('a team’s wait and the workspace’s reply wait are minutes from 1 to 1440, set by owners and admins', async () => {
		const team = await createTeam('Notification thresholds')
		const created = await api.request('POST', `${base(team.workspace.id)}/teams`, { body: { name: 'Desk' }, headers: team.admin.auth })
		expect(created.body).toMatchObject({ notifyAfter: 10 })
		const teamPath = `${base(team.workspace.id)}/teams/${(created.body as { id: string }).id}`
		expect((await api.request('PATCH', teamPath, { body: { notifyAfter: 25 }, headers: team.admin.auth })).body).toMatchObject({ notifyAfter: 25 })
		for (const notifyAfter of [0, 1441, 2.5, '5']) {
			const refused = await api.request('PATCH', teamPath, { body: { notifyAfter }, headers: { ...team.admin.auth, 'Accept-Language': 'fr' } })
			expect(refused.status, String(notifyAfter)).toBe(400)
		}
		const workspacePath = base(team.workspace.id)
		expect((await api.request('PATCH', workspacePath, { body: { replyWaitingAfter: 30 }, headers: team.owner.auth })).body).toMatchObject({
			replyWaitingAfter: 30,
		})
		const refused = await api.request('PATCH', workspacePath, { body: { replyWaitingAfter: 0 }, headers: { ...team.owner.auth, 'Accept-Language': 'ar' } })
		expect(refused.status).toBe(400)
		expect(JSON.stringify(refused.body)).toContain('أدخل عددًا صحيحًا من الدقائق')
		expect((await api.request('PATCH', workspacePath, { body: { replyWaitingAfter: 5 }, headers: team.agent.auth })).status).toBe(403)
	})
})

describe('the list and reading', () => {
	test('pages of 30 newest first, read by id, by conversation and all; bad queries are 400', async () => {
		const team = await createTeam('Notification pages')
		const { conversation } = await conversationOf(team, 'Paged')
		const db = testDb()
		await db
			.insertInto('notifications')
			.values(
				Array.from({ length: 34 }, (_, index) => ({
					workspaceId: team.workspace.id,
					userId: team.agent.user.id,
					kind: 'mentioned' as const,
					conversationId: index < 4 ? conversation.id : null,
					values: { number: index },
				})),
			)
			.execute()
		const first = await listOf(team.agent, team.workspace.id)
		expect(first.notifications).toHaveLength(30)
		expect(first.unread).toBe(34)
		expect(first.notifications[0]!.values.number).toBe(33)
		const second = await listOf(team.agent, team.workspace.id, `?cursor=${first.nextCursor}`)
		expect(second.notifications.map((entry) => entry.values.number)).toEqual([3, 2, 1, 0])
		expect(second.nextCursor).toBeNull()

		const read = await api.request('POST', `${base(team.workspace.id)}/notifications/read`, {
			body: { conversationNumber: conversation.number },
			headers: team.agent.auth,
		})
		expect(read.body).toEqual({ unread: 30 })
		const all = await api.request('POST', `${base(team.workspace.id)}/notifications/read-all`, { headers: team.agent.auth })
		expect(all.body).toEqual({ unread: 0 })

		for (const query of ['?limit=0', '?limit=51', '?cursor=abc', '?cursor=-1']) {
			expect((await api.request('GET', `${base(team.workspace.id)}/notifications${query}`, { headers: team.agent.auth })).status, query).toBe(400)
		}
		for (const body of [{}, { ids: [] }, { ids: ['x'] }, { conversationNumber: 0 }, { ids: ['1'], conversationNumber: 1 }]) {
			const refused = await api.request('POST', `${base(team.workspace.id)}/notifications/read`, { body, headers: team.agent.auth })
			expect(refused.status, JSON.stringify(body)).toBe(400)
		}
	})

	test('each workspace’s own: a member of two sees each one’s there, nobody reads or marks another’s', async () => {
		const team = await createTeam('Notification boundary')
		const db = testDb()
		// The agent joins the outsider's workspace too.
		await db.insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.agent.user.id, role: 'agent' }).execute()
		const here = await conversationOf(team, 'Here')
		const elsewhere = await customerWrites(await createLinkChannel(team.elsewhere.id), 'there', 'Hi', { name: 'There' })
		await assign(team, team.owner, here.conversation.number, team.agent)
		const otherAssign = await api.request('PATCH', conversationsPath(team.elsewhere.id, `/${elsewhere.conversation.number}`), {
			body: { assigneeId: team.agent.user.id },
			headers: team.outsider.auth,
		})
		expect(otherAssign.status).toBe(200)

		const inHere = await listOf(team.agent, team.workspace.id)
		const inElsewhere = await listOf(team.agent, team.elsewhere.id)
		expect(inHere.notifications.map((entry) => entry.values.contact)).toEqual(['Here'])
		expect(inElsewhere.notifications.map((entry) => entry.values.contact)).toEqual(['There'])

		// One of theirs, whichever workspace it is of; another's is a 404.
		const mine = inElsewhere.notifications[0] as NotificationJson
		const found = await api.request('GET', `/v1/notifications/${mine.id}`, { headers: team.agent.auth })
		expect(found.body).toEqual({ workspaceId: team.elsewhere.id, notification: mine })
		const refused = await api.request('GET', `/v1/notifications/${mine.id}`, { headers: { ...team.outsider.auth, 'Accept-Language': 'ar' } })
		expect(refused.status).toBe(404)
		expect((refused.body as { message: string }).message).toBe('هذا الإشعار غير موجود أو ليس لك.')
		// Marking another workspace's id from here changes nothing.
		await api.request('POST', `${base(team.workspace.id)}/notifications/read`, { body: { ids: [mine.id] }, headers: team.agent.auth })
		expect((await listOf(team.agent, team.elsewhere.id)).unread).toBe(1)
		// Leaving a workspace takes its notifications along.
		await db.deleteFrom('members').where('workspaceId', '=', team.elsewhere.id).where('userId', '=', team.agent.user.id).execute()
		expect(await db.selectFrom('notifications').select('id').where('id', '=', mine.id).execute()).toEqual([])
	})

	test('the unread count stops at 100 (the bell says 99+)', async () => {
		const team = await createTeam('Notification count')
		const many = Array.from({ length: 120 }, () => ({ workspaceId: team.workspace.id, userId: team.agent.user.id, kind: 'assigned' as const, values: {} }))
		await testDb().insertInto('notifications').values(many).execute()
		expect((await listOf(team.agent, team.workspace.id, '?limit=1')).unread).toBe(100)
	})

	test('kept 90 days, then pruned', async () => {
		const team = await createTeam('Notification pruning')
		const db = testDb()
		const at = (days: number) => sql<Date>`now() - make_interval(days => ${days})`
		const [old, kept] = await Promise.all(
			[91, 89].map((days) =>
				db
					.insertInto('notifications')
					.values({ workspaceId: team.workspace.id, userId: team.agent.user.id, kind: 'assigned', values: {}, createdAt: at(days) as never })
					.returning('id')
					.executeTakeFirstOrThrow(),
			),
		)
		expect((await prune(db)).notifications).toBeGreaterThanOrEqual(1)
		const left = await db.selectFrom('notifications').select('id').where('id', 'in', [old!.id, kept!.id]).execute()
		expect(left.map((row) => row.id)).toEqual([kept!.id])
	})
})
