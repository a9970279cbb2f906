import { Secret } from 'otpauth'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { issueAccountToken } from '#api/auth/account-tokens.ts'
import { createSession } from '#api/auth/sessions.ts'
import { workspaceChannel } from '#common/realtime.ts'
import { type AuthAnswer, type ErrorAnswer, strongPassword, visitor } from './auth-support.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'
import { seedTwoFactor, totpCode } from './two-factor-support.ts'
import { createTeam } from './workspaces-fixtures.ts'

let api: TestApi
let key: string
beforeAll(async () => {
	api = await startApi()
	key = api.config.ENCRYPTION_KEY
})
afterAll(() => api.close())

type Setup = { secret: string; uri: string; qrSvg: string }
type Challenge = { twoFactorRequired: true; challenge: string; expiresAt: string }
type Codes = { recoveryCodes: string[] }

const db = () => testDb()

/** A six-digit code that is not the current one. */
const wrongCode = (secret: string, steps = 0) => String((Number(totpCode(secret, steps)) + 1) % 1_000_000).padStart(6, '0')

async function sessionsOf(userId: string) {
	return (await db().selectFrom('sessions').select('id').where('userId', '=', userId).execute()).length
}

async function auditKinds(workspaceId: string, actorId: string) {
	return (
		await db().selectFrom('auditEvents').select('kind').where('workspaceId', '=', workspaceId).where('actorId', '=', actorId).orderBy('id').execute()
	).map((row) => row.kind)
}

/** A user with two-step sign-in on (seeded) and their recovery codes (made through the API). */
async function userWithTwoFactor(options: { workspaceId?: string } = {}) {
	const user = await createUser({ workspaceId: options.workspaceId, role: 'owner' })
	const secret = await seedTwoFactor(user.user.id, key, { on: false })
	const enabled = await visitor(api, { auth: user.auth }).post('/two-factor/enable', { code: totpCode(secret) })
	expect(enabled.status).toBe(200)
	return { ...user, secret, recoveryCodes: (enabled.body as Codes).recoveryCodes }
}

async function challengeFor(user: { user: { email: string }; password: string }, options: { ip?: string } = {}) {
	const response = await visitor(api, options).post('/login', { email: user.user.email, password: user.password })
	expect(response.status).toBe(202)
	return (response.body as Challenge).challenge
}

