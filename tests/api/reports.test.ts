import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Channel } from '#api/db/schema.ts'
import { type ReportJson } from '#api/reports/json.ts'
import { every, rebuildReports, refreshReports } from '#api/reports/rollup.ts'
import { resolveRange } from '#api/reports/queries.ts'
import { durationBounds, bucketCount, quantile } from '#api/reports/buckets.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createLabel, insertContacts } from './contacts-fixtures.ts'
import { createLinkChannel, customerWrites, postMessage } from './conversations-fixtures.ts'
import { recount, storedDays } from './reports-recount.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

const reportsPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/reports${rest}`

/** The roll-up rows of one team, one channel and one agent (not their sums over every team, channel or agent). */
const detailed = async (workspaceId: string) =>
	(await storedDays(workspaceId)).filter((row) => row.teamId !== every && row.channelId !== every && row.agentId !== every)

let api: TestApi
let team: Team
let channel: Channel
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Reports')
	channel = await createLinkChannel(team.workspace.id)
})
afterAll(() => api.close())

async function report(query = '', auth = team.owner.auth, workspaceId = team.workspace.id): Promise<ReportJson> {
	const response = await api.request('GET', reportsPath(workspaceId, query), { headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as ReportJson
}

// Facts written straight into the database, at chosen times (the API writes only "now").
let number = 1_000_000
async function insertContact(workspaceId: string, createdAt = new Date()) {
	const [contact] = await insertContacts(workspaceId, [{ name: `Customer ${number}`, createdAt }])
	return contact!
}
async function insertConversation(workspaceId: string, channelId: string, createdAt: Date, assigneeId: string | null = null) {
	const contact = await insertContact(workspaceId, createdAt)
	return testDb()
		.insertInto('conversations')
		.values({ workspaceId, number: number++, contactId: contact.id, channelId, assigneeId, createdAt, lastActivityAt: createdAt })
		.returningAll()
		.executeTakeFirstOrThrow()
}
async function insertMessage(
	conversation: { id: string; workspaceId: string; channelId: string },
	message: { direction: 'incoming' | 'outgoing'; kind: 'text' | 'note' | 'activity'; senderId?: string | null; at: Date; resolved?: boolean },
) {
	await testDb()
		.insertInto('messages')
		.values({
			workspaceId: conversation.workspaceId,
			conversationId: conversation.id,
			channelId: conversation.channelId,
			direction: message.direction,
			kind: message.kind,
			body: message.kind === 'activity' ? '' : 'Hello',
			activity: message.kind === 'activity' ? { key: message.resolved ? 'activity.resolved' : 'activity.pending', values: { actor: 'Someone' } } : null,
			senderId: message.senderId ?? null,
			createdAt: message.at,
		})
		.execute()
	await testDb()
		.updateTable('conversations')
		.set({ lastActivityAt: sql<Date>`greatest(last_activity_at, ${message.at})` })
		.where('id', '=', conversation.id)
		.execute()
}

async function insertTeam(workspaceId: string, name: string) {
	return testDb().insertInto('teams').values({ workspaceId, name }).returningAll().executeTakeFirstOrThrow()
}

/** The median or 90th percentile the roll-ups' histogram gives for these durations (api/reports/buckets.ts). */
function histogramQuantile(seconds: number[], q: number) {
	const buckets = new Array<number>(bucketCount).fill(0)
	for (const value of seconds) buckets[durationBounds.filter((bound) => bound <= value).length]!++
	return quantile(buckets, q)
}

describe('roll-ups', () => {
	test('equal a recount after any sequence of changes, refreshed along the way or at the end (fast-check)', async () => {
		const db = testDb()
		const property = fc.asyncProperty(
			fc.array(
				// Weighted so that most steps change what is already there, with refreshes between them.
				fc.oneof(
					{
						weight: 3,
						arbitrary: fc.record({
							op: fc.constant('conversation' as const),
							minute: fc.integer({ min: 0, max: 3 * 24 * 60 }),
							channel: fc.nat(1),
							agent: fc.nat(2),
						}),
					},
					{
						weight: 4,
						arbitrary: fc.record({
							op: fc.constant('message' as const),
							conversation: fc.nat(),
							after: fc.integer({ min: 0, max: 36 * 60 }),
							kind: fc.constantFrom('in', 'out', 'note', 'resolved', 'pending'),
							agent: fc.nat(2),
						}),
					},
					{ weight: 2, arbitrary: fc.record({ op: fc.constant('assign' as const), conversation: fc.nat(), agent: fc.nat(2) }) },
					{
						weight: 2,
						arbitrary: fc.record({ op: fc.constant('answer' as const), conversation: fc.nat(), after: fc.integer({ min: 0, max: 2 * 24 * 60 * 60 }) }),
					},
					{ weight: 2, arbitrary: fc.record({ op: fc.constant('label' as const), conversation: fc.nat(), label: fc.nat(1), add: fc.boolean() }) },
					{ weight: 1, arbitrary: fc.record({ op: fc.constant('team' as const), conversation: fc.nat(), team: fc.nat(2) }) },
					{ weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), conversation: fc.nat() }) },
					{ weight: 1, arbitrary: fc.record({ op: fc.constant('contact' as const), minute: fc.integer({ min: 0, max: 3 * 24 * 60 }) }) },
					{
						weight: 1,
						arbitrary: fc.record({
							op: fc.constant('backdate' as const),
							conversation: fc.nat(),
							minutes: fc.integer({ min: 1, max: 24 * 60 }),
							whole: fc.boolean(),
						}),
					},
					{
						weight: 1,
						arbitrary: fc.record({ op: fc.constant('timezone' as const), zone: fc.constantFrom('UTC', 'Africa/Cairo', 'Asia/Tokyo', 'America/Los_Angeles') }),
					},
					{
						weight: 1,
						// Whose hours change (the workspace's, or a channel's own), and to which schedule.
						arbitrary: fc.record({ op: fc.constant('hours' as const), of: fc.nat(2), schedule: fc.nat(2) }),
					},
					{ weight: 3, arbitrary: fc.record({ op: fc.constant('refresh' as const) }) },
				),
				{ minLength: 5, maxLength: 40 },
			),
			async (commands) => {
				// A workspace of its own per run: two channels, two agents (and nobody), two labels, two teams (and none).
				const run = await createTeam('Property')
				const workspaceId = run.workspace.id
				const channels = [await createLinkChannel(workspaceId, 'One'), await createLinkChannel(workspaceId, 'Two')]
				const agents = [null, run.agent.user.id, run.otherAgent.user.id]
				const labels = [
					await createLabel(api, run.owner.auth, workspaceId, { title: 'Billing' }),
					await createLabel(api, run.owner.auth, workspaceId, { title: 'Bug' }),
				]
				const teams = [null, (await insertTeam(workspaceId, 'Billing')).id, (await insertTeam(workspaceId, 'Sales')).id]
				// Three days back from now, in minutes: every run crosses midnights in every zone.
				const start = Date.now() - 3 * 24 * 60 * 60 * 1000
				const conversations: Array<{ id: string; workspaceId: string; channelId: string; createdAt: Date }> = []
				// None (always open), weekdays with yesterday a holiday, and two ranges every day, the second to midnight.
				const schedules = [
					null,
					{
						days: [0, 1, 2, 3, 4, 5, 6].map((day) => (day < 5 ? [{ from: '09:00', to: '17:00' }] : [])),
						holidays: [new Date(start + 2 * 86_400_000).toISOString().slice(0, 10)],
					},
					{
						days: new Array(7).fill([
							{ from: '08:00', to: '12:00' },
							{ from: '13:30', to: '24:00' },
						]),
						holidays: [],
					},
				]
				const pick = (index: number) => conversations[index % Math.max(1, conversations.length)]
				for (const command of commands) {
					switch (command.op) {
						case 'conversation':
							conversations.push(
								await insertConversation(workspaceId, channels[command.channel]!.id, new Date(start + command.minute * 60_000), agents[command.agent]),
							)
							break
						case 'message': {
							const conversation = pick(command.conversation)
							if (!conversation) break
							const at = new Date(Math.min(Date.now(), conversation.createdAt.getTime() + command.after * 60_000))
							const agent = agents[command.agent] ?? null
							if (command.kind === 'in') await insertMessage(conversation, { direction: 'incoming', kind: 'text', at })
							else if (command.kind === 'out') await insertMessage(conversation, { direction: 'outgoing', kind: 'text', senderId: agent, at })
							else if (command.kind === 'note') await insertMessage(conversation, { direction: 'outgoing', kind: 'note', senderId: agent, at })
							else await insertMessage(conversation, { direction: 'outgoing', kind: 'activity', senderId: agent, at, resolved: command.kind === 'resolved' })
							break
						}
						case 'assign': {
							const conversation = pick(command.conversation)
							if (conversation)
								await db
									.updateTable('conversations')
									.set({ assigneeId: agents[command.agent] ?? null })
									.where('id', '=', conversation.id)
									.execute()
							break
						}
						case 'answer': {
							const conversation = pick(command.conversation)
							if (!conversation) break
							const at = new Date(Math.min(Date.now(), conversation.createdAt.getTime() + command.after * 1000))
							await db
								.updateTable('conversations')
								.set({ firstResponseAt: at, lastActivityAt: sql<Date>`greatest(last_activity_at, ${at})` })
								.where('id', '=', conversation.id)
								.execute()
							break
						}
						case 'label': {
							const conversation = pick(command.conversation)
							if (!conversation) break
							const labelId = labels[command.label]!.id
							if (command.add)
								await db
									.insertInto('conversationLabels')
									.values({ workspaceId, conversationId: conversation.id, labelId })
									.onConflict((oc) => oc.doNothing())
									.execute()
							else await db.deleteFrom('conversationLabels').where('conversationId', '=', conversation.id).where('labelId', '=', labelId).execute()
							break
						}
						case 'team': {
							// A conversation moved to another team takes its past with it (its current team counts).
							const conversation = pick(command.conversation)
							if (conversation)
								await db
									.updateTable('conversations')
									.set({ teamId: teams[command.team] ?? null })
									.where('id', '=', conversation.id)
									.execute()
							break
						}
						case 'delete': {
							const conversation = pick(command.conversation)
							if (!conversation) break
							await db.deleteFrom('conversations').where('id', '=', conversation.id).execute()
							conversations.splice(conversations.indexOf(conversation), 1)
							break
						}
						case 'contact':
							await insertContact(workspaceId, new Date(start + command.minute * 60_000))
							break
						case 'backdate': {
							// As the demo seed does: a thread's messages, its start and its contact moved back in time.
							const conversation = pick(command.conversation)
							if (!conversation) break
							const by = sql`${command.minutes} * interval '1 minute'`
							await sql`update messages set created_at = created_at - ${by} where conversation_id = ${conversation.id}`.execute(db)
							if (!command.whole) break
							await sql`update conversations set created_at = created_at - ${by} where id = ${conversation.id}`.execute(db)
							await sql`update contacts set created_at = created_at - ${by} where id = (select contact_id from conversations where id = ${conversation.id})`.execute(
								db,
							)
							conversation.createdAt = new Date(conversation.createdAt.getTime() - command.minutes * 60_000)
							break
						}
						case 'timezone':
							await db.updateTable('workspaces').set({ timezone: command.zone }).where('id', '=', workspaceId).execute()
							break
						case 'hours': {
							const businessHours = schedules[command.schedule] ?? null
							if (command.of === 0) await db.updateTable('workspaces').set({ businessHours }).where('id', '=', workspaceId).execute()
							else
								await db
									.updateTable('channels')
									.set({ businessHours })
									.where('id', '=', channels[command.of - 1]!.id)
									.execute()
							break
						}
						case 'refresh':
							await refreshReports(db)
							break
					}
				}
				await refreshReports(db)
				expect(await storedDays(workspaceId)).toEqual(await recount(workspaceId))
			},
		)
		await fc.assert(property, { numRuns: 50 })
	}, 240_000)

	test('a conversation at 23:30 in Cairo counts on that day in Cairo, and on the next in Tokyo', async () => {
		const db = testDb()
		const run = await createTeam('Cairo')
		await db.updateTable('workspaces').set({ timezone: 'Africa/Cairo' }).where('id', '=', run.workspace.id).execute()
		const link = await createLinkChannel(run.workspace.id)
		// 2026-03-10 23:30 in Cairo (UTC+2 in March) is 21:30 UTC, and 06:30 on the 11th in Tokyo.
		await insertConversation(run.workspace.id, link.id, new Date('2026-03-10T21:30:00Z'))
		await refreshReports(db)
		const days = async () => (await detailed(run.workspace.id)).filter((row) => row.opened > 0).map((row) => row.day)
		expect(await days()).toEqual(['2026-03-10'])
		await db.updateTable('workspaces').set({ timezone: 'Asia/Tokyo' }).where('id', '=', run.workspace.id).execute()
		await refreshReports(db)
		expect(await days()).toEqual(['2026-03-11'])
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
	})

	test('a message moved back in time leaves its old day and hour for its new ones', async () => {
		const db = testDb()
		const run = await createTeam('Moved')
		const link = await createLinkChannel(run.workspace.id)
		const conversation = await insertConversation(run.workspace.id, link.id, new Date('2026-06-02T10:00:00Z'))
		await insertMessage(conversation, { direction: 'incoming', kind: 'text', at: new Date('2026-06-02T10:05:00Z') })
		await refreshReports(db)
		await sql`update messages set created_at = created_at - interval '1 day 3 hours' where conversation_id = ${conversation.id}`.execute(db)
		await refreshReports(db)
		const rows = (await detailed(run.workspace.id)).filter((row) => row.messagesIn > 0)
		expect(rows.map((row) => [row.day, row.incomingHours.indexOf(1)])).toEqual([['2026-06-01', 7]])
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
	})

	test('a message older than its conversation’s start still moves with the conversation’s later changes (label, assignee)', async () => {
		// Found by the property above (CI, seed 452166461): the label's note covered the conversation from its start only.
		const db = testDb()
		const run = await createTeam('Older message')
		const link = await createLinkChannel(run.workspace.id)
		const label = await createLabel(api, run.owner.auth, run.workspace.id, { title: 'Early' })
		const startedAt = new Date(Date.now() - 2 * 86_400_000)
		const conversation = await insertConversation(run.workspace.id, link.id, startedAt)
		await insertMessage(conversation, { direction: 'incoming', kind: 'text', at: startedAt })
		// Moved back across a midnight, before the conversation began, as the demo's backdating moves a thread's messages.
		await sql`update messages set created_at = created_at - interval '30 hours' where conversation_id = ${conversation.id}`.execute(db)
		await refreshReports(db)
		await db.insertInto('conversationLabels').values({ workspaceId: run.workspace.id, conversationId: conversation.id, labelId: label.id }).execute()
		await refreshReports(db)
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
		await db.updateTable('conversations').set({ assigneeId: run.agent.user.id }).where('id', '=', conversation.id).execute()
		await refreshReports(db)
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
		await db.deleteFrom('conversationLabels').where('conversationId', '=', conversation.id).execute()
		await refreshReports(db)
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
	})

	test('a label added or removed moves the conversation’s past into or out of the label’s rows', async () => {
		const db = testDb()
		const run = await createTeam('Labelled')
		const link = await createLinkChannel(run.workspace.id)
		const label = await createLabel(api, run.owner.auth, run.workspace.id, { title: 'Refunds' })
		const conversation = await insertConversation(run.workspace.id, link.id, new Date(Date.now() - 3 * 86_400_000))
		await insertMessage(conversation, { direction: 'incoming', kind: 'text', at: new Date(Date.now() - 2 * 86_400_000) })
		await refreshReports(db)
		const labelled = async () =>
			(await detailed(run.workspace.id)).filter((row) => row.labelId === label.id).map((row) => [row.day, row.opened, row.messagesIn])
		expect(await labelled()).toEqual([])
		await db.insertInto('conversationLabels').values({ workspaceId: run.workspace.id, conversationId: conversation.id, labelId: label.id }).execute()
		await refreshReports(db)
		expect(await labelled()).toHaveLength(2)
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
		await db.deleteFrom('conversationLabels').where('conversationId', '=', conversation.id).execute()
		await refreshReports(db)
		expect(await labelled()).toEqual([])
	})

	test('the rebuild command recomputes everything, equal to the recount', async () => {
		const db = testDb()
		const run = await createTeam('Rebuild')
		const link = await createLinkChannel(run.workspace.id)
		const conversation = await insertConversation(run.workspace.id, link.id, new Date(Date.now() - 2 * 86_400_000), run.agent.user.id)
		await insertMessage(conversation, { direction: 'incoming', kind: 'text', at: new Date(Date.now() - 2 * 86_400_000 + 60_000) })
		await refreshReports(db)
		// Roll-ups damaged by hand are put right by a rebuild.
		await db.updateTable('reportDays').set({ opened: 99 }).where('workspaceId', '=', run.workspace.id).execute()
		await rebuildReports(db, run.workspace.id)
		expect(await storedDays(run.workspace.id)).toEqual(await recount(run.workspace.id))
	})
})

describe('GET /reports', () => {
	test('reads the roll-ups: figures with the previous period, days, channels, heat map and agents', async () => {
		const db = testDb()
		// Through the product's own paths: a visitor writes, an agent is assigned, answers and resolves.
		const { conversation } = await customerWrites(channel, 'visitor-1', 'Where is my order?')
		await db.updateTable('conversations').set({ assigneeId: team.agent.user.id }).where('id', '=', conversation.id).execute()
		await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'On its way.' })
		const resolved = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/conversations/${conversation.number}`, {
			headers: team.agent.auth,
			body: { status: 'resolved' },
		})
		expect(resolved.status).toBe(200)
		await customerWrites(channel, 'visitor-2', 'Hello?')
		// Yesterday (the workspace is on UTC): the previous period of "today", for the same agent.
		const yesterday = new Date(Date.parse(`${resolveRange('today', 'UTC').previous.from}T12:00:00Z`))
		const earlier = await insertConversation(team.workspace.id, channel.id, yesterday, team.agent.user.id)
		await insertMessage(earlier, { direction: 'incoming', kind: 'text', at: yesterday })
		await refreshReports(db)

		const answer = await report('?preset=today')
		expect(answer.range.from).toBe(answer.range.to)
		expect(answer.previous.to).toBe(resolveRange('today', team.workspace.timezone).previous.to)
		expect(answer.figures.opened).toEqual({ value: 2, previous: 1 })
		expect(answer.figures.messagesIn).toEqual({ value: 2, previous: 1 })
		expect(answer.figures.resolved.value).toBe(1)
		expect(answer.figures.messagesIn.value).toBe(2)
		expect(answer.figures.messagesOut.value).toBe(1)
		expect(answer.figures.openNow).toBe(2)
		expect(answer.figures.firstResponse.count).toBe(1)
		expect(answer.figures.firstResponse.median).toBeLessThan(30)
		expect(answer.figures.answeredWithinTarget.value).toBe(1)
		expect(answer.figures.newContacts.value).toBe(2)
		expect(answer.daily).toHaveLength(1)
		expect(answer.channels).toEqual([expect.objectContaining({ channelId: channel.id, opened: 2, messagesIn: 2, messagesOut: 1, resolved: 1 })])
		expect(answer.heatmap.flat().reduce((a, b) => a + b, 0)).toBe(2)
		const agent = answer.agents.find((row) => row.userId === team.agent.user.id)
		expect(agent).toMatchObject({ assigned: 1, replied: 1, resolved: 1 })
		expect(answer.agents.map((row) => row.userId)).toEqual(expect.arrayContaining([team.owner.user.id, team.admin.user.id, team.otherAgent.user.id]))

		// Filtered by the agent: their conversations only, today's and yesterday's in a week.
		const mine = await report(`?preset=7d&agentId=${team.agent.user.id}`)
		expect(mine.daily).toHaveLength(7)
		expect(mine.figures.opened.value).toBe(2)
		expect(mine.heatmap.flat().reduce((a, b) => a + b, 0)).toBe(2)
		expect(mine.daily.map((row) => row.opened).reduce((a, b) => a + b, 0)).toBe(2)
		expect(mine.agents.map((row) => row.userId)).toEqual([team.agent.user.id])
	})

	test('an agent sees their own work only; asking for a colleague is refused', async () => {
		const own = await report('', team.agent.auth)
		expect(own.filters.agentId).toBe(team.agent.user.id)
		expect(own.agents.map((row) => row.userId)).toEqual([team.agent.user.id])
		const other = await api.request('GET', reportsPath(team.workspace.id, `?agentId=${team.admin.user.id}`), {
			headers: { ...team.agent.auth, 'Accept-Language': 'fr' },
		})
		expect(other.status).toBe(403)
		expect((other.body as { message: string }).message).toMatch(/agents/i)
		for (const auth of [team.owner.auth, team.admin.auth]) expect((await report('', auth)).agents.length).toBeGreaterThan(1)
	})

	test('anonymous is 401, another workspace 404, its ids 422, and nothing of it shows', async () => {
		expect((await api.request('GET', reportsPath(team.workspace.id))).status).toBe(401)
		expect((await api.request('GET', reportsPath(team.workspace.id), { headers: team.outsider.auth })).status).toBe(404)
		const elsewhere = await createLinkChannel(team.elsewhere.id)
		await customerWrites(elsewhere, 'stranger', 'Not yours')
		await refreshReports(testDb())
		const foreignChannel = await api.request('GET', reportsPath(team.workspace.id, `?channelId=${elsewhere.id}`), { headers: team.owner.auth })
		expect(foreignChannel.status).toBe(422)
		const foreignAgent = await api.request('GET', reportsPath(team.workspace.id, `?agentId=${team.outsider.user.id}`), { headers: team.owner.auth })
		expect(foreignAgent.status).toBe(422)
		const answer = await report('?preset=today')
		expect(answer.channels.map((row) => row.channelId)).not.toContain(elsewhere.id)
		expect(answer.agents.map((row) => row.userId)).not.toContain(team.outsider.user.id)
		const theirs = await report('?preset=today', team.outsider.auth, team.elsewhere.id)
		expect(theirs.figures.opened.value).toBe(1)
		expect(theirs.channels.map((row) => row.channelId)).toEqual([elsewhere.id])
	})

	test('refuses bad ranges and targets with translated messages', async () => {
		const bad = async (query: string) => {
			const response = await api.request('GET', reportsPath(team.workspace.id, query), { headers: { ...team.owner.auth, 'Accept-Language': 'ar' } })
			expect(response.status, query).toBe(400)
			const body = response.body as { message: string; details: { fields: Record<string, string[]> } }
			expect(Object.values(body.details.fields).flat().join(' '), query).toMatch(/[\u0600-\u06FF]/)
			return body.details.fields
		}
		expect(Object.keys(await bad('?preset=custom'))).toEqual(['from', 'to'])
		expect(Object.keys(await bad('?preset=custom&from=2026-02-30&to=2026-03-01'))).toEqual(['from'])
		expect(Object.keys(await bad('?preset=custom&from=2026-03-10&to=2026-03-01'))).toEqual(['to'])
		expect(Object.keys(await bad('?preset=custom&from=2025-01-01&to=2026-03-01'))).toEqual(['to'])
		expect(Object.keys(await bad('?target=61'))).toEqual(['target'])
		expect(Object.keys(await bad('?preset=year'))).toEqual(['preset'])
		expect(Object.keys(await bad('?channelId=nope'))).toEqual(['channelId'])
		const custom = await report('?preset=custom&from=2026-01-01&to=2026-01-31')
		expect(custom.daily).toHaveLength(31)
		expect(custom.previous).toEqual({ from: '2025-12-01', to: '2025-12-31' })
	})

	test('gives the range by week too: Monday to Sunday, the first and last weeks cut to the range, each week its days’ sums and its own median', async () => {
		const db = testDb()
		const weeks = await createTeam('Weeks')
		const link = await createLinkChannel(weeks.workspace.id)
		// Wednesday 7 to Tuesday 20 January 2026 (UTC): three weeks, the first from Wednesday, the last until Tuesday.
		const at = (day: string, time = '10:00') => new Date(`${day}T${time}:00Z`)
		const facts: Array<[string, number | null]> = [
			['2026-01-06', 30], // the Tuesday before the range: in its first week, not in the range
			['2026-01-08', 60],
			['2026-01-08', 600],
			['2026-01-11', 6_000],
			['2026-01-12', 120],
			['2026-01-20', null],
		]
		for (const [day, firstResponseSeconds] of facts) {
			const conversation = await insertConversation(weeks.workspace.id, link.id, at(day), weeks.agent.user.id)
			await insertMessage(conversation, { direction: 'incoming', kind: 'text', at: at(day) })
			if (firstResponseSeconds !== null) {
				const answered = new Date(at(day).getTime() + firstResponseSeconds * 1000)
				await db.updateTable('conversations').set({ firstResponseAt: answered }).where('id', '=', conversation.id).execute()
				await insertMessage(conversation, { direction: 'outgoing', kind: 'text', senderId: weeks.agent.user.id, at: answered })
			}
		}
		await refreshReports(db)
		const answer = await report('?preset=custom&from=2026-01-07&to=2026-01-20', weeks.owner.auth, weeks.workspace.id)
		expect(answer.weekly.map(({ from, to }) => [from, to])).toEqual([
			['2026-01-07', '2026-01-11'],
			['2026-01-12', '2026-01-18'],
			['2026-01-19', '2026-01-20'],
		])
		for (const week of answer.weekly) {
			const days = answer.daily.filter((row) => row.day >= week.from && row.day <= week.to)
			for (const key of ['opened', 'resolved', 'messagesIn', 'messagesOut'] as const)
				expect(week[key], `${week.from} ${key}`).toBe(days.reduce((total, row) => total + row[key], 0))
			// The week's median is the one a report of exactly that week gives, not a median of its days' medians.
			const alone = await report(`?preset=custom&from=${week.from}&to=${week.to}`, weeks.owner.auth, weeks.workspace.id)
			expect(week.firstResponseMedian, week.from).toBe(alone.figures.firstResponse.median)
		}
		expect(answer.weekly.map((week) => week.opened)).toEqual([3, 1, 1])
		expect(answer.weekly[2]!.firstResponseMedian).toBeNull()

		const csv = await api.request('GET', reportsPath(weeks.workspace.id, '/export?table=weekly&preset=custom&from=2026-01-07&to=2026-01-20'), {
			headers: weeks.owner.auth,
		})
		expect(csv.status).toBe(200)
		const lines = String(csv.body).trim().split('\r\n')
		expect(lines[0]).toBe('from,to,opened,resolved,messages_in,messages_out,first_response_median_seconds')
		expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
			'2026-01-07,2026-01-11,3',
			'2026-01-12,2026-01-18,1',
			'2026-01-19,2026-01-20,1',
		])
	})

	test('a report kept from the roll-ups is never answered once they changed: by a refresh, before reading, or a rebuild', async () => {
		const db = testDb()
		const kept = await createTeam('Kept')
		const link = await createLinkChannel(kept.workspace.id)
		const opened = async () => (await report('?preset=7d', kept.owner.auth, kept.workspace.id)).figures.opened.value
		const version = async () =>
			(await db.selectFrom('reportVersions').select('version').where('workspaceId', '=', kept.workspace.id).executeTakeFirst())?.version ?? '0'
		expect(await opened()).toBe(0)
		expect(await opened()).toBe(0)
		// The refresh job runs between two reads.
		await insertConversation(kept.workspace.id, link.id, new Date())
		await refreshReports(db)
		expect(await opened()).toBe(1)
		// Nothing refreshed yet: the read refreshes first, and answers from the new roll-ups.
		await insertConversation(kept.workspace.id, link.id, new Date())
		expect(await opened()).toBe(2)
		// Roll-ups changed by hand, then rebuilt: a new version, the rebuilt figures.
		const before = await version()
		await db.updateTable('reportDays').set({ opened: 99 }).where('workspaceId', '=', kept.workspace.id).execute()
		await rebuildReports(db, kept.workspace.id)
		expect(BigInt(await version())).toBeGreaterThan(BigInt(before))
		expect(await opened()).toBe(2)
		// The same rows under other filters are other reports.
		expect((await report(`?preset=7d&channelId=${link.id}`, kept.owner.auth, kept.workspace.id)).figures.opened.value).toBe(2)
		expect((await report(`?preset=7d&agentId=${kept.agent.user.id}`, kept.owner.auth, kept.workspace.id)).figures.opened.value).toBe(0)
	})

	test('exports each table as CSV', async () => {
		for (const table of ['daily', 'weekly', 'channels', 'agents', 'heatmap']) {
			const response = await api.request('GET', reportsPath(team.workspace.id, `/export?table=${table}&preset=7d`), { headers: team.owner.auth })
			expect(response.status, table).toBe(200)
			expect(response.headers.get('content-type')).toContain('text/csv')
			const lines = String(response.body).trim().split('\r\n')
			expect(lines.length, table).toBeGreaterThan(1)
		}
		const heatmap = await api.request('GET', reportsPath(team.workspace.id, '/export?table=heatmap'), { headers: team.owner.auth })
		expect(String(heatmap.body).split('\r\n')[1]).toMatch(/^monday,/)
		expect((await api.request('GET', reportsPath(team.workspace.id, '/export?table=secrets'), { headers: team.owner.auth })).status).toBe(400)
	})
})

