import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type AuditEventJson } from '#api/audit/queries.ts'
import { recordAudit } from '#api/audit/record.ts'
import { prune } from '#api/jobs/prune.ts'
import { parseConfig } from '#config/config.ts'
import { startTelegramFake, type TelegramFake } from '../fakes/telegram.ts'
import { addAudience, campaignAction, campaignsPath, createCampaign } from './campaigns-fixtures.ts'
import { importCsv } from './contacts-fixtures.ts'
import { createLinkChannel } from './conversations-fixtures.ts'
import { createUser, startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

let api: TestApi
let telegram: TelegramFake
let team: Team
beforeAll(async () => {
	telegram = await startTelegramFake()
	api = await startApi({ TELEGRAM_API_URL: telegram.url })
	team = await createTeam('Audited')
})
afterAll(async () => {
	await api.close()
	await telegram.close()
})

const logPath = (workspaceId: string, query = '') => `/v1/workspaces/${workspaceId}/audit-log${query}`
type Page = { events: AuditEventJson[]; page: number; limit: number; total: number }

async function readLog(query = '', auth = team.owner.auth, workspaceId = team.workspace.id): Promise<Page> {
	const response = await api.request('GET', logPath(workspaceId, query), { headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body as Page
}

/** The newest line of `kind` in the team's workspace. */
async function latest(kind: string): Promise<AuditEventJson | undefined> {
	return (await readLog(`?kind=${kind}&limit=1`)).events[0]
}

describe('recording, from the real routes', () => {
	test('a sign-in is recorded in the workspace it opens in; a switch too; a stale current workspace says nothing', async () => {
		const member = await createUser({ workspaceId: team.workspace.id, role: 'agent', name: 'Signing in' })
		const login = await api.request('POST', '/v1/auth/login', { body: { email: member.user.email, password: member.password } })
		expect(login.status).toBe(200)
		expect(await latest('session.signedIn')).toMatchObject({ actor: { id: member.user.id, name: 'Signing in' }, values: {} })

		// A member of two workspaces switching into this one.
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: member.user.id, role: 'agent' }).execute()
		await testDb().updateTable('users').set({ currentWorkspaceId: team.elsewhere.id }).where('id', '=', member.user.id).execute()
		expect((await api.request('PUT', '/v1/workspaces/switch', { headers: member.auth, body: { workspaceId: team.workspace.id } })).status).toBe(200)
		expect(await latest('session.signedIn')).toMatchObject({ actor: { id: member.user.id }, values: { via: 'switch' } })

		// No longer a member of the workspace still named current: nothing is written anywhere.
		const stale = await createUser({ workspaceId: team.workspace.id, role: 'agent' })
		await testDb().deleteFrom('members').where('userId', '=', stale.user.id).execute()
		expect((await api.request('POST', '/v1/auth/login', { body: { email: stale.user.email, password: stale.password } })).status).toBe(200)
		const lines = await testDb().selectFrom('auditEvents').select('id').where('actorId', '=', stale.user.id).execute()
		expect(lines).toEqual([])
	})

	test('role changes, removals, leaving and handing over ownership', async () => {
		const local = await createTeam('Roles')
		const path = (rest: string) => `/v1/workspaces/${local.workspace.id}${rest}`
		expect((await api.request('PATCH', path(`/members/${local.agent.user.id}`), { headers: local.admin.auth, body: { role: 'admin' } })).status).toBe(200)
		// The same role again changes nothing, and says nothing.
		expect((await api.request('PATCH', path(`/members/${local.agent.user.id}`), { headers: local.admin.auth, body: { role: 'admin' } })).status).toBe(200)
		expect((await api.request('DELETE', path(`/members/${local.otherAgent.user.id}`), { headers: local.owner.auth })).status).toBe(204)
		expect((await api.request('POST', path('/leave'), { headers: local.agent.auth })).status).toBe(204)
		expect((await api.request('POST', path('/transfer-ownership'), { headers: local.owner.auth, body: { userId: local.admin.user.id } })).status).toBe(200)

		const { events } = await readLog('', local.admin.auth, local.workspace.id)
		expect(events.map((event) => [event.kind, event.actor.id, event.values])).toEqual([
			['member.ownershipTransferred', local.owner.user.id, { member: local.admin.user.name, memberId: local.admin.user.id }],
			['member.left', local.agent.user.id, {}],
			['member.removed', local.owner.user.id, { member: local.otherAgent.user.name, memberId: local.otherAgent.user.id, role: 'agent' }],
			['member.roleChanged', local.admin.user.id, { member: local.agent.user.name, memberId: local.agent.user.id, from: 'agent', to: 'admin' }],
		])
	})

	test('invitations created, revoked (once) and accepted; never their codes', async () => {
		const local = await createTeam('Invitations')
		const path = `/v1/workspaces/${local.workspace.id}/invitations`
		const mailed = await api.request('POST', path, { headers: local.admin.auth, body: { method: 'email', email: 'invitee@example.test', role: 'admin' } })
		expect(mailed.status).toBe(201)
		const link = await api.request('POST', path, { headers: local.admin.auth, body: { method: 'link', role: 'agent' } })
		const { id, code } = link.body as { id: string; code: string }
		const joiner = await createUser({ name: 'Joiner' })
		expect((await api.request('POST', '/v1/workspaces/invitations/accept', { headers: joiner.auth, body: { code, method: 'link' } })).status).toBe(200)
		expect((await api.request('DELETE', `${path}/${id}`, { headers: local.owner.auth })).status).toBe(204)
		expect((await api.request('DELETE', `${path}/${id}`, { headers: local.owner.auth })).status).toBe(204)

		const { events } = await readLog('', local.owner.auth, local.workspace.id)
		expect(events.map((event) => [event.kind, event.actor.name, event.values])).toEqual([
			['invitation.revoked', local.owner.user.name, { role: 'agent', method: 'link' }],
			['invitation.accepted', 'Joiner', { role: 'agent', method: 'link' }],
			['invitation.created', local.admin.user.name, { role: 'agent', method: 'link' }],
			['invitation.created', local.admin.user.name, { role: 'admin', method: 'email', email: 'invitee@example.test' }],
		])
		expect(JSON.stringify(events)).not.toContain(code)
	})

	test('channels created, changed and deleted: which fields changed, never a credential', async () => {
		const local = await createTeam('Channels')
		const path = (rest = '') => `/v1/workspaces/${local.workspace.id}/channels${rest}`
		const created = await api.request('POST', path(), { headers: local.admin.auth, body: { kind: 'link', name: 'Website' } })
		expect(created.status).toBe(201)
		const linkId = (created.body as { id: string }).id
		expect((await api.request('PATCH', path(`/${linkId}`), { headers: local.admin.auth, body: { name: 'Web site', enabled: false } })).status).toBe(200)
		expect((await api.request('DELETE', path(`/${linkId}`), { headers: local.owner.auth })).status).toBe(204)

		const bot = telegram.addBot()
		const connected = await api.request('POST', path(), {
			headers: local.admin.auth,
			body: { kind: 'telegram', name: 'Bot', credentials: { botToken: bot.token } },
		})
		expect(connected.status).toBe(201)
		const botId = (connected.body as { id: string }).id
		const renewed = telegram.addBot()
		const replaced = await api.request('PUT', path(`/${botId}/credentials`), { headers: local.admin.auth, body: { credentials: { botToken: renewed.token } } })
		expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)

		const { events } = await readLog('', local.owner.auth, local.workspace.id)
		expect(events.map((event) => [event.kind, event.values])).toEqual([
			['channel.credentialsReplaced', { channel: 'Bot', channelId: botId, fields: 'botToken' }],
			['channel.created', { channel: 'Bot', channelId: botId, channelKind: 'telegram' }],
			['channel.deleted', { channel: 'Web site', channelId: linkId, channelKind: 'link' }],
			['channel.updated', { channel: 'Web site', channelId: linkId, fields: 'name,enabled' }],
			['channel.created', { channel: 'Website', channelId: linkId, channelKind: 'link' }],
		])
		const text = JSON.stringify(events)
		expect(text).not.toContain(bot.token)
		expect(text).not.toContain(renewed.token)
	})

	test('contacts deleted (one, in bulk) and imported, as counts', async () => {
		const local = await createTeam('Contacts')
		const path = (rest = '') => `/v1/workspaces/${local.workspace.id}/contacts${rest}`
		const imported = await importCsv(api, local.agent.auth, local.workspace.id, 'name,email\nAmal,amal@example.test\nBruno,bruno@example.test\n,\n')
		expect(imported.status).toBe(200)
		const ids = (await testDb().selectFrom('contacts').select('id').where('workspaceId', '=', local.workspace.id).orderBy('name').execute()).map(
			(row) => row.id,
		)
		expect((await api.request('DELETE', path(`/${ids[0]}`), { headers: local.admin.auth })).status).toBe(204)
		expect((await api.request('POST', path('/bulk'), { headers: local.admin.auth, body: { action: 'delete', contactIds: ids } })).status).toBe(200)

		const { events } = await readLog('', local.owner.auth, local.workspace.id)
		const result = imported.body as { created: number; updated: number; rejected: unknown[] }
		expect(events.map((event) => [event.kind, event.actor.id, event.values])).toEqual([
			['contacts.deleted', local.admin.user.id, { count: 1 }],
			['contacts.deleted', local.admin.user.id, { count: 1 }],
			['contacts.imported', local.agent.user.id, { created: result.created, updated: result.updated, skipped: result.rejected.length }],
		])
		expect(result.created).toBe(2)
	})

	test('campaigns started and cancelled; exports of contacts, recipients and reports', async () => {
		const local = await createTeam('Campaigns')
		const channel = await createLinkChannel(local.workspace.id, 'Site')
		await addAudience(local.workspace.id, channel.id, [{ name: 'Reader' }])
		const started = await createCampaign(api, local.admin.auth, local.workspace.id, { name: 'Spring', channelId: channel.id, body: 'Hello' })
		await campaignAction(api, local.admin.auth, local.workspace.id, started.id, 'start')
		const dropped = await createCampaign(api, local.admin.auth, local.workspace.id, { name: 'Autumn', channelId: channel.id, body: 'Hello' })
		await campaignAction(api, local.owner.auth, local.workspace.id, dropped.id, 'cancel')
		expect((await api.request('GET', campaignsPath(local.workspace.id, `/${started.id}/recipients?format=csv`), { headers: local.agent.auth })).status).toBe(
			200,
		)
		expect((await api.request('GET', `/v1/workspaces/${local.workspace.id}/contacts/export`, { headers: local.agent.auth })).status).toBe(200)
		expect(
			(
				await api.request('GET', `/v1/workspaces/${local.workspace.id}/reports/export?table=daily&preset=custom&from=2026-01-01&to=2026-01-07`, {
					headers: local.admin.auth,
				})
			).status,
		).toBe(200)

		const { events } = await readLog('', local.owner.auth, local.workspace.id)
		expect(events.map((event) => [event.kind, event.actor.id, event.values])).toEqual([
			['export.report', local.admin.user.id, { table: 'daily', from: '2026-01-01', to: '2026-01-07' }],
			['export.contacts', local.agent.user.id, {}],
			['export.campaignRecipients', local.agent.user.id, { campaign: 'Spring', campaignId: started.id }],
			['campaign.cancelled', local.owner.user.id, { campaign: 'Autumn', campaignId: dropped.id }],
			['campaign.started', local.admin.user.id, { campaign: 'Spring', campaignId: started.id }],
		])
	})

	test('a change that fails records nothing: the line is in its transaction', async () => {
		const local = await createTeam('Rolled back')
		// The owner's role cannot change: 403, and no line.
		expect(
			(
				await api.request('PATCH', `/v1/workspaces/${local.workspace.id}/members/${local.owner.user.id}`, {
					headers: local.admin.auth,
					body: { role: 'agent' },
				})
			).status,
		).toBe(403)
		// Cancelling a campaign already cancelled: 409, and no second line.
		const channel = await createLinkChannel(local.workspace.id, 'Site')
		const campaign = await createCampaign(api, local.admin.auth, local.workspace.id, { name: 'Once', channelId: channel.id, body: 'Hello' })
		await campaignAction(api, local.admin.auth, local.workspace.id, campaign.id, 'cancel')
		expect((await api.request('POST', campaignsPath(local.workspace.id, `/${campaign.id}/cancel`), { headers: local.admin.auth })).status).toBe(409)
		expect((await readLog('', local.owner.auth, local.workspace.id)).events.map((event) => event.kind)).toEqual(['campaign.cancelled'])
	})
})

