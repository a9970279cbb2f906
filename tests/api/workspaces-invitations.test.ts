import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { mailsTo, waitForMail } from './auth-support.ts'
import { createUser, startApi, testDb, uniqueEmail, type TestApi } from './harness.ts'
import { createTeam, currentWorkspaceOf, rolesIn, type Team } from './workspaces-fixtures.ts'

let api: TestApi
beforeAll(async () => {
	api = await startApi()
})
afterAll(() => api.close())

type InvitationBody = {
	id: string
	code: string
	method: 'link' | 'email'
	email: string | null
	role: string
	expiresAt: string
	maxUses: number | null
	uses: number
	revoked: boolean
	createdAt: string
	createdByName: string | null
	url: string
}

const day = 86_400_000

async function invite(team: Team, body: Record<string, unknown>, headers: Record<string, string> = {}) {
	const response = await api.request('POST', `/v1/workspaces/${team.workspace.id}/invitations`, { body, headers: { ...team.admin.auth, ...headers } })
	return { ...response, invitation: response.body as InvitationBody }
}

function accept(auth: Record<string, string>, body: { code: string; method: string; makeCurrent?: boolean }, headers: Record<string, string> = {}) {
	return api.request('POST', '/v1/workspaces/invitations/accept', { body, headers: { ...auth, ...headers } })
}

function preview(body: unknown, headers: Record<string, string> = {}) {
	return api.request('POST', '/v1/workspaces/invitations/preview', { body, headers })
}

/** The one mail to `address`, once the job queue has sent it. */
async function mailTo(address: string) {
	const mail = await waitForMail(api, address)
	expect(await mailsTo(api, address)).toHaveLength(1)
	return mail
}