describe('setting two-step sign-in up', () => {
	test('set-up answers a secret, its otpauth URI and a QR code; a right code turns it on with ten recovery codes, once', async () => {
		const workspace = await createWorkspace('Two-step Co')
		const user = await createUser({ workspaceId: workspace.id, role: 'owner' })
		const me = visitor(api, { auth: user.auth })
		expect((await me.request('GET', '/two-factor')).body).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 })

		const setup = await me.post('/two-factor/setup')
		expect(setup.status).toBe(200)
		const { secret, uri, qrSvg } = setup.body as Setup
		expect(secret).toMatch(/^[A-Z2-7]{32}$/)
		expect(uri).toMatch(/^otpauth:\/\/totp\//)
		const parsed = new URL(uri)
		expect(parsed.searchParams.get('secret')).toBe(secret)
		expect(parsed.searchParams.get('issuer')).toBe('crm.test')
		expect(decodeURIComponent(parsed.pathname)).toContain(user.user.email)
		expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/)
		// Sealed at rest: the database holds no plain secret.
		const stored = await db().selectFrom('users').select(['twoFactorSecret', 'twoFactorEnabledAt']).where('id', '=', user.user.id).executeTakeFirstOrThrow()
		expect(stored.twoFactorSecret).toMatch(/^v1\./)
		expect(stored.twoFactorSecret).not.toContain(secret)
		expect(stored.twoFactorEnabledAt).toBeNull()

		// A wrong code: 400 beside the field, in the caller's language; still off.
		const wrong = await visitor(api, { auth: user.auth, language: 'fr-x' }).post('/two-factor/enable', { code: wrongCode(secret) })
		expect(wrong.status).toBe(400)
		expect((wrong.body as ErrorAnswer).details?.fields).toEqual({
			code: ['Ce code n’est pas valide ou a déjà été utilisé. Attendez le code suivant et réessayez.'],
		})
		const notACode = await visitor(api, { auth: user.auth, language: 'ar-eg' }).post('/two-factor/enable', { code: 'abc' })
		expect(notACode.status).toBe(400)
		expect((notACode.body as ErrorAnswer).details?.fields).toEqual({ code: ['أدخل الرمز المكوّن من 6 أرقام من تطبيق المصادقة.'] })

		const enabled = await me.post('/two-factor/enable', { code: totpCode(secret).replace(/^(\d{3})/, '$1 ') })
		expect(enabled.status).toBe(200)
		const { recoveryCodes } = enabled.body as Codes
		expect(recoveryCodes).toHaveLength(10)
		expect(new Set(recoveryCodes).size).toBe(10)
		for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
		// Kept hashed.
		const hashes = await db().selectFrom('twoFactorRecoveryCodes').select('codeHash').where('userId', '=', user.user.id).execute()
		expect(hashes).toHaveLength(10)
		for (const { codeHash } of hashes) expect(recoveryCodes.some((code) => codeHash.includes(code.replace('-', '')))).toBe(false)

		const state = (await me.request('GET', '/two-factor')).body as Record<string, unknown>
		expect(state).toMatchObject({ enabled: true, recoveryCodesLeft: 10 })
		expect(JSON.stringify(state)).not.toContain(secret)
		expect((await me.request('GET', '/profile')).body).toMatchObject({ twoFactorEnabled: true })
		// The secret is never shown again: set-up and enable refuse once it is on.
		expect((await me.post('/two-factor/setup')).status).toBe(409)
		expect((await me.post('/two-factor/enable', { code: totpCode(secret, 1) })).status).toBe(409)
		expect(await auditKinds(workspace.id, user.user.id)).toEqual(['twoFactor.enabled'])
	})

	test('enabling needs a set-up first, a session, and a well-formed body', async () => {
		const user = await createUser()
		const me = visitor(api, { auth: user.auth })
		const early = await me.post('/two-factor/enable', { code: '123456' })
		expect(early.status).toBe(409)
		expect((early.body as ErrorAnswer).message).toBe('Start the set-up first: scan the QR code, then enter a code.')
		expect((await visitor(api).post('/two-factor/setup')).status).toBe(401)
		expect((await me.post('/two-factor/enable', { code: '123456', extra: 1 })).status).toBe(400)
		expect((await me.post('/two-factor/enable', {})).status).toBe(400)
	})

	test('a second set-up replaces an unfinished one: the first secret stops working', async () => {
		const user = await createUser()
		const me = visitor(api, { auth: user.auth })
		const first = (await me.post('/two-factor/setup')).body as Setup
		const second = (await me.post('/two-factor/setup')).body as Setup
		expect(second.secret).not.toBe(first.secret)
		expect((await me.post('/two-factor/enable', { code: totpCode(first.secret) })).status).toBe(400)
		expect((await me.post('/two-factor/enable', { code: totpCode(second.secret) })).status).toBe(200)
	})

	test('wrong codes are rate limited per user (429, translated, Retry-After)', async () => {
		const user = await createUser()
		const me = visitor(api, { auth: user.auth })
		const { secret } = (await me.post('/two-factor/setup')).body as Setup
		const wrong = wrongCode(secret)
		for (let attempt = 0; attempt < 10; attempt++) expect((await me.post('/two-factor/enable', { code: wrong })).status).toBe(400)
		const refused = await visitor(api, { auth: user.auth, language: 'fr-x' }).post('/two-factor/enable', { code: totpCode(secret) })
		expect(refused.status).toBe(429)
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
		expect((refused.body as ErrorAnswer).message).toMatch(/^Trop de tentatives/)
	})
})

