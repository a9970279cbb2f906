import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { tokenRequestsPerMinute } from '#api/access-tokens/queries.ts'
import { tokenRules } from '#api/http/token-scopes.ts'
import { tokenScopes, type TokenScope } from '#common/access-tokens.ts'
import { startApi, testDb, type TestApi } from './harness.ts'
import { createFixtures, type Fixtures } from './route-fixtures.ts'
import { fillPath } from './route-list.ts'
import { apiRoutes, paramsOf, routeMatrix } from './route-matrix.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

type TokenJson = {
	id: string
	kind: 'personal' | 'bot'
	name: string
	hint: string
	scopes: TokenScope[]
	userId: string
	expiresAt: string | null
	lastUsedAt: string | null
}
type Created = { token: TokenJson; secret: string }

let api: TestApi
let team: Team
beforeAll(async () => {
	api = await startApi()
	team = await createTeam('Tokens')
})
afterAll(() => api.close())

const tokensPath = (workspaceId: string, tokenId?: string) => `/v1/workspaces/${workspaceId}/access-tokens${tokenId ? `/${tokenId}` : ''}`
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` })

async function createToken(body: Record<string, unknown>, auth = team.owner.auth, workspaceId = team.workspace.id): Promise<Created> {
	const response = await api.request('POST', tokensPath(workspaceId), { body, headers: auth })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as Created
}
const bot = (scopes: TokenScope[], name = 'Order bot') => createToken({ kind: 'bot', name, scopes })

describe('creating, listing and revoking tokens', () => {
	test('the secret is shown once, in the creation answer, and kept only as a hash', async () => {
		const { token, secret } = await bot(['contacts:read'])
		expect(secret).toMatch(/^crm_bot_[A-Za-z0-9_-]{43}$/)
		expect(token).toMatchObject({ kind: 'bot', name: 'Order bot', hint: secret.slice(-4), scopes: ['contacts:read'], expiresAt: null, lastUsedAt: null })
		const row = await testDb().selectFrom('accessTokens').selectAll().where('id', '=', token.id).executeTakeFirstOrThrow()
		expect(JSON.stringify(row)).not.toContain(secret)
		expect(row.tokenHash).toBe(crypto.createHash('sha256').update(secret).digest('hex'))
		const listed = await api.request('GET', tokensPath(team.workspace.id), { headers: team.owner.auth })
		expect(JSON.stringify(listed.body)).not.toContain(secret)
		const personal = await createToken({ kind: 'personal', name: 'My script', scopes: ['conversations:write'], expiresInDays: 30 }, team.agent.auth)
		expect(personal.secret).toMatch(/^crm_pat_[A-Za-z0-9_-]{43}$/)
		expect(personal.token.userId).toBe(team.agent.user.id)
		expect(new Date(personal.token.expiresAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000)
	})

	test('a bot is a user of its own that never signs in and is never a member', async () => {
		const { token } = await bot(['contacts:read'], 'Sign-in bot')
		const user = await testDb().selectFrom('users').selectAll().where('id', '=', token.userId).executeTakeFirstOrThrow()
		expect(user).toMatchObject({ bot: true, name: 'Sign-in bot' })
		expect(user.email).toMatch(/^bot-[0-9a-f-]{36}@bots\.invalid$/)
		expect(await testDb().selectFrom('members').where('userId', '=', user.id).select('userId').execute()).toEqual([])
		const login = await api.request('POST', '/v1/auth/login', { body: { email: user.email, password: '!' } })
		expect(login.status).toBe(401)
		const members = await api.request('GET', `/v1/workspaces/${team.workspace.id}/members`, { headers: team.owner.auth })
		expect(JSON.stringify(members.body)).not.toContain(user.id)
	})

	test('agents create personal tokens only; they see their own, managers every bot token and their own', async () => {
		const refused = await api.request('POST', tokensPath(team.workspace.id), {
			body: { kind: 'bot', name: 'x', scopes: ['contacts:read'] },
			headers: team.agent.auth,
		})
		expect(refused.status).toBe(403)
		expect(refused.body).toMatchObject({
			message: 'Only owners and admins create bot tokens.',
			details: { fields: { kind: ['Only owners and admins create bot tokens.'] } },
		})
		const adminBot = await createToken({ kind: 'bot', name: 'Admin bot', scopes: ['settings:read'] }, team.admin.auth)
		const agentOwn = await createToken({ kind: 'personal', name: 'Agent own', scopes: ['contacts:read'] }, team.agent.auth)
		const ownerOwn = await createToken({ kind: 'personal', name: 'Owner own', scopes: ['contacts:read'] }, team.owner.auth)
		const ids = async (auth: Record<string, string>) =>
			((await api.request('GET', tokensPath(team.workspace.id), { headers: auth })).body as { tokens: TokenJson[] }).tokens.map((token) => token.id)
		const agentSees = await ids(team.agent.auth)
		expect(agentSees).toContain(agentOwn.token.id)
		expect(agentSees).not.toContain(adminBot.token.id)
		expect(agentSees).not.toContain(ownerOwn.token.id)
		const adminSees = await ids(team.admin.auth)
		expect(adminSees).toContain(adminBot.token.id)
		expect(adminSees).not.toContain(ownerOwn.token.id)
		expect(adminSees).not.toContain(agentOwn.token.id)
		// Someone else's personal token is unknown (404); a bot token is the managers' (403 to an agent).
		expect((await api.request('DELETE', tokensPath(team.workspace.id, ownerOwn.token.id), { headers: team.admin.auth })).status).toBe(404)
		expect((await api.request('DELETE', tokensPath(team.workspace.id, adminBot.token.id), { headers: team.agent.auth })).status).toBe(403)
		expect((await api.request('DELETE', tokensPath(team.workspace.id, adminBot.token.id), { headers: team.owner.auth })).status).toBe(204)
		expect((await api.request('DELETE', tokensPath(team.workspace.id, adminBot.token.id), { headers: team.owner.auth })).status).toBe(404)
		expect(await ids(team.owner.auth)).not.toContain(adminBot.token.id)
	})

	test.each([
		['no scope', { kind: 'bot', name: 'x', scopes: [] }, 'scopes', 'Choose at least one area to read or write.'],
		['an unknown scope', { kind: 'bot', name: 'x', scopes: ['contacts:delete'] }, 'scopes.0', undefined],
		['an empty name', { kind: 'bot', name: '  ', scopes: ['contacts:read'] }, 'name', 'Must be at least 1 character.'],
		['an expiry of 0 days', { kind: 'bot', name: 'x', scopes: ['contacts:read'], expiresInDays: 0 }, 'expiresInDays', undefined],
		['an expiry over ten years', { kind: 'bot', name: 'x', scopes: ['contacts:read'], expiresInDays: 3651 }, 'expiresInDays', undefined],
		['an unknown kind', { kind: 'robot', name: 'x', scopes: ['contacts:read'] }, 'kind', undefined],
	])('refuses %s with a translated 400', async (_, body, field, message) => {
		const response = await api.request('POST', tokensPath(team.workspace.id), { body, headers: team.owner.auth })
		expect(response.status).toBe(400)
		const fields = (response.body as { details: { fields: Record<string, string[]> } }).details.fields
		expect(Object.keys(fields)).toContain(field)
		if (message) expect(fields[field]).toEqual([message])
	})

	test('the other workspace: its tokens are 404, and a non-member lists nothing', async () => {
		const theirs = await createToken({ kind: 'bot', name: 'Their bot', scopes: ['contacts:read'] }, team.outsider.auth, team.elsewhere.id)
		expect((await api.request('DELETE', tokensPath(team.workspace.id, theirs.token.id), { headers: team.owner.auth })).status).toBe(404)
		expect((await api.request('GET', tokensPath(team.elsewhere.id), { headers: team.owner.auth })).status).toBe(404)
	})
})

describe('renaming tokens', () => {
	const rename = (tokenId: string, name: unknown, auth = team.owner.auth, workspaceId = team.workspace.id) =>
		api.request('PATCH', tokensPath(workspaceId, tokenId), { body: { name }, headers: auth })

	test("a bot token's new name is its user's too: the thread and the audit log say it from then on", async () => {
		const spare = await createTeam('Rename')
		const fx = await createFixtures(api)
		const { token, secret } = await createToken({ kind: 'bot', name: 'Old bot', scopes: ['conversations:write'] }, fx.team.owner.auth, fx.here.workspaceId)
		const renamed = await rename(token.id, '  بوت الطلبات  ', fx.team.admin.auth, fx.here.workspaceId)
		expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
		expect((renamed.body as { token: TokenJson }).token).toMatchObject({ id: token.id, name: 'بوت الطلبات', hint: token.hint, userId: token.userId })
		const thread = `/v1/workspaces/${fx.here.workspaceId}/conversations/${fx.here.conversation.number}/messages`
		expect((await api.request('POST', thread, { headers: bearer(secret), body: { kind: 'note', body: 'Renamed note' } })).status).toBe(201)
		const messages = (await api.request('GET', thread, { headers: fx.team.agent.auth })).body as {
			messages: Array<{ body: string; sender: { name: string } | null }>
		}
		expect(messages.messages.find((message) => message.body === 'Renamed note')?.sender?.name).toBe('بوت الطلبات')
		const listed = (await api.request('GET', tokensPath(fx.here.workspaceId), { headers: fx.team.owner.auth })).body as { tokens: TokenJson[] }
		expect(listed.tokens.find((listedToken) => listedToken.id === token.id)?.name).toBe('بوت الطلبات')
		// The same name again changes nothing and says nothing.
		expect((await rename(token.id, 'بوت الطلبات', fx.team.owner.auth, fx.here.workspaceId)).status).toBe(200)
		await new Promise((resolve) => setTimeout(resolve, 200))
		const lines = await testDb()
			.selectFrom('auditEvents')
			.select(['kind', 'actorName', 'values'])
			.where('workspaceId', '=', fx.here.workspaceId)
			.where('kind', 'in', ['token.renamed', 'token.used'])
			.orderBy('id')
			.execute()
		expect(lines).toEqual([
			{ kind: 'token.renamed', actorName: fx.team.admin.user.name, values: { from: 'Old bot', to: 'بوت الطلبات', kind: 'bot' } },
			{ kind: 'token.used', actorName: 'بوت الطلبات', values: { token: 'بوت الطلبات', method: 'POST', path: thread, status: 201 } },
		])
		// Its workspace only: the same token is unknown to another's owner, in theirs and in its own.
		expect((await rename(token.id, 'Theirs', spare.owner.auth, spare.workspace.id)).status).toBe(404)
		expect((await rename(token.id, 'Theirs', spare.owner.auth, fx.here.workspaceId)).status).toBe(404)
	})

	test("a personal token is its member's to rename; a bot token the managers'; a token never renames one", async () => {
		const agentOwn = await createToken({ kind: 'personal', name: 'Agent script', scopes: ['contacts:read'] }, team.agent.auth)
		const botToken = await bot(['contacts:read'], 'Managed bot')
		expect((await rename(agentOwn.token.id, 'Not yours', team.owner.auth)).status).toBe(404)
		expect((await rename(botToken.token.id, 'Not yours', team.agent.auth)).status).toBe(403)
		expect((await rename(agentOwn.token.id, 'Not yours', bearer(agentOwn.secret))).status).toBe(403)
		expect((await rename(agentOwn.token.id, 'Agent script 2', team.agent.auth)).status).toBe(200)
		const user = await testDb().selectFrom('users').select('name').where('id', '=', team.agent.user.id).executeTakeFirstOrThrow()
		expect(user.name).toBe(team.agent.user.name)
		expect((await rename(crypto.randomUUID(), 'Nobody')).status).toBe(404)
		expect((await rename('not-a-uuid', 'Nobody')).status).toBe(404)
		expect((await api.request('DELETE', tokensPath(team.workspace.id, botToken.token.id), { headers: team.owner.auth })).status).toBe(204)
		expect((await rename(botToken.token.id, 'Revoked')).status).toBe(404)
	})

	test.each([
		['an empty name', '   ', 'Must be at least 1 character.'],
		['a name over 80 characters', 'x'.repeat(81), undefined],
		['no name', undefined, undefined],
		['a number', 42, undefined],
	])('refuses %s with a translated 400 beside the field, the name unchanged', async (_, name, message) => {
		const { token } = await bot(['contacts:read'], 'Kept bot')
		const response = await rename(token.id, name)
		expect(response.status).toBe(400)
		const fields = (response.body as { details: { fields: Record<string, string[]> } }).details.fields
		expect(Object.keys(fields)).toEqual(['name'])
		if (message) expect(fields.name).toEqual([message])
		const row = await testDb().selectFrom('accessTokens').select('name').where('id', '=', token.id).executeTakeFirstOrThrow()
		expect(row.name).toBe('Kept bot')
	})
})

describe('calling /v1 with a token', () => {
	const contacts = () => `/v1/workspaces/${team.workspace.id}/contacts`

	test('a scope allows its area: read with read, write only with write; 403 names the scope', async () => {
		const reader = await bot(['contacts:read'])
		expect((await api.request('GET', contacts(), { headers: bearer(reader.secret) })).status).toBe(200)
		const write = await api.request('POST', contacts(), { headers: bearer(reader.secret), body: { name: 'By a reader' } })
		expect(write.status).toBe(403)
		expect(write.body).toEqual({ message: 'This access token lacks the scope contacts:write.', statusCode: 403, details: { scope: 'contacts:write' } })
		expect((await api.request('GET', `/v1/workspaces/${team.workspace.id}/labels`, { headers: bearer(reader.secret) })).status).toBe(403)
		const writer = await bot(['contacts:write'])
		expect((await api.request('GET', contacts(), { headers: bearer(writer.secret) })).status).toBe(200)
		expect((await api.request('POST', contacts(), { headers: bearer(writer.secret), body: { name: 'By a writer' } })).status).toBe(201)
	})

	test('another workspace is 404, as for a non-member, even one its person is a member of', async () => {
		const { secret } = await bot(['contacts:write', 'settings:write'])
		for (const path of [
			`/v1/workspaces/${team.elsewhere.id}/contacts`,
			`/v1/workspaces/${team.elsewhere.id}`,
			`/v1/workspaces/${crypto.randomUUID()}/labels`,
		]) {
			const response = await api.request('GET', path, { headers: bearer(secret) })
			expect(response.status, path).toBe(404)
			expect(response.body).toMatchObject({ message: 'This workspace does not exist, or you are not a member of it.' })
		}
		// A personal token of a member of both workspaces reaches only the one it was made in.
		await testDb().insertInto('members').values({ workspaceId: team.elsewhere.id, userId: team.owner.user.id, role: 'admin' }).execute()
		const personal = await createToken({ kind: 'personal', name: 'Two places', scopes: ['contacts:read'] }, team.owner.auth)
		expect((await api.request('GET', `/v1/workspaces/${team.elsewhere.id}/contacts`, { headers: bearer(personal.secret) })).status).toBe(404)
		expect((await api.request('GET', contacts(), { headers: bearer(personal.secret) })).status).toBe(200)
		await testDb().deleteFrom('members').where('workspaceId', '=', team.elsewhere.id).where('userId', '=', team.owner.user.id).execute()
	})

	test('unknown, revoked and expired tokens are 401', async () => {
		const { token, secret } = await bot(['contacts:read'])
		expect((await api.request('GET', contacts(), { headers: bearer(`${secret}x`) })).status).toBe(401)
		expect((await api.request('GET', contacts(), { headers: bearer('crm_bot_nothing') })).status).toBe(401)
		await testDb()
			.updateTable('accessTokens')
			.set({ expiresAt: new Date(Date.now() - 1000) })
			.where('id', '=', token.id)
			.execute()
		const expired = await api.request('GET', contacts(), { headers: bearer(secret) })
		expect(expired.status).toBe(401)
		expect(expired.headers.get('www-authenticate')).toBe('Bearer')
		const other = await bot(['contacts:read'])
		expect((await api.request('DELETE', tokensPath(team.workspace.id, other.token.id), { headers: team.owner.auth })).status).toBe(204)
		expect((await api.request('GET', contacts(), { headers: bearer(other.secret) })).status).toBe(401)
	})

	test('a token cannot manage tokens, members, invitations or two-step sign-in, nor use the account', async () => {
		const owner = await createToken({ kind: 'personal', name: 'Owner everything', scopes: [...tokenScopes] }, team.owner.auth)
		const botEverything = await bot([...tokenScopes], 'Everything bot')
		for (const { secret } of [owner, botEverything]) {
			for (const [method, path, body] of [
				['GET', tokensPath(team.workspace.id)],
				['POST', tokensPath(team.workspace.id), { kind: 'personal', name: 'x', scopes: ['contacts:read'] }],
				['DELETE', tokensPath(team.workspace.id, botEverything.token.id)],
				['PATCH', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`, { role: 'admin' }],
				['DELETE', `/v1/workspaces/${team.workspace.id}/members/${team.agent.user.id}`],
				['POST', `/v1/workspaces/${team.workspace.id}/invitations`, { method: 'link', role: 'agent' }],
				['POST', `/v1/workspaces/${team.workspace.id}/transfer-ownership`, { userId: team.admin.user.id }],
				['DELETE', `/v1/workspaces/${team.workspace.id}`],
				['GET', '/v1/auth/profile'],
				['GET', '/v1/auth/two-factor'],
				['POST', '/v1/auth/two-factor/setup', {}],
				['POST', '/v1/auth/logout'],
				['GET', '/v1/user/workspaces'],
			] as const) {
				const response = await api.request(method, path, { headers: bearer(secret), body })
				expect(response.status, `${method} ${path}`).toBe(403)
				expect(response.body).toMatchObject({ message: 'An access token cannot do this: sign in to the web app.' })
			}
		}
		// The workspace's settings, yes; its two-step requirement, never (even with the owner's own token).
		const requirement = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { headers: bearer(owner.secret), body: { requireTwoFactor: false } })
		expect(requirement.status).toBe(403)
		expect((await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { headers: bearer(owner.secret), body: { logoColor: '#225588' } })).status).toBe(
			200,
		)
	})

	test("a personal token acts with its member's current role, and stops when they leave", async () => {
		const spare = await createTeam('Roles')
		const labels = `/v1/workspaces/${spare.workspace.id}/labels`
		const { secret } = await createToken({ kind: 'personal', name: 'Agent labels', scopes: ['settings:write'] }, spare.agent.auth, spare.workspace.id)
		expect((await api.request('POST', labels, { headers: bearer(secret), body: { title: 'by-agent', color: '#336699' } })).status).toBe(403)
		await testDb()
			.updateTable('members')
			.set({ role: 'admin' })
			.where('workspaceId', '=', spare.workspace.id)
			.where('userId', '=', spare.agent.user.id)
			.execute()
		expect((await api.request('POST', labels, { headers: bearer(secret), body: { title: 'by-agent', color: '#336699' } })).status).toBe(201)
		const removed = await api.request('DELETE', `/v1/workspaces/${spare.workspace.id}/members/${spare.agent.user.id}`, { headers: spare.owner.auth })
		expect(removed.status).toBe(204)
		expect((await api.request('GET', labels, { headers: bearer(secret) })).status).toBe(401)
	})

	test('the two-step rule of the workspace does not apply to a token (created from a session that met it)', async () => {
		const spare = await createTeam('Two-step')
		const { secret } = await createToken({ kind: 'bot', name: 'Two-step bot', scopes: ['contacts:read'] }, spare.owner.auth, spare.workspace.id)
		await testDb().updateTable('workspaces').set({ requireTwoFactor: true }).where('id', '=', spare.workspace.id).execute()
		expect((await api.request('GET', `/v1/workspaces/${spare.workspace.id}/contacts`, { headers: spare.agent.auth })).status).toBe(403)
		expect((await api.request('GET', `/v1/workspaces/${spare.workspace.id}/contacts`, { headers: bearer(secret) })).status).toBe(200)
	})

	test('last used is kept, to the minute', async () => {
		const { token, secret } = await bot(['contacts:read'])
		await api.request('GET', contacts(), { headers: bearer(secret) })
		const first = await testDb().selectFrom('accessTokens').select('lastUsedAt').where('id', '=', token.id).executeTakeFirstOrThrow()
		expect(first.lastUsedAt).not.toBeNull()
		await api.request('GET', contacts(), { headers: bearer(secret) })
		const second = await testDb().selectFrom('accessTokens').select('lastUsedAt').where('id', '=', token.id).executeTakeFirstOrThrow()
		expect(second.lastUsedAt).toEqual(first.lastUsedAt)
	})

	test(`is limited to ${tokenRequestsPerMinute} requests a minute per token (429 with Retry-After)`, async () => {
		const { secret } = await bot(['settings:read'])
		const path = `/v1/workspaces/${team.workspace.id}/labels`
		const statuses: number[] = []
		for (let sent = 0; sent < tokenRequestsPerMinute; sent += 25) {
			const batch = await Promise.all(Array.from({ length: 25 }, () => api.request('GET', path, { headers: bearer(secret) })))
			statuses.push(...batch.map((response) => response.status))
		}
		expect(statuses.filter((status) => status !== 200)).toEqual([])
		const refused = await api.request('GET', path, { headers: bearer(secret) })
		expect(refused.status).toBe(429)
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
		// Another token of the same workspace is counted apart.
		const other = await bot(['settings:read'])
		expect((await api.request('GET', path, { headers: bearer(other.secret) })).status).toBe(200)
	})
})