describe('creating invitations', () => {
	test('a link invitation: 128-bit code, 7 days, unlimited, with the sign-up link in the caller’s locale', async () => {
		const team = await createTeam()
		const before = Date.now()
		const { status, invitation } = await invite(team, { method: 'link', role: 'agent' }, { 'Accept-Language': 'fr-FR' })
		expect(status).toBe(201)
		expect(invitation).toMatchObject({
			method: 'link',
			email: null,
			role: 'agent',
			maxUses: null,
			uses: 0,
			revoked: false,
			createdByName: team.admin.user.name,
		})
		expect(invitation.code).toMatch(/^[\w-]{22}$/)
		expect(invitation.url).toBe(`http://crm.test/fr-x/auth/signup?agent_invite_code=${invitation.code}&agent_invite_method=link`)
		const expires = new Date(invitation.expiresAt).getTime()
		expect(expires).toBeGreaterThanOrEqual(before + 7 * day)
		expect(expires).toBeLessThanOrEqual(Date.now() + 7 * day)
		const stored = await testDb().selectFrom('invitations').selectAll().where('id', '=', invitation.id).executeTakeFirstOrThrow()
		expect(stored).toMatchObject({ workspaceId: team.workspace.id, code: invitation.code, createdBy: team.admin.user.id })
	})

	test('codes differ every time', async () => {
		const team = await createTeam()
		const codes = await Promise.all(Array.from({ length: 5 }, () => invite(team, { method: 'link', role: 'admin' })))
		expect(new Set(codes.map((response) => response.invitation.code)).size).toBe(5)
	})

	test('expiry and use limits are honoured within their bounds', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'admin', expiresInDays: 30, maxUses: 1000 })
		expect(invitation).toMatchObject({ role: 'admin', maxUses: 1000 })
		expect(new Date(invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(29.9 * day)

		const refused = await invite(team, { method: 'fax', role: 'owner', expiresInDays: 31, maxUses: 0 })
		expect(refused.status).toBe(400)
		expect(refused.body).toMatchObject({
			details: {
				fields: {
					method: ['Choose one of: link, email.'],
					role: ['Choose one of: admin, agent.'],
					expiresInDays: ['Must be at most 30.'],
					maxUses: ['Must be at least 1.'],
				},
			},
		})
		const more = await invite(team, { method: 'link', role: 'agent', expiresInDays: 0, maxUses: 1001 })
		expect(more.body).toMatchObject({ details: { fields: { expiresInDays: ['Must be at least 1.'], maxUses: ['Must be at most 1000.'] } } })
	})

	test('an e-mail invitation needs an address and mails the link, translated', async () => {
		const team = await createTeam('Maison Dupont')
		await testDb().updateTable('workspaces').set({ defaultLocale: 'fr-x', timezone: 'Europe/Paris' }).where('id', '=', team.workspace.id).execute()
		const missing = await invite(team, { method: 'email', role: 'agent' })
		expect(missing.status).toBe(400)
		expect(missing.body).toMatchObject({ details: { fields: { email: ['This field is required.'] } } })
		const invalid = await invite(team, { method: 'email', role: 'agent', email: 'not-an-address' })
		expect(invalid.body).toMatchObject({ details: { fields: { email: ['Enter a valid e-mail address.'] } } })

		const address = uniqueEmail('invitee')
		const { status, invitation } = await invite(team, { method: 'email', role: 'agent', email: `  ${address.toUpperCase()} ` })
		expect(status).toBe(201)
		expect(invitation).toMatchObject({ method: 'email', email: address, maxUses: 1 })
		expect(invitation.url).toBe(`http://crm.test/en-us/auth/signup?agent_invite_code=${invitation.code}&agent_invite_method=email`)

		// A stranger to the product gets the workspace's language, with a link into that locale.
		const mail = await mailTo(address)
		expect(mail.subject).toBe(`${team.admin.user.name} vous invite à rejoindre Maison Dupont`)
		expect(mail.language).toBe('fr-x')
		const { text } = mail
		expect(text).toContain(`${team.admin.user.name} vous invite à rejoindre l’espace de travail Maison Dupont en tant qu’agent.`)
		expect(text).toContain(`http://crm.test/fr-x/auth/signup?agent_invite_code=${invitation.code}&agent_invite_method=email`)
		expect(text).toMatch(/Cette invitation expire le .*\d{4}/)
		expect(mail.html).toContain('<a href=')
	})

	test('an existing user is mailed in their own language', async () => {
		const team = await createTeam()
		const { user } = await createUser({ email: uniqueEmail('arabic') })
		await testDb().updateTable('users').set({ locale: 'ar-eg' }).where('id', '=', user.id).execute()
		const { invitation } = await invite(team, { method: 'email', role: 'admin', email: user.email })
		const mail = await mailTo(user.email)
		expect(mail.subject).toBe(`دعاك ${team.admin.user.name} للانضمام إلى ${team.workspace.name}`)
		const { text } = mail
		expect(text).toContain('بصفتك مسؤولًا')
		expect(text).toContain(`http://crm.test/ar-eg/auth/signup?agent_invite_code=${invitation.code}&agent_invite_method=email`)
	})

	test('the HTML part escapes the workspace name', async () => {
		const team = await createTeam('<b>Bold</b> & Co')
		const address = uniqueEmail('html')
		await invite(team, { method: 'email', role: 'agent', email: address })
		const { html } = await mailTo(address)
		expect(html).toContain('&#60;b&#62;Bold&#60;/b&#62; &#38; Co')
		expect(html).not.toContain('<b>Bold</b>')
		expect(html).toMatch(/<a href="http:\/\/crm\.test\/en-us\/auth\/signup\?agent_invite_code=[\w-]{22}&#38;agent_invite_method=email"/)
	})

	test('a member’s own address is refused', async () => {
		const team = await createTeam()
		const response = await invite(team, { method: 'email', role: 'agent', email: team.agent.user.email })
		expect(response.status).toBe(409)
		expect(response.body).toMatchObject({ message: `${team.agent.user.email} is already a member of this workspace.` })
	})

	test('an inviter whose own e-mail is not confirmed mails nobody, in their language; a link still works', async () => {
		const team = await createTeam()
		const unverified = await createUser({ workspaceId: team.workspace.id, role: 'admin', verified: false })
		const { auth } = unverified
		const address = uniqueEmail('never-mailed')
		const refused = await invite(team, { method: 'email', role: 'agent', email: address }, { ...auth, 'Accept-Language': 'fr-x' })
		expect(refused.status).toBe(403)
		expect(refused.body).toMatchObject({ message: expect.stringMatching(/^Confirmez votre adresse e-mail avant d’inviter par e-mail/) })
		expect((await invite(team, { method: 'link', role: 'agent' }, auth)).status).toBe(201)
		expect(await mailsTo(api, address)).toEqual([])
		// Nor mails again an invitation someone else made.
		const { invitation } = await invite(team, { method: 'email', role: 'agent', email: uniqueEmail() })
		const again = await api.request('POST', `/v1/workspaces/${team.workspace.id}/invitations/${invitation.id}/resend`, { headers: auth })
		expect(again.status).toBe(403)
	})

	test('one address gets at most 10 invitation mails a day, whatever the workspaces; one inviter makes at most 30 an hour', async () => {
		const address = uniqueEmail('flooded')
		const [first, second] = [await createTeam(), await createTeam()]
		for (let n = 0; n < 5; n++) expect((await invite(first, { method: 'email', role: 'agent', email: address })).status).toBe(201)
		for (let n = 0; n < 5; n++) expect((await invite(second, { method: 'email', role: 'agent', email: address })).status).toBe(201)
		const flooded = await invite(first, { method: 'email', role: 'agent', email: address }, { 'Accept-Language': 'ar-eg' })
		expect(flooded.status).toBe(429)
		expect(flooded.body).toMatchObject({ message: expect.stringContaining('محاولات كثيرة') })
		expect((await invite(first, { method: 'email', role: 'agent', email: uniqueEmail() })).status).toBe(201)

		const busy = await createTeam()
		for (let n = 0; n < 30; n++) expect((await invite(busy, { method: 'link', role: 'agent' })).status).toBe(201)
		const refused = await invite(busy, { method: 'link', role: 'agent' })
		expect(refused.status).toBe(429)
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
		// Another manager of the same workspace still invites.
		expect((await invite(busy, { method: 'link', role: 'agent' }, busy.owner.auth)).status).toBe(201)
	})
})

