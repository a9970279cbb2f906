import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AutomationCondition } from '#common/automation.ts'
import { type Channel } from '#api/db/schema.ts'
import { wakeSnoozed } from '#api/conversations/jobs.ts'
import { silentRealtime } from '#api/realtime/publisher.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam } from './workspaces-fixtures.ts'
import { addRule, messagesOf, runRules, runsOf, takeJobs, type AutomationRuleJson } from './automation-fixtures.ts'
import { conversationsPath, createLinkChannel, customerWrites } from './conversations-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

/** A workspace with a link channel, two labels, a team and an agent of it. */
async function setUp(name: string) {
	const people = await createTeam(name)
	const db = testDb()
	const channel = await createLinkChannel(people.workspace.id, `${name} site`)
	const [vip, spam] = await Promise.all(
		['vip', 'spam'].map((title) =>
			db.insertInto('labels').values({ workspaceId: people.workspace.id, title, color: '#aa5500' }).returning('id').executeTakeFirstOrThrow(),
		),
	)
	const team = await db.insertInto('teams').values({ workspaceId: people.workspace.id, name: 'Billing' }).returning(['id', 'name']).executeTakeFirstOrThrow()
	const rule = (body: Record<string, unknown>) => addRule(api, people.owner.auth, people.workspace.id, body)
	return { people, channel, vip: vip!.id, spam: spam!.id, team, rule }
}

let visitors = 0
/** A new customer's first message: their new conversation, its rule jobs still queued. */
async function newConversation(channel: Channel, body = 'Hello') {
	return (await customerWrites(channel, `visitor-${++visitors}`, body, { name: 'Amira Haddad' })).conversation
}