describe('reading the log', () => {
	let local: Team
	beforeAll(async () => {
		local = await createTeam('Filters')
		const db = testDb()
		const at = (day: string) => sql<Date>`${`${day} 12:00`}::timestamp at time zone 'Africa/Cairo'`
		await db.updateTable('workspaces').set({ timezone: 'Africa/Cairo' }).where('id', '=', local.workspace.id).execute()
		const line = (actor: typeof local.owner, kind: string, day: string, values = {}) =>
			db
				.insertInto('auditEvents')
				.values({ workspaceId: local.workspace.id, actorId: actor.user.id, actorName: actor.user.name, kind, values, createdAt: at(day) as unknown as Date })
				.execute()
		await line(local.owner, 'session.signedIn', '2026-03-01')
		await line(local.admin, 'contacts.deleted', '2026-03-02', { count: 3 })
		await line(local.admin, 'session.signedIn', '2026-03-03')
		await line(local.owner, 'export.contacts', '2026-03-04')
		// Just before midnight in Cairo on the 4th: still the 4th there, the 4th in UTC too (22:30).
		await db
			.insertInto('auditEvents')
			.values({
				workspaceId: local.workspace.id,
				actorId: local.admin.user.id,
				actorName: local.admin.user.name,
				kind: 'export.contacts',
				values: {},
				createdAt: sql<Date>`'2026-03-04 23:30'::timestamp at time zone 'Africa/Cairo'` as unknown as Date,
			})
			.execute()
	})
	const read = (query: string) => readLog(query, local.owner.auth, local.workspace.id)

	test('newest first, a page at a time, with the total', async () => {
		const first = await read('?limit=2')
		expect(first).toMatchObject({ page: 1, limit: 2, total: 5, keptDays: 365 })
		expect(first.events.map((event) => event.kind)).toEqual(['export.contacts', 'export.contacts'])
		const third = await read('?limit=2&page=3')
		expect(third.events.map((event) => event.kind)).toEqual(['session.signedIn'])
	})

	test('by person, kind and days in the workspace’s time zone; empty fields mean any', async () => {
		expect((await read(`?actorId=${local.admin.user.id}`)).total).toBe(3)
		expect((await read(`?actorId=${local.admin.user.id}&kind=session.signedIn`)).total).toBe(1)
		expect((await read('?from=2026-03-02&to=2026-03-03')).events.map((event) => event.kind)).toEqual(['session.signedIn', 'contacts.deleted'])
		expect((await read('?from=2026-03-04')).total).toBe(2)
		expect((await read('?to=2026-03-01')).total).toBe(1)
		expect((await read('?actorId=&kind=&from=&to=')).total).toBe(5)
	})

	test('bad filters are a translated 400', async () => {
		for (const query of ['?kind=nonsense', '?from=2026-02-30', '?actorId=me', '?from=2026-03-04&to=2026-03-01']) {
			const response = await api.request('GET', logPath(local.workspace.id, query), { headers: { ...local.owner.auth, 'Accept-Language': 'fr' } })
			expect(response.status, query).toBe(400)
			expect((response.body as { message: string }).message, query).not.toMatch(/^api:/)
		}
	})

	test('CSV: every line the filters keep, each said in the caller’s language, by format=csv or /export', async () => {
		const csv = await api.request('GET', logPath(local.workspace.id, `?format=csv&actorId=${local.admin.user.id}`), { headers: local.owner.auth })
		expect(csv.status).toBe(200)
		expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
		const lines = (csv.body as string)
			.replace(/^\uFEFF/, '')
			.trim()
			.split('\r\n')
		expect(lines[0]).toBe('created_at,actor_id,actor_name,kind,description')
		expect(lines).toHaveLength(4)
		expect(lines[3]).toContain(`${local.admin.user.name} deleted 3 contacts`)
		const arabic = await api.request('GET', logPath(local.workspace.id, '/export?kind=contacts.deleted'), {
			headers: { ...local.owner.auth, 'Accept-Language': 'ar' },
		})
		expect(arabic.status).toBe(200)
		expect(arabic.body as string).toContain('حذف')
		expect((arabic.body as string).trim().split('\r\n')).toHaveLength(2)
	})
})