describe('listing and revoking', () => {
	test('lists the workspace’s invitations, newest first, with their links', async () => {
		const team = await createTeam()
		const first = await invite(team, { method: 'link', role: 'agent' })
		const second = await api.request('POST', `/v1/workspaces/${team.workspace.id}/invitations`, {
			body: { method: 'email', role: 'admin', email: uniqueEmail() },
			headers: team.owner.auth,
		})
		const response = await api.request('GET', `/v1/workspaces/${team.workspace.id}/invitations`, {
			headers: { ...team.owner.auth, 'Accept-Language': 'ar-eg' },
		})
		expect(response.status).toBe(200)
		const { invitations } = response.body as { invitations: InvitationBody[] }
		expect(invitations.map((invitation) => invitation.id)).toEqual([(second.body as InvitationBody).id, first.invitation.id])
		expect(invitations[0]).toMatchObject({ createdByName: team.owner.user.name, method: 'email', role: 'admin' })
		expect(invitations[1]).toMatchObject({ createdByName: team.admin.user.name, code: first.invitation.code })
		expect(invitations[1]!.url).toBe(`http://crm.test/ar-eg/auth/signup?agent_invite_code=${first.invitation.code}&agent_invite_method=link`)
	})

	test('revoking marks the invitation and keeps it listed; revoking twice is harmless', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'agent' })
		const path = `/v1/workspaces/${team.workspace.id}/invitations/${invitation.id}`
		expect((await api.request('DELETE', path, { headers: team.admin.auth })).status).toBe(204)
		const revokedAt = (await testDb().selectFrom('invitations').select('revokedAt').where('id', '=', invitation.id).executeTakeFirstOrThrow()).revokedAt
		expect(revokedAt).toBeInstanceOf(Date)
		expect((await api.request('DELETE', path, { headers: team.owner.auth })).status).toBe(204)
		const again = (await testDb().selectFrom('invitations').select('revokedAt').where('id', '=', invitation.id).executeTakeFirstOrThrow()).revokedAt
		expect(again).toEqual(revokedAt)
		const list = await api.request('GET', `/v1/workspaces/${team.workspace.id}/invitations`, { headers: team.admin.auth })
		expect((list.body as { invitations: InvitationBody[] }).invitations).toEqual([expect.objectContaining({ id: invitation.id, revoked: true })])
	})

	test('an unknown invitation is 404', async () => {
		const team = await createTeam()
		const response = await api.request('DELETE', `/v1/workspaces/${team.workspace.id}/invitations/00000000-0000-4000-8000-000000000000`, {
			headers: team.admin.auth,
		})
		expect(response.status).toBe(404)
		expect(response.body).toMatchObject({ message: 'This invitation does not exist.' })
	})
})

