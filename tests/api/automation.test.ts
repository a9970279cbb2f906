import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'
import { addRule, rulesPath, type AutomationRuleJson } from './automation-fixtures.ts'
import { createLinkChannel, customerWrites } from './conversations-fixtures.ts'

let api: TestApi
let people: Team
beforeAll(async () => {
	api = await startApi()
	people = await createTeam('Automation')
})
afterAll(() => api.close())

const names = (rules: AutomationRuleJson[]) => rules.map((rule) => rule.name)

describe('automation rules', () => {
	test('an owner creates rules, added last; they list in run order with their defaults', async () => {
		const first = await addRule(api, people.owner.auth, people.workspace.id, { name: '  Refunds ', actions: [{ kind: 'setPriority', priority: 'high' }] })
		expect(first).toMatchObject({
			name: 'Refunds',
			enabled: true,
			event: 'message.received',
			match: 'all',
			conditions: [],
			stopAfter: false,
			lastRunAt: null,
		})
		const second = await addRule(api, people.admin.auth, people.workspace.id, {
			name: 'VIP',
			event: 'conversation.created',
			match: 'any',
			conditions: [{ kind: 'emailDomain', op: 'is', domains: ['vip.example'] }],
			actions: [{ kind: 'mute' }],
			stopAfter: true,
		})
		expect(second.position).toBeGreaterThan(first.position)
		const listed = await api.request('GET', rulesPath(people.workspace.id), { headers: people.admin.auth })
		expect(listed.status).toBe(200)
		expect(names((listed.body as { rules: AutomationRuleJson[] }).rules)).toEqual(['Refunds', 'VIP'])
		const one = await api.request('GET', rulesPath(people.workspace.id, `/${second.id}`), { headers: people.owner.auth })
		expect(one.body).toMatchObject({ id: second.id, stopAfter: true, conditions: [{ kind: 'emailDomain', op: 'is', domains: ['vip.example'] }] })
	})

	test('bad input is refused beside its field, translated; nothing is created', async () => {
		const before = await testDb().selectFrom('automationRules').select('id').where('workspaceId', '=', people.workspace.id).execute()
		const noAction = await api.request('POST', rulesPath(people.workspace.id), {
			body: { name: 'Nothing', event: 'message.received', actions: [] },
			headers: { ...people.owner.auth, 'Accept-Language': 'fr' },
		})
		expect(noAction.status).toBe(400)
		expect(noAction.body).toMatchObject({ details: { fields: { actions: ['Ajoutez au moins une action.'] } } })
		const badEvent = await api.request('POST', rulesPath(people.workspace.id), {
			body: { name: 'Odd', event: 'conversation.exploded', actions: [{ kind: 'mute' }], extra: 1 },
			headers: people.owner.auth,
		})
		expect(badEvent.status).toBe(400)
		const fields = (badEvent.body as { details: { fields: Record<string, string[]> } }).details.fields
		expect(Object.keys(fields).sort()).toEqual(['_', 'event'])
		const emptyWords = await api.request('POST', rulesPath(people.workspace.id), {
			body: { name: 'Words', event: 'message.received', conditions: [{ kind: 'messageContains', op: 'any', words: ['  '] }], actions: [{ kind: 'mute' }] },
			headers: { ...people.owner.auth, 'Accept-Language': 'ar-EG' },
		})
		expect(emptyWords.status).toBe(400)
		expect(emptyWords.body).toMatchObject({ details: { fields: { 'conditions.0.words.0': ['لا يمكن ترك هذا الحقل فارغًا.'] } } })
		const after = await testDb().selectFrom('automationRules').select('id').where('workspaceId', '=', people.workspace.id).execute()
		expect(after.length).toBe(before.length)
	})

	test("another workspace's label, team, channel, agent or canned response is refused 422 beside its field", async () => {
		const db = testDb()
		const [label, team, canned] = await Promise.all([
			db.insertInto('labels').values({ workspaceId: people.elsewhere.id, title: 'foreign', color: '#aa5500' }).returning('id').executeTakeFirstOrThrow(),
			db.insertInto('teams').values({ workspaceId: people.elsewhere.id, name: 'Foreign team' }).returning('id').executeTakeFirstOrThrow(),
			db
				.insertInto('cannedResponses')
				.values({ workspaceId: people.elsewhere.id, shortCode: 'foreign', content: 'Hi' })
				.returning('id')
				.executeTakeFirstOrThrow(),
		])
		const channel = await createLinkChannel(people.elsewhere.id)
		const refusals: Array<[Record<string, unknown>, string]> = [
			[{ conditions: [{ kind: 'conversationLabel', op: 'has', labelId: label.id }], actions: [{ kind: 'mute' }] }, 'conditions.0.labelId'],
			[{ conditions: [{ kind: 'channel', op: 'is', channelIds: [channel.id] }], actions: [{ kind: 'mute' }] }, 'conditions.0.channelIds'],
			[{ actions: [{ kind: 'mute' }, { kind: 'assignTeam', teamId: team.id }] }, 'actions.1.teamId'],
			[{ actions: [{ kind: 'assignAgent', userId: people.outsider.user.id }] }, 'actions.0.userId'],
			[{ actions: [{ kind: 'sendCannedResponse', cannedResponseId: canned.id }] }, 'actions.0.cannedResponseId'],
			[{ actions: [{ kind: 'addLabels', labelIds: [label.id] }] }, 'actions.0.labelIds'],
		]
		for (const [body, path] of refusals) {
			const refused = await api.request('POST', rulesPath(people.workspace.id), {
				body: { name: 'Foreign', event: 'message.received', ...body },
				headers: people.owner.auth,
			})
			expect(refused.status, path).toBe(422)
			expect(refused.body).toMatchObject({ details: { fields: { [path]: ["This is not one of this workspace's."] } } })
		}
		const rule = await addRule(api, people.owner.auth, people.workspace.id, { name: 'Mine', actions: [{ kind: 'mute' }] })
		const patched = await api.request('PATCH', rulesPath(people.workspace.id, `/${rule.id}`), {
			body: { actions: [{ kind: 'assignTeam', teamId: team.id }] },
			headers: people.owner.auth,
		})
		expect(patched.status).toBe(422)
	})

	test('agents get 403 on everything; another workspace’s rule and its runs are 404', async () => {
		const rule = await addRule(api, people.owner.auth, people.workspace.id, { name: 'Agents may not', actions: [{ kind: 'mute' }] })
		for (const [method, path] of [
			['GET', rulesPath(people.workspace.id)],
			['POST', rulesPath(people.workspace.id)],
			['GET', rulesPath(people.workspace.id, `/${rule.id}`)],
			['PATCH', rulesPath(people.workspace.id, `/${rule.id}`)],
			['DELETE', rulesPath(people.workspace.id, `/${rule.id}`)],
			['POST', rulesPath(people.workspace.id, `/${rule.id}/move`)],
			['GET', rulesPath(people.workspace.id, `/${rule.id}/runs`)],
		] as const) {
			const refused = await api.request(method, path, { headers: people.agent.auth, body: method === 'GET' ? undefined : {} })
			expect(refused.status, `${method} ${path}`).toBe(403)
		}
		const theirs = await addRule(api, people.outsider.auth, people.elsewhere.id, { name: 'Theirs', actions: [{ kind: 'mute' }] })
		for (const [method, rest] of [
			['GET', `/${theirs.id}`],
			['PATCH', `/${theirs.id}`],
			['DELETE', `/${theirs.id}`],
			['GET', `/${theirs.id}/runs`],
			['POST', `/${theirs.id}/move`],
		] as const) {
			const hidden = await api.request(method, rulesPath(people.workspace.id, rest), {
				headers: people.owner.auth,
				body: method === 'PATCH' ? { name: 'Mine now' } : method === 'POST' ? { direction: 'up' } : undefined,
			})
			expect(hidden.status, `${method} ${rest}`).toBe(404)
		}
		const still = await testDb().selectFrom('automationRules').select('name').where('id', '=', theirs.id).executeTakeFirstOrThrow()
		expect(still.name).toBe('Theirs')
	})

	test('a rule is changed, moved up, down and to a place, and deleted', async () => {
		const base = await createTeam('Moves')
		const [a, b, c] = [
			await addRule(api, base.owner.auth, base.workspace.id, { name: 'A', actions: [{ kind: 'mute' }] }),
			await addRule(api, base.owner.auth, base.workspace.id, { name: 'B', actions: [{ kind: 'mute' }] }),
			await addRule(api, base.owner.auth, base.workspace.id, { name: 'C', actions: [{ kind: 'mute' }] }),
		]
		const move = async (ruleId: string, body: unknown) => {
			const moved = await api.request('POST', rulesPath(base.workspace.id, `/${ruleId}/move`), { body, headers: base.owner.auth })
			expect(moved.status, JSON.stringify(moved.body)).toBe(200)
			return (moved.body as { rules: AutomationRuleJson[] }).rules
		}
		expect(names(await move(c.id, { direction: 'up' }))).toEqual(['A', 'C', 'B'])
		expect(names(await move(a.id, { direction: 'down' }))).toEqual(['C', 'A', 'B'])
		expect(names(await move(c.id, { direction: 'up' }))).toEqual(['C', 'A', 'B'])
		const placed = await move(b.id, { position: 0 })
		expect(names(placed)).toEqual(['B', 'C', 'A'])
		expect(placed.map((rule) => rule.position)).toEqual([0, 1, 2])
		expect(names(await move(b.id, { position: 99 }))).toEqual(['C', 'A', 'B'])
		const badMove = await api.request('POST', rulesPath(base.workspace.id, `/${b.id}/move`), { body: { direction: 'sideways' }, headers: base.owner.auth })
		expect(badMove.status).toBe(400)

		const patched = await api.request('PATCH', rulesPath(base.workspace.id, `/${a.id}`), { body: { enabled: false, name: 'A off' }, headers: base.owner.auth })
		expect(patched.status).toBe(200)
		expect(patched.body).toMatchObject({ name: 'A off', enabled: false, actions: [{ kind: 'mute' }] })
		const emptied = await api.request('PATCH', rulesPath(base.workspace.id, `/${a.id}`), { body: { actions: [] }, headers: base.owner.auth })
		expect(emptied.status).toBe(400)

		const deleted = await api.request('DELETE', rulesPath(base.workspace.id, `/${a.id}`), { headers: base.owner.auth })
		expect(deleted.status).toBe(204)
		const gone = await api.request('GET', rulesPath(base.workspace.id, `/${a.id}`), { headers: { ...base.owner.auth, 'Accept-Language': 'fr' } })
		expect(gone.status).toBe(404)
		expect(gone.body).toMatchObject({ message: 'Cette règle n’existe pas, ou a été supprimée.' })
	})

	test('the run log pages newest first, 50 a page, with the conversation’s number; the rule shows its last run', async () => {
		const rule = await addRule(api, people.owner.auth, people.workspace.id, { name: 'Logged', actions: [{ kind: 'mute' }] })
		const channel = await createLinkChannel(people.workspace.id, 'Logged site')
		const { conversation } = await customerWrites(channel, `visitor-${rule.id}`, 'Hello')
		await testDb()
			.insertInto('automationRuns')
			.values(
				Array.from({ length: 60 }, (_, index) => ({
					ruleId: rule.id,
					workspaceId: people.workspace.id,
					conversationId: conversation.id,
					event: 'message.received' as const,
					eventKey: `key-${index}`,
					depth: 0,
					outcome: index === 59 ? ('failed' as const) : ('done' as const),
					actions: JSON.stringify([{ kind: 'mute', outcome: index === 59 ? 'failed' : 'done' }]),
					error: null,
				})),
			)
			.execute()
		const first = await api.request('GET', rulesPath(people.workspace.id, `/${rule.id}/runs`), { headers: people.owner.auth })
		expect(first.status).toBe(200)
		const page = first.body as { runs: Array<{ outcome: string; conversation: { number: number } | null }>; nextCursor: string | null }
		expect(page.runs).toHaveLength(50)
		expect(page.runs[0]).toMatchObject({ outcome: 'failed', conversation: { number: conversation.number }, actions: [{ kind: 'mute', outcome: 'failed' }] })
		const second = await api.request('GET', rulesPath(people.workspace.id, `/${rule.id}/runs?cursor=${page.nextCursor}`), { headers: people.owner.auth })
		expect((second.body as typeof page).runs).toHaveLength(10)
		expect((second.body as typeof page).nextCursor).toBeNull()
		const bad = await api.request('GET', rulesPath(people.workspace.id, `/${rule.id}/runs?cursor=abc`), { headers: people.owner.auth })
		expect(bad.status).toBe(400)
		const shown = await api.request('GET', rulesPath(people.workspace.id, `/${rule.id}`), { headers: people.owner.auth })
		expect((shown.body as AutomationRuleJson).lastRunAt).not.toBeNull()
	})
})