describe('who may read it', () => {
	test('owners and admins; agents get 403; another workspace’s id, 404; nobody, 401', async () => {
		for (const [auth, status] of [
			[team.owner.auth, 200],
			[team.admin.auth, 200],
			[team.agent.auth, 403],
			[team.outsider.auth, 404],
			[{}, 401],
		] as const) {
			expect((await api.request('GET', logPath(team.workspace.id), { headers: auth })).status).toBe(status)
			expect((await api.request('GET', logPath(team.workspace.id, '/export'), { headers: auth })).status).toBe(status)
		}
	})

	test('a workspace’s log holds its own lines only', async () => {
		await recordAudit(testDb(), team.elsewhere.id, team.outsider.user, 'export.contacts')
		const { events } = await readLog(`?actorId=${team.outsider.user.id}`)
		expect(events).toEqual([])
		// The outsider, owner of their own workspace, sees their line there.
		const theirs = await readLog('', team.outsider.auth, team.elsewhere.id)
		expect(theirs.events.map((event) => event.actor.id)).toContain(team.outsider.user.id)
		expect(JSON.stringify(theirs)).not.toContain(team.owner.user.id)
	})
})

describe('pruning', () => {
	test('lines older than AUDIT_LOG_DAYS (365 by default) go; the others stay', async () => {
		const local = await createTeam('Pruned')
		const db = testDb()
		const line = (daysAgo: number) =>
			db
				.insertInto('auditEvents')
				.values({
					workspaceId: local.workspace.id,
					actorId: local.owner.user.id,
					actorName: 'Owner',
					kind: 'export.contacts',
					values: { daysAgo },
					createdAt: new Date(Date.now() - daysAgo * 86_400_000),
				})
				.execute()
		await Promise.all([line(400), line(366), line(364), line(20), line(1)])
		const kept = async () =>
			(await db.selectFrom('auditEvents').select('values').where('workspaceId', '=', local.workspace.id).execute())
				.map((row) => row.values.daysAgo)
				.sort((a, b) => Number(a) - Number(b))

		const byDefault = await prune(db)
		expect(byDefault.auditEvents).toBeGreaterThanOrEqual(2)
		expect(await kept()).toEqual([1, 20, 364])
		await prune(db, { auditLogDays: 30 })
		expect(await kept()).toEqual([1, 20])
	})

	test('AUDIT_LOG_DAYS is checked at start', () => {
		expect(parseConfig({ DATA_DIR: '/tmp/x' }).AUDIT_LOG_DAYS).toBe(365)
		expect(parseConfig({ DATA_DIR: '/tmp/x', AUDIT_LOG_DAYS: '90' }).AUDIT_LOG_DAYS).toBe(90)
		expect(() => parseConfig({ DATA_DIR: '/tmp/x', AUDIT_LOG_DAYS: '0' })).toThrow(/AUDIT_LOG_DAYS must be at least 1/)
		expect(() => parseConfig({ DATA_DIR: '/tmp/x', AUDIT_LOG_DAYS: 'a year' })).toThrow(/AUDIT_LOG_DAYS/)
	})
})