describe('mailing an invitation again', () => {
	const resend = (team: Team, id: string, auth = team.admin.auth, headers: Record<string, string> = {}) =>
		api.request('POST', `/v1/workspaces/${team.workspace.id}/invitations/${id}/resend`, { headers: { ...auth, ...headers } })

	test('queues the same invitation’s mail again, in the caller’s words', async () => {
		const team = await createTeam()
		const address = uniqueEmail('again')
		const { invitation } = await invite(team, { method: 'email', role: 'agent', email: address })
		await waitForMail(api, address)
		const response = await resend(team, invitation.id, team.admin.auth, { 'Accept-Language': 'fr-x' })
		expect(response.status).toBe(202)
		expect(response.body).toEqual({ message: `L’invitation a été renvoyée à ${address}.` })
		const again = await waitForMail(api, address, 2)
		expect(again.text).toContain(`agent_invite_code=${invitation.code}`)
	})

	test('refuses a link, a revoked, expired or used-up invitation, an agent and another workspace’s invitation', async () => {
		const team = await createTeam()
		const link = await invite(team, { method: 'link', role: 'agent' })
		const linkAnswer = await resend(team, link.invitation.id)
		expect(linkAnswer.status).toBe(422)
		expect(linkAnswer.body).toMatchObject({ message: "Only an invitation sent by e-mail can be sent again. Share this invitation's link instead." })

		const changes = [{ revokedAt: new Date() }, { expiresAt: new Date(Date.now() - 1000) }, { uses: 1 }]
		for (const change of changes) {
			const { invitation } = await invite(team, { method: 'email', role: 'agent', email: uniqueEmail() })
			await testDb().updateTable('invitations').set(change).where('id', '=', invitation.id).execute()
			const answer = await resend(team, invitation.id, team.admin.auth, { 'Accept-Language': 'ar-eg' })
			expect(answer.status).toBe(410)
			expect(answer.body).toMatchObject({ message: 'لم يعد من الممكن إرسال هذه الدعوة: فقد سُحبت أو انتهت صلاحيتها أو استُخدمت. أنشئ دعوة جديدة.' })
		}

		const { invitation } = await invite(team, { method: 'email', role: 'agent', email: uniqueEmail() })
		expect((await resend(team, invitation.id, team.agent.auth)).status).toBe(403)
		const other = await createTeam()
		expect((await resend(other, invitation.id)).status).toBe(404)
		expect((await resend(team, 'not-an-id')).status).toBe(404)
	})

	test('five times an hour per invitation at most', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'email', role: 'agent', email: uniqueEmail() })
		for (let time = 0; time < 5; time++) expect((await resend(team, invitation.id)).status).toBe(202)
		const refused = await resend(team, invitation.id, team.owner.auth)
		expect(refused.status).toBe(429)
		expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
	})
})