describe('what a token does is told', () => {
	test('the audit log has its creation, each write (method, path, status) and its revocation, the bot as the actor', async () => {
		const spare = await createTeam('Audit')
		const { token, secret } = await createToken({ kind: 'bot', name: 'Audit bot', scopes: ['contacts:write'] }, spare.owner.auth, spare.workspace.id)
		await api.request('GET', `/v1/workspaces/${spare.workspace.id}/contacts`, { headers: bearer(secret) })
		await api.request('POST', `/v1/workspaces/${spare.workspace.id}/contacts`, { headers: bearer(secret), body: { name: 'Audited' } })
		await api.request('POST', `/v1/workspaces/${spare.workspace.id}/contacts`, { headers: bearer(secret), body: { name: '' } })
		expect((await api.request('DELETE', tokensPath(spare.workspace.id, token.id), { headers: spare.owner.auth })).status).toBe(204)
		// The use's line is written once the answer is sent.
		await new Promise((resolve) => setTimeout(resolve, 200))
		const lines = await testDb()
			.selectFrom('auditEvents')
			.select(['kind', 'actorName', 'actorId', 'values'])
			.where('workspaceId', '=', spare.workspace.id)
			.where('kind', 'like', 'token.%')
			.orderBy('id')
			.execute()
		const path = `/v1/workspaces/${spare.workspace.id}/contacts`
		expect(lines).toEqual([
			{
				kind: 'token.created',
				actorName: spare.owner.user.name,
				actorId: spare.owner.user.id,
				values: { token: 'Audit bot', kind: 'bot', scopes: 'contacts:write' },
			},
			{ kind: 'token.used', actorName: 'Audit bot', actorId: token.userId, values: { token: 'Audit bot', method: 'POST', path, status: 201 } },
			{ kind: 'token.used', actorName: 'Audit bot', actorId: token.userId, values: { token: 'Audit bot', method: 'POST', path, status: 400 } },
			{ kind: 'token.revoked', actorName: spare.owner.user.name, actorId: spare.owner.user.id, values: { token: 'Audit bot', kind: 'bot' } },
		])
		const csv = await fetch(`${api.url}/v1/workspaces/${spare.workspace.id}/audit-log/export`, { headers: spare.owner.auth })
		const text = await csv.text()
		expect(text).toContain(`Audit bot used the access token Audit bot: POST ${path} → 201`)
		expect(text).toContain('created the access token Audit bot (contacts:write)')
	})

	test("a bot's note in a conversation is the bot's: the thread names it", async () => {
		const fx = await createFixtures(api)
		const { token, secret } = await createToken({ kind: 'bot', name: 'Order bot', scopes: ['conversations:write'] }, fx.team.owner.auth, fx.here.workspaceId)
		const thread = `/v1/workspaces/${fx.here.workspaceId}/conversations/${fx.here.conversation.number}/messages`
		const posted = await api.request('POST', thread, { headers: bearer(secret), body: { kind: 'note', body: 'Order 1042 shipped' } })
		expect(posted.status, JSON.stringify(posted.body)).toBe(201)
		const messages = (await api.request('GET', thread, { headers: fx.team.agent.auth })).body as {
			messages: Array<{ body: string; sender: { id: string; name: string } | null }>
		}
		expect(messages.messages.find((message) => message.body === 'Order 1042 shipped')?.sender).toEqual({ id: token.userId, name: 'Order bot' })
	})
})