describe('conditions', () => {
	test('every condition, true and false, on a customer’s second message; all and any', async () => {
		const { people, channel, vip, spam, team, rule } = await setUp('Conditions')
		const otherChannel = await createLinkChannel(people.workspace.id, 'Other site')
		const expectations: Array<[string, AutomationCondition | AutomationCondition[], boolean, ('all' | 'any')?]> = [
			['channel is', { kind: 'channel', op: 'is', channelIds: [channel.id] }, true],
			['channel is another', { kind: 'channel', op: 'is', channelIds: [otherChannel.id] }, false],
			['channel is not', { kind: 'channel', op: 'isNot', channelIds: [channel.id] }, false],
			['kind is link', { kind: 'channelKind', op: 'is', kinds: ['link'] }, true],
			['kind is whatsapp', { kind: 'channelKind', op: 'is', kinds: ['whatsapp'] }, false],
			['kind is not whatsapp', { kind: 'channelKind', op: 'isNot', kinds: ['whatsapp', 'telegram'] }, true],
			['words, folded', { kind: 'messageContains', op: 'any', words: ['cancel', 'refund'] }, true],
			['words, Arabic forms', { kind: 'messageContains', op: 'any', words: ['اريد'] }, true],
			['words absent', { kind: 'messageContains', op: 'any', words: ['cancel'] }, false],
			['none of the words', { kind: 'messageContains', op: 'none', words: ['cancel'] }, true],
			['none, but one is there', { kind: 'messageContains', op: 'none', words: ['REFUND'] }, false],
			['contact has label', { kind: 'contactLabel', op: 'has', labelId: vip }, true],
			['contact has other label', { kind: 'contactLabel', op: 'has', labelId: spam }, false],
			['contact lacks label', { kind: 'contactLabel', op: 'lacks', labelId: spam }, true],
			['attribute equals, folded', { kind: 'contactAttribute', attribute: 'plan', op: 'equals', value: 'gold plus' }, true],
			['attribute equals not', { kind: 'contactAttribute', attribute: 'plan', op: 'equals', value: 'gold' }, false],
			['attribute contains', { kind: 'contactAttribute', attribute: 'name', op: 'contains', value: 'amira' }, true],
			['attribute contains not', { kind: 'contactAttribute', attribute: 'plan', op: 'contains', value: 'silver' }, false],
			['attribute missing', { kind: 'contactAttribute', attribute: 'shoeSize', op: 'equals', value: '42' }, false],
			['e-mail domain', { kind: 'emailDomain', op: 'is', domains: ['@Example.COM'] }, true],
			['e-mail domain not', { kind: 'emailDomain', op: 'isNot', domains: ['example.com'] }, false],
			['conversation has label', { kind: 'conversationLabel', op: 'has', labelId: vip }, true],
			['conversation lacks label', { kind: 'conversationLabel', op: 'lacks', labelId: vip }, false],
			['priority is high', { kind: 'priority', op: 'is', priorities: ['high', 'urgent'] }, true],
			['priority is not high', { kind: 'priority', op: 'isNot', priorities: ['high'] }, false],
			['status open', { kind: 'status', op: 'is', statuses: ['open'] }, true],
			['status resolved', { kind: 'status', op: 'is', statuses: ['resolved'] }, false],
			['team is', { kind: 'team', op: 'is', teamIds: [team.id] }, true],
			['team none', { kind: 'team', op: 'none', teamIds: [] }, false],
			['team is not', { kind: 'team', op: 'isNot', teamIds: [team.id] }, false],
			['assignee is', { kind: 'assignee', op: 'is', userIds: [people.agent.user.id] }, true],
			['assignee is someone else', { kind: 'assignee', op: 'is', userIds: [people.otherAgent.user.id] }, false],
			['assignee anyone', { kind: 'assignee', op: 'anyone', userIds: [] }, true],
			['assignee none', { kind: 'assignee', op: 'none', userIds: [] }, false],
			['inside business hours (none set: always open)', { kind: 'businessHours', op: 'inside' }, true],
			['outside business hours', { kind: 'businessHours', op: 'outside' }, false],
			['second message', { kind: 'messageCount', op: 'equals', value: 2 }, true],
			['first message', { kind: 'messageCount', op: 'equals', value: 1 }, false],
			['at least 2', { kind: 'messageCount', op: 'atLeast', value: 2 }, true],
			['at most 1', { kind: 'messageCount', op: 'atMost', value: 1 }, false],
			[
				'all: one false',
				[
					{ kind: 'status', op: 'is', statuses: ['open'] },
					{ kind: 'priority', op: 'is', priorities: ['low'] },
				],
				false,
				'all',
			],
			[
				'any: one true',
				[
					{ kind: 'status', op: 'is', statuses: ['resolved'] },
					{ kind: 'priority', op: 'is', priorities: ['high'] },
				],
				true,
				'any',
			],
			[
				'any: none true',
				[
					{ kind: 'status', op: 'is', statuses: ['resolved'] },
					{ kind: 'priority', op: 'is', priorities: ['low'] },
				],
				false,
				'any',
			],
		]
		const rules = new Map<string, AutomationRuleJson>()
		for (const [name, conditions, , match] of expectations)
			rules.set(name, await rule({ name, match: match ?? 'all', conditions: [conditions].flat(), actions: [{ kind: 'mute' }] }))

		const first = await newConversation(channel, 'Hello')
		await takeJobs(first.id)
		const db = testDb()
		await db
			.updateTable('contacts')
			.set({ email: 'amira@example.com', attributes: { plan: 'GOLD Plüs' } })
			.where('id', '=', first.contactId)
			.execute()
		await db.insertInto('contactLabels').values({ workspaceId: people.workspace.id, contactId: first.contactId, labelId: vip }).execute()
		await db.insertInto('conversationLabels').values({ workspaceId: people.workspace.id, conversationId: first.id, labelId: vip }).execute()
		await db.updateTable('conversations').set({ priority: 3, teamId: team.id, assigneeId: people.agent.user.id }).where('id', '=', first.id).execute()
		const visitor = await db.selectFrom('contactIdentities').select('externalId').where('id', '=', first.identityId).executeTakeFirstOrThrow()
		await customerWrites(channel, visitor.externalId, 'Please, a RÉFUND — أريد المساعدة')
		await runRules(first.id)

		const ran = new Set((await runsOf(first.id)).map((run) => run.ruleId))
		const wrong = expectations.filter(([name, , expected]) => ran.has(rules.get(name)!.id) !== expected).map(([name]) => name)
		expect(wrong).toEqual([])
	})

	test('business hours: closed every day is outside, in the workspace’s time zone', async () => {
		const { people, channel, rule } = await setUp('Hours')
		await testDb()
			.updateTable('workspaces')
			.set({ businessHours: { days: [[], [], [], [], [], [], []], holidays: [] } })
			.where('id', '=', people.workspace.id)
			.execute()
		const outside = await rule({ name: 'Night', conditions: [{ kind: 'businessHours', op: 'outside' }], actions: [{ kind: 'mute' }] })
		const inside = await rule({ name: 'Day', conditions: [{ kind: 'businessHours', op: 'inside' }], actions: [{ kind: 'mute' }] })
		const conversation = await newConversation(channel)
		await runRules(conversation.id)
		expect((await runsOf(conversation.id)).map((run) => run.ruleId)).toEqual([outside.id])
		expect(inside.id).toBeTruthy()
	})
})