describe('accepting', () => {
	test('a new user joins with the invited role, the workspace becomes current, and a use is counted', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'admin', maxUses: 2 })
		const newcomer = await createUser()
		const response = await accept(newcomer.auth, { code: invitation.code, method: 'link' })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({
			user: { id: newcomer.user.id, workspace: { id: team.workspace.id, role: 'admin' } },
			workspace: { id: team.workspace.id, name: team.workspace.name, role: 'admin' },
		})
		expect((await rolesIn(team.workspace.id))[newcomer.user.id]).toBe('admin')
		expect(await currentWorkspaceOf(newcomer.user.id)).toBe(team.workspace.id)
		const stored = await testDb().selectFrom('invitations').select('uses').where('id', '=', invitation.id).executeTakeFirstOrThrow()
		expect(stored.uses).toBe(1)
		const members = await api.request('GET', `/v1/workspaces/${team.workspace.id}/members`, { headers: newcomer.auth })
		expect(members.status).toBe(200)
	})

	test('someone already a member keeps their role, switches, and uses nothing up', async () => {
		const team = await createTeam()
		await testDb().updateTable('users').set({ currentWorkspaceId: null }).where('id', '=', team.agent.user.id).execute()
		const { invitation } = await invite(team, { method: 'link', role: 'admin', maxUses: 1 })
		const response = await accept(team.agent.auth, { code: invitation.code, method: 'link' })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ workspace: { id: team.workspace.id, role: 'agent' }, user: { workspace: { role: 'agent' } } })
		expect((await rolesIn(team.workspace.id))[team.agent.user.id]).toBe('agent')
		expect(await currentWorkspaceOf(team.agent.user.id)).toBe(team.workspace.id)
		// The owner is not demoted by an agent invitation either.
		const { invitation: agentInvitation } = await invite(team, { method: 'link', role: 'agent' })
		await accept(team.owner.auth, { code: agentInvitation.code, method: 'link' })
		expect((await rolesIn(team.workspace.id))[team.owner.user.id]).toBe('owner')
		const stored = await testDb().selectFrom('invitations').select('uses').where('id', '=', invitation.id).executeTakeFirstOrThrow()
		expect(stored.uses).toBe(0)
	})

	test('an e-mail invitation is for that address only, whatever its case', async () => {
		const team = await createTeam()
		const invitee = await createUser({ email: uniqueEmail('invitee') })
		const stranger = await createUser()
		const { invitation } = await invite(team, { method: 'email', role: 'agent', email: invitee.user.email })
		const refused = await accept(stranger.auth, { code: invitation.code, method: 'email' })
		expect(refused.status).toBe(403)
		expect(refused.body).toEqual({
			message: 'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
			statusCode: 403,
			details: null,
		})
		expect(await rolesIn(team.workspace.id)).not.toHaveProperty(stranger.user.id)
		await testDb().updateTable('users').set({ email: invitee.user.email.toUpperCase() }).where('id', '=', invitee.user.id).execute()
		const accepted = await accept(invitee.auth, { code: invitation.code, method: 'email' })
		expect(accepted.status).toBe(200)
		expect((await rolesIn(team.workspace.id))[invitee.user.id]).toBe('agent')
	})

	test('a limited invitation stops at its limit, even when accepted at the same moment', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'agent', maxUses: 2 })
		const people = await Promise.all(Array.from({ length: 4 }, () => createUser()))
		const responses = await Promise.all(people.map((person) => accept(person.auth, { code: invitation.code, method: 'link' })))
		expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 410, 410])
		const stored = await testDb().selectFrom('invitations').select('uses').where('id', '=', invitation.id).executeTakeFirstOrThrow()
		expect(stored.uses).toBe(2)
		expect(Object.keys(await rolesIn(team.workspace.id))).toHaveLength(6)
	})

	test('makeCurrent: false joins and leaves the user in their current workspace; one without any is moved anyway', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'agent' })
		const elsewhere = await createTeam()
		const busy = elsewhere.agent
		const response = await accept(busy.auth, { code: invitation.code, method: 'link', makeCurrent: false })
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ user: { workspace: { id: elsewhere.workspace.id } }, workspace: { id: team.workspace.id, role: 'agent' } })
		expect((await rolesIn(team.workspace.id))[busy.user.id]).toBe('agent')
		expect(await currentWorkspaceOf(busy.user.id)).toBe(elsewhere.workspace.id)

		const newcomer = await createUser()
		const moved = await accept(newcomer.auth, { code: invitation.code, method: 'link', makeCurrent: false })
		expect(moved.body).toMatchObject({ user: { workspace: { id: team.workspace.id } } })
		expect(await currentWorkspaceOf(newcomer.user.id)).toBe(team.workspace.id)

		// A current workspace they were removed from is no place to stay.
		const removed = await createUser({ workspaceId: elsewhere.workspace.id })
		await testDb().deleteFrom('members').where('userId', '=', removed.user.id).execute()
		await accept(removed.auth, { code: invitation.code, method: 'link', makeCurrent: false })
		expect(await currentWorkspaceOf(removed.user.id)).toBe(team.workspace.id)
	})

	test('needs a session', async () => {
		const response = await api.request('POST', '/v1/workspaces/invitations/accept', { body: { code: 'x', method: 'link' } })
		expect(response.status).toBe(401)
	})
})