describe('the API reference', () => {
	test('says how to authenticate with a token and which scope each operation needs', async () => {
		const document = (await api.request('GET', '/v1/openapi.json')).body as {
			info: { description: string }
			paths: Record<string, Record<string, { description?: string }>>
		}
		expect(document.info.description).toContain('Authorization: Bearer crm_bot_')
		expect(document.paths['/workspaces/{id}/contacts']?.get?.description).toContain('Access tokens: `contacts:read`.')
		expect(document.paths['/workspaces/{id}/contacts']?.post?.description).toContain('Access tokens: `contacts:write`.')
		expect(document.paths['/workspaces/{id}/access-tokens']?.post?.description).toContain('Not with an access token.')
		const html = await (await fetch(`${api.url}/v1/docs`)).text()
		expect(html).toContain('Access tokens: <code>conversations:write</code>.')
	})
})

describe('every /v1 route, for each scope (api/http/token-scopes.ts)', () => {
	const routes = apiRoutes().filter((route) => route.path.startsWith('/v1/'))

	test('every route has a rule, and no rule names a route that is gone', () => {
		const keys = routes.map((route) => route.key)
		expect(keys.filter((key) => !(key in tokenRules))).toEqual([])
		expect(Object.keys(tokenRules).filter((key) => !keys.includes(key))).toEqual([])
	})

	test('what only a person may do is never a token’s', () => {
		const never = (key: string) => tokenRules[key] === 'never'
		const personal = Object.keys(tokenRules).filter(
			(key) => /\/v1\/(auth|user|realtime)\//.test(key) || /access-tokens|invitations|members\/|transfer-ownership|\/leave|notification/.test(key),
		)
		expect(personal.filter((key) => !never(key) && !key.includes('unsubscribe'))).toEqual([])
		expect(never('DELETE /v1/workspaces/:id')).toBe(true)
		expect(never('POST /v1/workspaces')).toBe(true)
	})

	// The bot acts as an admin: where its scope allows, it gets what the route matrix says an admin gets; elsewhere 403.
	let fx: Fixtures
	const secrets = new Map<TokenScope, string>()
	beforeAll(async () => {
		fx = await createFixtures(api)
		for (const scope of tokenScopes) {
			const { secret } = await createToken({ kind: 'bot', name: `Matrix ${scope}`, scopes: [scope] }, fx.team.owner.auth, fx.here.workspaceId)
			secrets.set(scope, secret)
		}
	})

	test.for(routes.filter((route) => tokenRules[route.key] !== 'public').map((route) => [route.key, route] as const))('%s', async ([key, route]) => {
		const rule = tokenRules[key]
		const row = routeMatrix[key]
		if (!rule || !row) throw new Error(`${key} has no rule or no row`)
		const got: Record<string, number> = {}
		const expected: Record<string, number> = {}
		for (const scope of tokenScopes) {
			const [area, access] = scope.split(':')
			const write = route.method !== 'GET'
			const allowed = rule !== 'never' && rule === area && (access === 'write' || !write)
			const prepared = allowed ? ((await row.prepare?.(fx, 'admin')) ?? {}) : ((await row.prepare?.(fx, 'anonymous')) ?? {})
			const params = { ...paramsOf(fx.here, fx.team.otherAgent.user.id), ...prepared.params }
			const headers: Record<string, string> = { ...prepared.headers, ...bearer(secrets.get(scope) ?? '') }
			let body: string | undefined
			if (prepared.raw) {
				body = prepared.raw.body
				headers['Content-Type'] = prepared.raw.contentType
			} else if (prepared.body !== undefined) {
				body = JSON.stringify(prepared.body)
				headers['Content-Type'] = 'application/json'
			}
			const url = `${api.url}${fillPath(route.path, params)}${prepared.query ? `?${prepared.query}` : ''}`
			const response = await fetch(url, { method: route.method, headers, body })
			await response.text()
			got[scope] = response.status
			// A route naming another workspace (a scratch one, for what would end this one) is 404 to a token before anything else.
			expected[scope] = allowed ? row.expect.admin : params.id && params.id !== fx.here.workspaceId ? 404 : 403
		}
		expect(got, key).toEqual(expected)
	})
})