describe('actions', () => {
	test('every action, done as the rule, with a line in the thread naming it', async () => {
		const { people, channel, vip, spam, team, rule } = await setUp('Actions')
		const db = testDb()
		const canned = await db
			.insertInto('cannedResponses')
			.values({ workspaceId: people.workspace.id, shortCode: 'thanks', content: 'Thanks {{name}}, from {{company | our team}}' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const everything = await rule({
			name: 'Everything',
			actions: [
				{ kind: 'assignTeam', teamId: team.id },
				{ kind: 'assignAgent', userId: people.agent.user.id },
				{ kind: 'addLabels', labelIds: [vip, spam] },
				{ kind: 'removeLabels', labelIds: [spam] },
				{ kind: 'setPriority', priority: 'urgent' },
				{ kind: 'sendMessage', body: 'Hello {{name}}, {{plan | friend}}' },
				{ kind: 'addNote', body: 'Seen by a rule for {{name}}' },
				{ kind: 'sendCannedResponse', cannedResponseId: canned.id },
				{ kind: 'mute' },
				{ kind: 'snooze', minutes: 60 },
			],
		})
		const conversation = await newConversation(channel)
		await runRules(conversation.id)
		const after = await db.selectFrom('conversations').selectAll().where('id', '=', conversation.id).executeTakeFirstOrThrow()
		expect(after).toMatchObject({ teamId: team.id, assigneeId: people.agent.user.id, priority: 4, status: 'snoozed' })
		// The rule's messages are sent, but no person has answered yet.
		expect(after.firstResponseAt).toBeNull()
		expect(after.mutedAt).not.toBeNull()
		expect(after.snoozedUntil!.getTime() - Date.now()).toBeGreaterThan(55 * 60_000)
		const labels = await db.selectFrom('conversationLabels').select('labelId').where('conversationId', '=', conversation.id).execute()
		expect(labels.map((label) => label.labelId)).toEqual([vip])
		const texts = await messagesOf(conversation.id, 'text')
		expect(texts.filter((message) => message.direction === 'outgoing').map((message) => [message.body, message.status, message.senderId])).toEqual([
			['Hello Amira Haddad, friend', 'pending', null],
			['Thanks Amira Haddad, from our team', 'pending', null],
		])
		// Through the channel's delivery, as a reply.
		const { rows } = await sql<{ n: number }>`select count(*)::int as n from graphile_worker._private_jobs jobs
			join graphile_worker._private_tasks tasks on tasks.id = jobs.task_id
			where tasks.identifier = 'send-message' and jobs.payload->>'messageId' in (${sql.join(texts.map((message) => String(message.id)))})`.execute(db)
		expect(rows[0]!.n).toBe(2)
		expect((await messagesOf(conversation.id, 'note')).map((message) => message.body)).toEqual(['Seen by a rule for Amira Haddad'])
		const lines = (await messagesOf(conversation.id, 'activity')).map((message) => message.activity)
		expect(lines).toContainEqual({ key: 'activity.teamChanged', values: { actor: 'Everything', team: 'Billing' } })
		expect(lines).toContainEqual({ key: 'activity.assigned', values: { actor: 'Everything', assignee: 'Agent of Actions' } })
		expect(lines.at(-1)).toEqual({ key: 'activity.automation', values: { rule: 'Everything' } })
		const [run] = await runsOf(conversation.id)
		expect(run).toMatchObject({ ruleId: everything.id, outcome: 'done', depth: 0, event: 'message.received', error: null })
		expect(run!.actions.map((action) => action.outcome)).toEqual(Array(10).fill('done'))

		// The thread shows the rule's lines, translated.
		const thread = await api.request('GET', conversationsPath(people.workspace.id, `/${conversation.number}`), { headers: people.owner.auth })
		expect(thread.status).toBe(200)
	})

	test('unassign, status, auto-assignment; an action that cannot be done fails alone and the run says why', async () => {
		const { people, channel, team, rule } = await setUp('Failing')
		const db = testDb()
		await rule({
			name: 'Resolve',
			conditions: [{ kind: 'messageContains', op: 'any', words: ['bye'] }],
			actions: [{ kind: 'unassign' }, { kind: 'setStatus', status: 'resolved' }],
		})
		const broken = await rule({
			name: 'Broken',
			conditions: [{ kind: 'messageContains', op: 'any', words: ['help'] }],
			actions: [{ kind: 'autoAssign' }, { kind: 'assignTeam', teamId: team.id }, { kind: 'setStatus', status: 'pending' }],
		})
		const resolved = await newConversation(channel, 'bye')
		await db.updateTable('conversations').set({ assigneeId: people.agent.user.id }).where('id', '=', resolved.id).execute()
		await runRules(resolved.id)
		expect(await db.selectFrom('conversations').select(['status', 'assigneeId']).where('id', '=', resolved.id).executeTakeFirstOrThrow()).toEqual({
			status: 'resolved',
			assigneeId: null,
		})

		// The team is deleted after the rule was written: the action fails, the others still run.
		const conversation = await newConversation(channel, 'help')
		await db.deleteFrom('teams').where('id', '=', team.id).execute()
		await runRules(conversation.id)
		const [run] = await runsOf(conversation.id)
		expect(run).toMatchObject({ ruleId: broken.id, outcome: 'failed' })
		expect(run!.actions).toEqual([
			{ kind: 'autoAssign', outcome: 'failed', error: { key: 'automation:run.noAutoAssign', values: {} } },
			{ kind: 'assignTeam', outcome: 'failed', error: { key: 'automation:run.teamGone', values: {} } },
			{ kind: 'setStatus', outcome: 'done' },
		])
		expect((await messagesOf(conversation.id, 'activity')).at(-1)!.activity).toEqual({ key: 'activity.automationFailed', values: { rule: 'Broken' } })
		const log = await api.request('GET', `/v1/workspaces/${people.workspace.id}/automation-rules/${broken.id}/runs`, { headers: people.owner.auth })
		expect((log.body as { runs: unknown[] }).runs[0]).toMatchObject({ outcome: 'failed', conversation: { number: conversation.number } })

		// With a team that auto-assigns, the conversation waits in its queue and a drain is asked for.
		const auto = await db
			.insertInto('teams')
			.values({ workspaceId: people.workspace.id, name: 'Auto', autoAssign: true })
			.returning('id')
			.executeTakeFirstOrThrow()
		await rule({ name: 'Queue', conditions: [{ kind: 'messageContains', op: 'any', words: ['queue'] }], actions: [{ kind: 'autoAssign' }] })
		const queued = await newConversation(channel, 'queue me')
		await db.updateTable('conversations').set({ teamId: auto.id }).where('id', '=', queued.id).execute()
		await runRules(queued.id)
		expect((await db.selectFrom('conversations').select('queuedAt').where('id', '=', queued.id).executeTakeFirstOrThrow()).queuedAt).not.toBeNull()
	})

	test('a message outside WhatsApp’s 24-hour window is not sent; the run says so', async () => {
		const { people, rule } = await setUp('Window')
		const db = testDb()
		const whatsapp = await db
			.insertInto('channels')
			.values({ workspaceId: people.workspace.id, kind: 'whatsapp', name: 'WhatsApp' })
			.returningAll()
			.executeTakeFirstOrThrow()
		await rule({ name: 'Late reply', event: 'conversation.priorityChanged', actions: [{ kind: 'sendMessage', body: 'Hi' }] })
		const conversation = await newConversation(whatsapp)
		await takeJobs(conversation.id)
		await sql`update messages set created_at = now() - interval '2 days' where conversation_id = ${conversation.id}`.execute(db)
		const changed = await api.request('PATCH', conversationsPath(people.workspace.id, `/${conversation.number}`), {
			body: { priority: 'high' },
			headers: people.owner.auth,
		})
		expect(changed.status, JSON.stringify(changed.body)).toBe(200)
		await runRules(conversation.id)
		const [run] = await runsOf(conversation.id)
		expect(run!.actions).toEqual([{ kind: 'sendMessage', outcome: 'failed', error: { key: 'automation:run.windowClosed', values: { hours: '24' } } }])
		expect((await messagesOf(conversation.id, 'text')).filter((message) => message.direction === 'outgoing')).toEqual([])
	})
})

describe('order, stop and depth', () => {
	test('rules run in the order shown; a rule that stops keeps later ones from running', async () => {
		const { people, channel, rule } = await setUp('Order')
		const one = await rule({ name: 'One', actions: [{ kind: 'addNote', body: 'one' }] })
		await rule({ name: 'Two', stopAfter: true, actions: [{ kind: 'addNote', body: 'two' }] })
		const three = await rule({ name: 'Three', actions: [{ kind: 'addNote', body: 'three' }] })
		const first = await newConversation(channel)
		await runRules(first.id)
		expect((await messagesOf(first.id, 'note')).map((note) => note.body)).toEqual(['one', 'two'])

		const moved = await api.request('POST', `/v1/workspaces/${people.workspace.id}/automation-rules/${three.id}/move`, {
			body: { position: 0 },
			headers: people.owner.auth,
		})
		expect(moved.status).toBe(200)
		await api.request('PATCH', `/v1/workspaces/${people.workspace.id}/automation-rules/${one.id}`, { body: { enabled: false }, headers: people.owner.auth })
		const second = await newConversation(channel)
		await runRules(second.id)
		expect((await messagesOf(second.id, 'note')).map((note) => note.body)).toEqual(['three', 'two'])
	})

	test('two rules setting each other off stop after 3 levels, and the run log says so', async () => {
		const { people, channel, rule } = await setUp('Loop')
		const down = await rule({
			name: 'Down',
			event: 'conversation.priorityChanged',
			conditions: [{ kind: 'priority', op: 'is', priorities: ['high'] }],
			actions: [{ kind: 'setPriority', priority: 'low' }],
		})
		const up = await rule({
			name: 'Up',
			event: 'conversation.priorityChanged',
			conditions: [{ kind: 'priority', op: 'is', priorities: ['low'] }],
			actions: [{ kind: 'setPriority', priority: 'high' }],
		})
		const conversation = await newConversation(channel)
		const changed = await api.request('PATCH', conversationsPath(people.workspace.id, `/${conversation.number}`), {
			body: { priority: 'high' },
			headers: people.owner.auth,
		})
		expect(changed.status).toBe(200)
		await runRules(conversation.id)
		const runs = await runsOf(conversation.id)
		expect(runs.map((run) => [run.ruleId, run.depth, run.outcome])).toEqual([
			[down.id, 0, 'done'],
			[up.id, 1, 'done'],
			[down.id, 2, 'done'],
			[up.id, 3, 'stopped'],
		])
		expect(runs.at(-1)!.error).toEqual({ key: 'automation:run.tooDeep', values: { depth: '3' } })
		const after = await testDb().selectFrom('conversations').select('priority').where('id', '=', conversation.id).executeTakeFirstOrThrow()
		expect(after.priority).toBe(1)
	})

	test('resolving runs the rules of a status change and of a resolution; a workspace without rules queues no job', async () => {
		const { people, channel, rule } = await setUp('Resolved')
		const bare = await createTeam('No rules')
		const quiet = await createLinkChannel(bare.workspace.id)
		const untouched = await newConversation(quiet)
		expect(await takeJobs(untouched.id)).toEqual([])

		const onResolve = await rule({ name: 'Resolved', event: 'conversation.resolved', actions: [{ kind: 'addNote', body: 'resolved' }] })
		const onStatus = await rule({ name: 'Status', event: 'conversation.statusChanged', actions: [{ kind: 'addNote', body: 'status' }] })
		const conversation = await newConversation(channel)
		expect(await takeJobs(conversation.id)).toEqual([])
		await api.request('PATCH', conversationsPath(people.workspace.id, `/${conversation.number}`), { body: { status: 'resolved' }, headers: people.owner.auth })
		const jobs = await runRules(conversation.id)
		expect(jobs.map((job) => job.event)).toEqual(['conversation.statusChanged', 'conversation.resolved'])
		expect((await runsOf(conversation.id)).map((run) => run.ruleId)).toEqual([onStatus.id, onResolve.id])
	})

	test('a snooze’s end runs the rules of a status change, as any reopening', async () => {
		const { channel, rule } = await setUp('Woken')
		const onStatus = await rule({
			name: 'Back',
			event: 'conversation.statusChanged',
			conditions: [{ kind: 'status', op: 'is', statuses: ['open'] }],
			actions: [{ kind: 'setPriority', priority: 'high' }],
		})
		const conversation = await newConversation(channel)
		await takeJobs(conversation.id)
		await testDb()
			.updateTable('conversations')
			.set({ status: 'snoozed', snoozedUntil: sql<Date>`now() - interval '1 second'` })
			.where('id', '=', conversation.id)
			.execute()
		await wakeSnoozed(testDb(), silentRealtime, conversation.id)
		expect((await runRules(conversation.id)).map((job) => job.event)).toEqual(['conversation.statusChanged'])
		expect((await runsOf(conversation.id)).map((run) => [run.ruleId, run.outcome])).toEqual([[onStatus.id, 'done']])
		const after = await testDb().selectFrom('conversations').select(['status', 'priority']).where('id', '=', conversation.id).executeTakeFirstOrThrow()
		expect(after).toEqual({ status: 'open', priority: 3 })
	})
})