describe('signing in with two-step sign-in', () => {
	test('a right password gets a challenge and no session; the challenge and a code get the session', async () => {
		const user = await userWithTwoFactor()
		const before = await sessionsOf(user.user.id)
		const login = await visitor(api).post('/login', { email: user.user.email, password: user.password })
		expect(login.status).toBe(202)
		const { challenge, expiresAt, twoFactorRequired } = login.body as Challenge
		expect(twoFactorRequired).toBe(true)
		expect(challenge).toMatch(/^[\w-]{43}$/)
		expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now())
		expect(login.body).not.toHaveProperty('access_token')
		expect(await sessionsOf(user.user.id)).toBe(before)

		const signedIn = await visitor(api).post('/login/two-factor', { challenge, code: totpCode(user.secret, 1) })
		expect(signedIn.status).toBe(200)
		const answer = signedIn.body as AuthAnswer
		expect(answer.user).toMatchObject({ id: user.user.id, twoFactorEnabled: true })
		expect((await api.request('GET', '/v1/auth/profile', { headers: { Authorization: `Bearer ${answer.access_token}` } })).status).toBe(200)
		// The challenge is spent.
		const again = await visitor(api).post('/login/two-factor', { challenge, code: totpCode(user.secret, 1) })
		expect(again.status).toBe(401)
	})

	test('a wrong password is still the same 401, whether or not two-step sign-in is on', async () => {
		const user = await userWithTwoFactor()
		const response = await visitor(api).post('/login', { email: user.user.email, password: 'Not-the-0ne' })
		expect(response.status).toBe(401)
		expect((response.body as ErrorAnswer).message).toBe('The e-mail address or password is incorrect.')
	})

	test('a code is taken once: the same code again is refused, even on a new challenge', async () => {
		const user = await userWithTwoFactor()
		const code = totpCode(user.secret, 1)
		expect((await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), code })).status).toBe(200)
		const replay = await visitor(api, { language: 'ar-eg' }).post('/login/two-factor', { challenge: await challengeFor(user), code })
		expect(replay.status).toBe(400)
		expect((replay.body as ErrorAnswer).details?.fields).toEqual({ code: ['هذا الرمز غير صالح أو سبق استخدامه. انتظر الرمز التالي وحاول مرة أخرى.'] })
		// Nor an older one: the code the set-up took is behind the last one accepted.
		expect((await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), code: totpCode(user.secret) })).status).toBe(400)
	})

	test('a recovery code signs in once, in any case and with or without its dash', async () => {
		const user = await userWithTwoFactor()
		const [first, second] = user.recoveryCodes as [string, string]
		const once = await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), recoveryCode: ` ${first.toUpperCase()} ` })
		expect(once.status).toBe(200)
		const twice = await visitor(api, { language: 'fr-x' }).post('/login/two-factor', { challenge: await challengeFor(user), recoveryCode: first })
		expect(twice.status).toBe(400)
		expect((twice.body as ErrorAnswer).details?.fields).toEqual({ recoveryCode: ['Ce code de récupération n’est pas valide ou a déjà été utilisé.'] })
		expect((await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), recoveryCode: second.replace('-', '') })).status).toBe(200)
		expect((await visitor(api, { auth: user.auth }).request('GET', '/two-factor')).body).toMatchObject({ recoveryCodesLeft: 8 })
	})

	test('a wrong code leaves the challenge usable; an unknown, expired or foreign challenge is a 401', async () => {
		const user = await userWithTwoFactor()
		const other = await userWithTwoFactor()
		const challenge = await challengeFor(user)
		const wrong = wrongCode(user.secret, 1)
		expect((await visitor(api).post('/login/two-factor', { challenge, code: wrong })).status).toBe(400)
		// Another user's code or recovery code is no code of this one.
		expect((await visitor(api).post('/login/two-factor', { challenge, code: totpCode(other.secret, 1) })).status).toBe(400)
		expect((await visitor(api).post('/login/two-factor', { challenge, recoveryCode: other.recoveryCodes[0] })).status).toBe(400)
		expect((await visitor(api).post('/login/two-factor', { challenge, code: totpCode(user.secret, 1) })).status).toBe(200)

		const unknown = await visitor(api, { language: 'fr-x' }).post('/login/two-factor', { challenge: 'x'.repeat(43), code: '123456' })
		expect(unknown.status).toBe(401)
		expect((unknown.body as ErrorAnswer).message).toBe('Cette étape de connexion a expiré ou a déjà été effectuée. Reconnectez-vous avec votre mot de passe.')

		const stale = await challengeFor(user)
		await db()
			.updateTable('twoFactorChallenges')
			.set({ expiresAt: new Date(Date.now() - 1000) })
			.where('userId', '=', user.user.id)
			.execute()
		expect((await visitor(api).post('/login/two-factor', { challenge: stale, recoveryCode: user.recoveryCodes[3] })).status).toBe(401)
		// The recovery code was not spent on an expired challenge.
		expect((await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), recoveryCode: user.recoveryCodes[3] })).status).toBe(200)
	})

	test('the second step wants exactly one of code and recovery code', async () => {
		const user = await userWithTwoFactor()
		const challenge = await challengeFor(user)
		const both = await visitor(api).post('/login/two-factor', { challenge, code: '123456', recoveryCode: user.recoveryCodes[0] })
		expect(both.status).toBe(400)
		expect((both.body as ErrorAnswer).details?.fields).toEqual({ code: ['Enter either a code from your authenticator app or a recovery code.'] })
		expect((await visitor(api).post('/login/two-factor', { challenge })).status).toBe(400)
		expect((await visitor(api).post('/login/two-factor', { code: '123456' })).status).toBe(400)
	})

	test('two requests racing with one challenge: one session', async () => {
		const user = await userWithTwoFactor()
		const challenge = await challengeFor(user)
		const answers = await Promise.all([
			visitor(api).post('/login/two-factor', { challenge, recoveryCode: user.recoveryCodes[0] }),
			visitor(api).post('/login/two-factor', { challenge, recoveryCode: user.recoveryCodes[1] }),
		])
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401])
	})

	test('wrong codes at the second step are rate limited per user', async () => {
		const user = await userWithTwoFactor()
		const challenge = await challengeFor(user)
		for (let attempt = 0; attempt < 10; attempt++)
			expect((await visitor(api).post('/login/two-factor', { challenge, recoveryCode: `wrong-${attempt}` })).status).toBe(400)
		expect((await visitor(api).post('/login/two-factor', { challenge, recoveryCode: user.recoveryCodes[0] })).status).toBe(429)
	})

	test('a password reset does not turn two-step sign-in off', async () => {
		const user = await userWithTwoFactor()
		const token = await issueAccountToken(db(), user.user.id, 'reset_password')
		expect((await visitor(api).post('/reset-password', { token, password: strongPassword })).status).toBe(200)
		expect(await sessionsOf(user.user.id)).toBe(0)
		const login = await visitor(api).post('/login', { email: user.user.email, password: strongPassword })
		expect(login.status).toBe(202)
		expect(login.body).not.toHaveProperty('access_token')
	})

	test('without two-step sign-in the login answers as before', async () => {
		const user = await createUser()
		const login = await visitor(api).post('/login', { email: user.user.email, password: user.password })
		expect(login.status).toBe(200)
		expect(Object.keys(login.body as object).sort()).toEqual(['access_token', 'user'])
		expect((login.body as AuthAnswer).user).toMatchObject({ twoFactorEnabled: false })
	})
})