describe('invitations that cannot be used', () => {
	async function setUp() {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'agent' })
		const newcomer = await createUser()
		return { team, invitation, newcomer }
	}

	const cases: Array<{
		name: string
		change?: (id: string) => Promise<unknown>
		body?: (code: string) => { code: string; method: string }
		status: number
		messages: Record<'en-us' | 'fr-x' | 'ar-eg', string>
	}> = [
		{
			name: 'unknown',
			body: () => ({ code: 'no-such-code-AAAAAAAAAA', method: 'link' }),
			status: 404,
			messages: {
				'en-us': 'This invitation link is not valid. Check that you copied all of it, or ask for a new one.',
				'fr-x': 'Ce lien d’invitation n’est pas valide. Vérifiez que vous l’avez copié en entier, ou demandez-en un nouveau.',
				'ar-eg': 'رابط الدعوة هذا غير صالح. تأكد من أنك نسخته كاملًا، أو اطلب رابطًا جديدًا.',
			},
		},
		{
			name: 'method mismatch',
			body: (code) => ({ code, method: 'email' }),
			status: 422,
			messages: {
				'en-us': 'This invitation link was altered. Open the link exactly as you received it.',
				'fr-x': 'Ce lien d’invitation a été modifié. Ouvrez le lien exactement tel que vous l’avez reçu.',
				'ar-eg': 'تم تعديل رابط الدعوة هذا. افتح الرابط تمامًا كما وصلك.',
			},
		},
		{
			name: 'revoked',
			change: (id) => testDb().updateTable('invitations').set({ revokedAt: new Date() }).where('id', '=', id).execute(),
			status: 410,
			messages: {
				'en-us': "This invitation was withdrawn. Ask the workspace's administrator for a new one.",
				'fr-x': 'Cette invitation a été retirée. Demandez-en une nouvelle à l’administrateur de l’espace de travail.',
				'ar-eg': 'سُحبت هذه الدعوة. اطلب دعوة جديدة من مسؤول مساحة العمل.',
			},
		},
		{
			name: 'expired',
			change: (id) =>
				testDb()
					.updateTable('invitations')
					.set({ expiresAt: new Date(Date.now() - 1000) })
					.where('id', '=', id)
					.execute(),
			status: 410,
			messages: {
				'en-us': "This invitation has expired. Ask the workspace's administrator for a new one.",
				'fr-x': 'Cette invitation a expiré. Demandez-en une nouvelle à l’administrateur de l’espace de travail.',
				'ar-eg': 'انتهت صلاحية هذه الدعوة. اطلب دعوة جديدة من مسؤول مساحة العمل.',
			},
		},
		{
			name: 'used up',
			change: (id) => testDb().updateTable('invitations').set({ maxUses: 3, uses: 3 }).where('id', '=', id).execute(),
			status: 410,
			messages: {
				'en-us': "This invitation has already been used as many times as allowed. Ask the workspace's administrator for a new one.",
				'fr-x': 'Cette invitation a déjà été utilisée autant de fois que permis. Demandez-en une nouvelle à l’administrateur de l’espace de travail.',
				'ar-eg': 'استُخدمت هذه الدعوة بالعدد الأقصى المسموح به. اطلب دعوة جديدة من مسؤول مساحة العمل.',
			},
		},
	]

	test.each(cases)('$name: accept and preview answer $status with their own message, and nobody joins', async ({ change, body, status, messages }) => {
		const { team, invitation, newcomer } = await setUp()
		await change?.(invitation.id)
		const request = body?.(invitation.code) ?? { code: invitation.code, method: 'link' }
		for (const [locale, message] of Object.entries(messages)) {
			const accepted = await accept(newcomer.auth, request, { 'Accept-Language': locale })
			expect(accepted.status).toBe(status)
			expect(accepted.body).toEqual({ message, statusCode: status, details: null })
			const previewed = await preview(request, { 'Accept-Language': locale })
			expect(previewed.status).toBe(status)
			expect(previewed.body).toEqual({ message, statusCode: status, details: null })
		}
		expect(await rolesIn(team.workspace.id)).not.toHaveProperty(newcomer.user.id)
		expect(await currentWorkspaceOf(newcomer.user.id)).toBeNull()
	})

	test('every reason has its own message', () => {
		expect(new Set(cases.map((item) => item.messages['en-us'])).size).toBe(cases.length)
	})
})

describe('POST /v1/workspaces/invitations/preview', () => {
	test('tells a visitor without a session which workspace invites them, and who', async () => {
		const team = await createTeam('Preview Co')
		const { invitation } = await invite(team, { method: 'link', role: 'admin' })
		const response = await preview({ code: invitation.code, method: 'link' })
		expect(response.status).toBe(200)
		expect(response.body).toEqual({ workspaceName: 'Preview Co', inviterName: team.admin.user.name, role: 'admin', expiresAt: invitation.expiresAt })
	})

	test('an inviter whose account is gone is named by nobody', async () => {
		const team = await createTeam()
		const { invitation } = await invite(team, { method: 'link', role: 'agent' })
		await testDb().updateTable('invitations').set({ createdBy: null }).where('id', '=', invitation.id).execute()
		const response = await preview({ code: invitation.code, method: 'link' })
		expect(response.body).toMatchObject({ inviterName: null })
	})

	test('refuses a malformed request', async () => {
		const response = await preview({ method: 'sms' })
		expect(response.status).toBe(400)
		expect(response.body).toMatchObject({ details: { fields: { code: ['This field is required.'], method: ['Choose one of: link, email.'] } } })
	})
})