describe('GET /reports in business hours', () => {
	test('count first response and resolution in open time too: the channel’s own hours over the workspace’s, the CSV alike', async () => {
		const db = testDb()
		const run = await createTeam('Open time')
		const workspaceId = run.workspace.id
		const weekdays = { days: [0, 1, 2, 3, 4, 5, 6].map((day) => (day < 5 ? [{ from: '09:00', to: '17:00' }] : [])), holidays: [] }
		await db.updateTable('workspaces').set({ timezone: 'Europe/Paris', businessHours: weekdays }).where('id', '=', workspaceId).execute()
		const office = await createLinkChannel(workspaceId, 'Office')
		const always = await createLinkChannel(workspaceId, 'Always')
		await db
			.updateTable('channels')
			.set({ businessHours: { days: new Array(7).fill([{ from: '00:00', to: '24:00' }]), holidays: [] } })
			.where('id', '=', always.id)
			.execute()
		// Friday 16:00 in Paris, answered on Monday at 10:00 and resolved at 11:00: 2 and 3 open hours, 66 and 67 calendar hours.
		const [friday, monday10, monday11] = [new Date('2025-03-07T15:00:00Z'), new Date('2025-03-10T09:00:00Z'), new Date('2025-03-10T10:00:00Z')]
		for (const channel of [office, always]) {
			const conversation = await insertConversation(workspaceId, channel.id, friday, run.agent.user.id)
			await db.updateTable('conversations').set({ firstResponseAt: monday10 }).where('id', '=', conversation.id).execute()
			await insertMessage(conversation, { direction: 'outgoing', kind: 'activity', senderId: run.agent.user.id, at: monday11, resolved: true })
		}
		await refreshReports(db)
		const monday = '?preset=custom&from=2025-03-10&to=2025-03-10&target=14400'
		const read = (query: string) => report(query, run.owner.auth, workspaceId)

		const office_ = await read(`${monday}&channelId=${office.id}&hours=business`)
		expect(office_.hours).toBe('business')
		expect(office_.figures.firstResponse.median).toBe(histogramQuantile([7200], 0.5))
		expect(office_.figures.resolution.median).toBe(histogramQuantile([10800], 0.5))
		expect(office_.figures.answeredWithinTarget.value).toBe(1)
		// The channel open around the clock counts every hour, as the calendar does.
		const always_ = await read(`${monday}&channelId=${always.id}&hours=business`)
		expect(always_.figures.firstResponse.median).toBe(histogramQuantile([66 * 3600], 0.5))
		const calendar = await read(`${monday}&channelId=${office.id}`)
		expect(calendar.hours).toBe('calendar')
		expect(calendar.figures.firstResponse.median).toBe(histogramQuantile([66 * 3600], 0.5))
		expect(calendar.figures.answeredWithinTarget.value).toBe(0)
		// Both conversations, the agent's row: the median of 2 h and 66 h of open time.
		const both = await read(`${monday}&hours=business`)
		expect(both.agents.find((row) => row.userId === run.agent.user.id)?.firstResponseMedian).toBe(histogramQuantile([7200, 66 * 3600], 0.5))

		const csv = await api.request('GET', reportsPath(workspaceId, `/export?table=agents${monday.replace('?', '&')}&channelId=${office.id}&hours=business`), {
			headers: run.owner.auth,
		})
		expect(csv.status).toBe(200)
		const agentLine = String(csv.body)
			.split('\r\n')
			.find((line) => line.startsWith(run.agent.user.id))
		expect(agentLine?.split(',').slice(-2)).toEqual([String(histogramQuantile([7200], 0.5)), String(histogramQuantile([10800], 0.5))])

		// New hours recount the past: the office open around the clock too gives calendar time.
		await db.updateTable('workspaces').set({ businessHours: null }).where('id', '=', workspaceId).execute()
		expect((await read(`${monday}&channelId=${office.id}&hours=business`)).figures.firstResponse.median).toBe(histogramQuantile([66 * 3600], 0.5))

		const refused = await api.request('GET', reportsPath(workspaceId, `${monday}&hours=weekly`), { headers: run.owner.auth })
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({ details: { fields: { hours: [expect.any(String)] } } })
	})
})