describe('turning it off and new recovery codes', () => {
	test('off needs the password and a code or a recovery code; then the login is one step again', async () => {
		const workspace = await createWorkspace('Off Co')
		const user = await userWithTwoFactor({ workspaceId: workspace.id })
		const me = visitor(api, { auth: user.auth })
		const badPassword = await me.post('/two-factor/disable', { password: 'Not-the-0ne', code: totpCode(user.secret, 1) })
		expect(badPassword.status).toBe(400)
		expect((badPassword.body as ErrorAnswer).details?.fields).toEqual({ password: ['Your current password is incorrect.'] })
		expect((await me.post('/two-factor/disable', { password: user.password, recoveryCode: 'aaaaa-bbbbb' })).status).toBe(400)
		expect((await me.post('/two-factor/disable', { password: user.password })).status).toBe(400)
		expect((await me.request('GET', '/two-factor')).body).toMatchObject({ enabled: true })

		expect((await me.post('/two-factor/disable', { password: user.password, recoveryCode: user.recoveryCodes[0] })).status).toBe(204)
		expect((await me.request('GET', '/two-factor')).body).toEqual({ enabled: false, enabledAt: null, recoveryCodesLeft: 0 })
		const stored = await db().selectFrom('users').select(['twoFactorSecret', 'twoFactorEnabledAt']).where('id', '=', user.user.id).executeTakeFirstOrThrow()
		expect(stored).toEqual({ twoFactorSecret: null, twoFactorEnabledAt: null })
		expect(await db().selectFrom('twoFactorRecoveryCodes').select('id').where('userId', '=', user.user.id).execute()).toEqual([])
		expect((await visitor(api).post('/login', { email: user.user.email, password: user.password })).status).toBe(200)
		expect((await me.post('/two-factor/disable', { password: user.password, code: '123456' })).status).toBe(409)
		expect(await auditKinds(workspace.id, user.user.id)).toEqual(['twoFactor.enabled', 'twoFactor.disabled', 'session.signedIn'])
		// The audit lines hold no secret, no code.
		const values = await db().selectFrom('auditEvents').select('values').where('actorId', '=', user.user.id).execute()
		expect(JSON.stringify(values)).not.toMatch(new RegExp([user.secret, ...user.recoveryCodes].join('|')))
	})

	test('new recovery codes need a code and replace the old ones', async () => {
		const user = await userWithTwoFactor()
		const me = visitor(api, { auth: user.auth })
		expect((await me.post('/two-factor/recovery-codes', { code: wrongCode(user.secret, 1) })).status).toBe(400)
		const fresh = await me.post('/two-factor/recovery-codes', { code: totpCode(user.secret, 1) })
		expect(fresh.status).toBe(200)
		const { recoveryCodes } = fresh.body as Codes
		expect(recoveryCodes).toHaveLength(10)
		expect((await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), recoveryCode: user.recoveryCodes[0] })).status).toBe(400)
		expect((await visitor(api).post('/login/two-factor', { challenge: await challengeFor(user), recoveryCode: recoveryCodes[0] })).status).toBe(200)
		const off = await createUser()
		expect((await visitor(api, { auth: off.auth }).post('/two-factor/recovery-codes', { code: '123456' })).status).toBe(409)
	})
})

describe('a workspace that requires two-step sign-in', () => {
	test('only its owner may require it, and only with their own on; the change is in the audit log', async () => {
		const team = await createTeam('Strict Co')
		const path = `/v1/workspaces/${team.workspace.id}`
		const asAdmin = await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: { ...team.admin.auth, 'Accept-Language': 'fr-x' } })
		expect(asAdmin.status).toBe(403)
		expect((asAdmin.body as ErrorAnswer).message).toBe('Seul le propriétaire peut choisir d’exiger la connexion en deux étapes.')
		// An admin may still change the rest.
		expect((await api.request('PATCH', path, { body: { logoColor: '#112233' }, headers: team.admin.auth })).status).toBe(200)
		const ownerFirst = await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: team.owner.auth })
		expect(ownerFirst.status).toBe(409)
		expect((ownerFirst.body as ErrorAnswer).details?.fields).toEqual({
			requireTwoFactor: ['Turn on two-step sign-in for your own account before requiring it of the members.'],
		})
		expect((await api.request('PATCH', path, { body: { requireTwoFactor: 'yes' }, headers: team.owner.auth })).status).toBe(400)

		await seedTwoFactor(team.owner.user.id, key, { on: true })
		const required = await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: team.owner.auth })
		expect(required.status).toBe(200)
		expect(required.body).toMatchObject({ requireTwoFactor: true })
		// Saying it again changes nothing and writes nothing.
		expect((await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: team.owner.auth })).status).toBe(200)
		expect((await api.request('PATCH', path, { body: { requireTwoFactor: false }, headers: team.owner.auth })).status).toBe(200)
		expect(await auditKinds(team.workspace.id, team.owner.user.id)).toEqual(['workspace.twoFactorRequired', 'workspace.twoFactorOptional'])
	})

	test('its routes answer a translated 403 to a member without two-step sign-in until they turn it on; other workspaces are untouched', async () => {
		const team = await createTeam('Required Co')
		await seedTwoFactor(team.owner.user.id, key, { on: true })
		const path = `/v1/workspaces/${team.workspace.id}`
		expect((await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: team.owner.auth })).status).toBe(200)

		// The agent is also a member of a workspace that does not require it.
		const relaxed = await createWorkspace('Relaxed Co')
		await db().insertInto('members').values({ workspaceId: relaxed.id, userId: team.agent.user.id, role: 'agent' }).execute()

		const contacts = await api.request('GET', `${path}/contacts`, { headers: { ...team.agent.auth, 'Accept-Language': 'ar-eg' } })
		expect(contacts.status).toBe(403)
		expect(contacts.body).toEqual({
			message: 'تتطلب مساحة العمل هذه تسجيل الدخول بخطوتين. فعّله من ملفك الشخصي للمتابعة.',
			statusCode: 403,
			details: { reason: 'twoFactorRequired' },
		})
		for (const route of ['/conversations?status=all', '/members', '/labels', '/overview']) {
			expect((await api.request('GET', `${path}${route}`, { headers: team.agent.auth })).status, route).toBe(403)
		}
		expect(
			(
				await api.request('POST', '/v1/realtime/auth', {
					body: { socket_id: '1234.5678', channel_name: workspaceChannel(team.workspace.id) },
					headers: team.agent.auth,
				})
			).status,
		).toBe(403)
		// The workspace itself stays readable, so a page can say why; the owner (with it on) works as before.
		expect((await api.request('GET', path, { headers: team.agent.auth })).body).toMatchObject({ requireTwoFactor: true, role: 'agent' })
		expect((await api.request('GET', `${path}/contacts`, { headers: team.owner.auth })).status).toBe(200)
		// Elsewhere the agent works; an outsider still learns nothing (404, not 403).
		expect((await api.request('GET', `/v1/workspaces/${relaxed.id}/contacts`, { headers: team.agent.auth })).status).toBe(200)
		expect((await api.request('GET', `${path}/contacts`, { headers: team.outsider.auth })).status).toBe(404)
		expect((await api.request('GET', `/v1/workspaces/${team.elsewhere.id}/contacts`, { headers: team.outsider.auth })).status).toBe(200)

		// Turned on through the API: the workspace opens.
		const { secret } = (await visitor(api, { auth: team.agent.auth }).post('/two-factor/setup')).body as Setup
		expect(Secret.fromBase32(secret).bytes.length).toBe(20)
		expect((await visitor(api, { auth: team.agent.auth }).post('/two-factor/enable', { code: totpCode(secret) })).status).toBe(200)
		expect((await api.request('GET', `${path}/contacts`, { headers: team.agent.auth })).status).toBe(200)
		// Enabling is said in each of the agent's workspaces.
		expect(await auditKinds(team.workspace.id, team.agent.user.id)).toEqual(['twoFactor.enabled'])
		expect(await auditKinds(relaxed.id, team.agent.user.id)).toEqual(['twoFactor.enabled'])
	})

	test('a session opened with a password alone is refused, even once two-step sign-in is on; turning it on or off ends the other sessions', async () => {
		const team = await createTeam('Sessions Co')
		await seedTwoFactor(team.owner.user.id, key, { on: true })
		const path = `/v1/workspaces/${team.workspace.id}`
		expect((await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: team.owner.auth })).status).toBe(200)

		// The agent signed in on a second device, with a password, before turning two-step sign-in on from the first.
		const laptop = { Authorization: `Bearer ${await createSession(db(), team.agent.user.id)}` }
		const secret = await seedTwoFactor(team.agent.user.id, key, { on: false })
		const enabled = await visitor(api, { auth: team.agent.auth }).post('/two-factor/enable', { code: totpCode(secret) })
		expect(enabled.status).toBe(200)
		expect((await api.request('GET', `${path}/contacts`, { headers: team.agent.auth })).status).toBe(200)
		expect((await api.request('GET', '/v1/auth/profile', { headers: laptop })).status).toBe(401)

		// A password-only session of a user who has it on (one that outlived the change): told to sign in again with the code.
		const old = { Authorization: `Bearer ${await createSession(db(), team.agent.user.id)}` }
		const refused = await api.request('GET', `${path}/contacts`, { headers: { ...old, 'Accept-Language': 'fr-x' } })
		expect(refused.status).toBe(403)
		expect(refused.body).toMatchObject({
			details: { reason: 'twoFactorSession' },
			message: expect.stringMatching(/^Cet espace de travail exige la connexion en deux étapes, et cette session/),
		})
		expect(
			(await api.request('POST', '/v1/realtime/auth', { body: { socket_id: '1234.5678', channel_name: workspaceChannel(team.workspace.id) }, headers: old }))
				.status,
		).toBe(403)
		// Nor may the owner require it from such a session.
		const ownerOld = { Authorization: `Bearer ${await createSession(db(), team.owner.user.id)}` }
		const owner = await api.request('PATCH', path, { body: { requireTwoFactor: true }, headers: ownerOld })
		expect(owner.status).toBe(403)

		// A sign-in with the code opens the workspace.
		const challenge = await challengeFor(team.agent)
		const signedIn = await visitor(api).post('/login/two-factor', { challenge, code: totpCode(secret, 1) })
		expect(signedIn.status).toBe(200)
		const fresh = { Authorization: `Bearer ${(signedIn.body as AuthAnswer).access_token}` }
		expect((await api.request('GET', `${path}/contacts`, { headers: fresh })).status).toBe(200)

		// Turning it off ends every session but the one that did it.
		const off = await visitor(api, { auth: fresh }).post('/two-factor/disable', {
			password: team.agent.password,
			recoveryCode: (enabled.body as Codes).recoveryCodes[0],
		})
		expect(off.status).toBe(204)
		expect((await api.request('GET', '/v1/auth/profile', { headers: team.agent.auth })).status).toBe(401)
		expect((await api.request('GET', '/v1/auth/profile', { headers: fresh })).status).toBe(200)
		expect((await api.request('GET', `${path}/contacts`, { headers: fresh })).body).toMatchObject({ details: { reason: 'twoFactorRequired' } })
	})

	test('a member who will not turn it on may still leave', async () => {
		const team = await createTeam('Leaving Co')
		await seedTwoFactor(team.owner.user.id, key, { on: true })
		expect((await api.request('PATCH', `/v1/workspaces/${team.workspace.id}`, { body: { requireTwoFactor: true }, headers: team.owner.auth })).status).toBe(200)
		expect((await api.request('POST', `/v1/workspaces/${team.workspace.id}/leave`, { headers: team.agent.auth })).status).toBe(204)
	})
})