describe('GET /reports by team, and the queue waits', () => {
	// In a week of February 2026 (UTC): Billing has two conversations (the agent's and the second agent's), both answered
	// and resolved; Sales one, the agent's, answered; one conversation has no team. Their waits in a queue are known.
	let run: Team
	let billing: { id: string }
	let sales: { id: string }
	const week = '?preset=custom&from=2026-02-02&to=2026-02-08'
	const at = (day: string, seconds = 0) => new Date(Date.parse(`${day}T10:00:00Z`) + seconds * 1000)
	beforeAll(async () => {
		const db = testDb()
		run = await createTeam('Teams report')
		const link = await createLinkChannel(run.workspace.id)
		billing = await insertTeam(run.workspace.id, 'Billing')
		sales = await insertTeam(run.workspace.id, 'Sales')
		const conversation = async (
			day: string,
			teamId: string | null,
			assignee: { user: { id: string } } | null,
			firstResponse: number | null,
			resolution: number | null,
			waits: number[],
		) => {
			const created = await insertConversation(run.workspace.id, link.id, at(day), assignee?.user.id ?? null)
			await db.updateTable('conversations').set({ teamId }).where('id', '=', created.id).execute()
			await insertMessage(created, { direction: 'incoming', kind: 'text', at: at(day) })
			if (firstResponse !== null) {
				await db
					.updateTable('conversations')
					.set({ firstResponseAt: at(day, firstResponse) })
					.where('id', '=', created.id)
					.execute()
				await insertMessage(created, { direction: 'outgoing', kind: 'text', senderId: assignee?.user.id, at: at(day, firstResponse) })
			}
			if (resolution !== null)
				await insertMessage(created, { direction: 'outgoing', kind: 'activity', senderId: assignee?.user.id, at: at(day, resolution), resolved: true })
			for (const wait of waits) {
				await db
					.insertInto('queueWaits')
					.values({ workspaceId: run.workspace.id, conversationId: created.id, teamId, queuedAt: at(day, -wait), assignedAt: at(day), automatic: true })
					.execute()
			}
			return created
		}
		await conversation('2026-02-03', billing.id, run.agent, 60, 600, [60, 120, 180])
		await conversation('2026-02-04', billing.id, run.otherAgent, 300, 3600, [240, 300])
		await conversation('2026-02-05', sales.id, run.agent, 120, null, [600])
		await conversation('2026-02-05', null, null, null, null, [])
		// The week before: a wait of its own, the previous period's.
		await conversation('2026-01-28', sales.id, run.otherAgent, null, null, [1000])
		await refreshReports(db)
	})

	test('per team: conversations, resolutions, median first response and resolution, queue waits; conversations of no team last', async () => {
		const answer = await report(week, run.owner.auth, run.workspace.id)
		expect(answer.teams).toEqual([
			{
				teamId: billing.id,
				name: 'Billing',
				opened: 2,
				resolved: 2,
				firstResponseMedian: histogramQuantile([60, 300], 0.5),
				resolutionMedian: histogramQuantile([600, 3600], 0.5),
				queueWaits: 5,
				queueWaitMedian: 180,
				queueWaitP90: 276,
			},
			{
				teamId: sales.id,
				name: 'Sales',
				opened: 1,
				resolved: 0,
				firstResponseMedian: histogramQuantile([120], 0.5),
				resolutionMedian: null,
				queueWaits: 1,
				queueWaitMedian: 600,
				queueWaitP90: 600,
			},
			{
				teamId: null,
				name: null,
				opened: 1,
				resolved: 0,
				firstResponseMedian: null,
				resolutionMedian: null,
				queueWaits: 0,
				queueWaitMedian: null,
				queueWaitP90: null,
			},
		])
		// The whole range's waits, exact (percentile_cont): 60, 120, 180, 240, 300, 600; the week before, 1 000.
		expect(answer.figures.queueWait).toEqual({ count: 6, median: 210, p90: 450, previousCount: 1, previousMedian: 1000, previousP90: 1000 })
		const agent = answer.agents.find((row) => row.userId === run.agent.user.id)
		expect(agent).toMatchObject({ resolved: 1, firstResponseMedian: histogramQuantile([60, 120], 0.5), resolutionMedian: histogramQuantile([600], 0.5) })
	})

	test('filtered by a team: its conversations, channels, agents and waits only', async () => {
		const answer = await report(`${week}&teamId=${billing.id}`, run.owner.auth, run.workspace.id)
		expect(answer.filters.teamId).toBe(billing.id)
		expect(answer.figures.opened.value).toBe(2)
		expect(answer.figures.resolved.value).toBe(2)
		expect(answer.figures.firstResponse.median).toBe(histogramQuantile([60, 300], 0.5))
		expect(answer.figures.queueWait).toMatchObject({ count: 5, median: 180, p90: 276, previousCount: 0, previousMedian: null })
		expect(answer.teams.map((row) => row.teamId)).toEqual([billing.id])
		expect(answer.channels.map((row) => row.opened)).toEqual([2])
		expect(answer.daily.reduce((total, row) => total + row.opened, 0)).toBe(2)
		expect(answer.agents.find((row) => row.userId === run.otherAgent.user.id)).toMatchObject({ assigned: 1, resolved: 1 })
		// Open now follows the team: its two conversations (a resolution line leaves the status as inserted).
		expect(answer.figures.openNow).toBe(2)
		// Another team's filter is another report, and a team with nothing in the range still has its row.
		const empty = await insertTeam(run.workspace.id, 'Empty')
		const none = await report(`${week}&teamId=${empty.id}`, run.owner.auth, run.workspace.id)
		expect(none.figures.opened.value).toBe(0)
		expect(none.figures.queueWait.count).toBe(0)
		expect(none.teams).toEqual([expect.objectContaining({ teamId: empty.id, name: 'Empty', opened: 0, queueWaits: 0 })])
	})

	test('an agent sees their own work by team, never a colleague’s', async () => {
		const answer = await report(week, run.agent.auth, run.workspace.id)
		expect(answer.agents.map((row) => row.userId)).toEqual([run.agent.user.id])
		// Billing holds their conversation, not the second agent's; the waits are of the conversations assigned to them.
		expect(answer.teams.map((row) => [row.name, row.opened, row.resolved, row.queueWaits])).toEqual([
			['Billing', 1, 1, 3],
			['Sales', 1, 0, 1],
		])
		expect(answer.figures.queueWait).toMatchObject({ count: 4, median: 150, p90: 474 })
		const billingOnly = await report(`${week}&teamId=${billing.id}`, run.agent.auth, run.workspace.id)
		expect(billingOnly.figures.opened.value).toBe(1)
		expect(billingOnly.figures.queueWait.count).toBe(3)
		const csv = await api.request('GET', reportsPath(run.workspace.id, `/export?table=teams${week.replace('?', '&')}`), { headers: run.agent.auth })
		expect(String(csv.body)).not.toContain(',2,2,')
	})

	test('a team of another workspace, or none, is refused with 422 beside the field, translated', async () => {
		const theirs = await insertTeam(run.elsewhere.id, 'Billing')
		for (const teamId of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
			const response = await api.request('GET', reportsPath(run.workspace.id, `${week}&teamId=${teamId}`), {
				headers: { ...run.owner.auth, 'Accept-Language': 'fr' },
			})
			expect(response.status).toBe(422)
			expect(Object.keys((response.body as { details: { fields: Record<string, string[]> } }).details.fields)).toEqual(['teamId'])
		}
		const malformed = await api.request('GET', reportsPath(run.workspace.id, '?teamId=nope'), { headers: run.owner.auth })
		expect(malformed.status).toBe(400)
		const exported = await api.request('GET', reportsPath(run.workspace.id, `/export?table=teams&teamId=${theirs.id}`), { headers: run.owner.auth })
		expect(exported.status).toBe(422)
	})

	test('exports the teams table and the agents’ resolution median as CSV', async () => {
		const csv = await api.request('GET', reportsPath(run.workspace.id, `/export?table=teams${week.replace('?', '&')}`), { headers: run.owner.auth })
		expect(csv.status).toBe(200)
		expect(csv.headers.get('content-type')).toContain('text/csv')
		const lines = String(csv.body).trim().split('\r\n')
		expect(lines[0]).toBe(
			'team_id,name,opened,resolved,first_response_median_seconds,resolution_median_seconds,queue_waits,queue_wait_median_seconds,queue_wait_p90_seconds',
		)
		expect(lines.slice(1)).toEqual([
			`${billing.id},Billing,2,2,${histogramQuantile([60, 300], 0.5)},${histogramQuantile([600, 3600], 0.5)},5,180,276`,
			`${sales.id},Sales,1,0,${histogramQuantile([120], 0.5)},,1,600,600`,
			',,1,0,,,0,,',
		])
		const agents = await api.request('GET', reportsPath(run.workspace.id, `/export?table=agents${week.replace('?', '&')}`), { headers: run.owner.auth })
		expect(String(agents.body).split('\r\n')[0]).toBe(
			'user_id,name,availability,assigned,replied,resolved,first_response_median_seconds,resolution_median_seconds',
		)
	})

	test('a conversation moved to another team moves its past, equal to the recount', async () => {
		const db = testDb()
		const moved = await createTeam('Moved team')
		const link = await createLinkChannel(moved.workspace.id)
		const one = await insertTeam(moved.workspace.id, 'One')
		const two = await insertTeam(moved.workspace.id, 'Two')
		const conversation = await insertConversation(moved.workspace.id, link.id, new Date(Date.now() - 2 * 86_400_000))
		await db.updateTable('conversations').set({ teamId: one.id }).where('id', '=', conversation.id).execute()
		await insertMessage(conversation, { direction: 'incoming', kind: 'text', at: new Date(Date.now() - 86_400_000) })
		const opened = async (teamId: string) => (await report(`?preset=7d&teamId=${teamId}`, moved.owner.auth, moved.workspace.id)).figures.messagesIn.value
		expect([await opened(one.id), await opened(two.id)]).toEqual([1, 0])
		await db.updateTable('conversations').set({ teamId: two.id }).where('id', '=', conversation.id).execute()
		expect([await opened(one.id), await opened(two.id)]).toEqual([0, 1])
		expect(await storedDays(moved.workspace.id)).toEqual(await recount(moved.workspace.id))
		await rebuildReports(db, moved.workspace.id)
		expect(await storedDays(moved.workspace.id)).toEqual(await recount(moved.workspace.id))
	})
})
