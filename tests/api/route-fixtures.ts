import crypto from 'node:crypto'
import { expect } from 'vitest'
import { type Role } from '#api/db/schema.ts'
import { testDb, uniqueEmail, type TestApi } from './harness.ts'
import { createTeam, type Team, type TestUser } from './workspaces-fixtures.ts'

/** What one workspace holds for the route matrix: one of each thing a route can name. */
export type Holdings = {
	workspaceId: string
	workspaceName: string
	owner: TestUser
	channel: { id: string; slug: string }
	contact: { id: string }
	label: { id: string }
	/** A team of the workspace (named so beside the fixtures' `team`, which is its people). */
	teamOf: { id: string }
	canned: { id: string }
	conversation: { id: string; number: number }
	/** A reply of the team with a file, in the visitor's conversation. */
	message: { id: string }
	attachment: { id: string }
	campaign: { id: string }
	invitation: { id: string; code: string }
	/** An automation rule, naming the label. */
	rule: { id: string }
	/** The link visitor who wrote the conversation. */
	visitorToken: string
}

/** This workspace (with one member of each role) and another (the outsider's), each holding one of everything. */
export type Fixtures = { api: TestApi; team: Team; here: Holdings; elsewhere: Holdings; marker: string }

export const newVisitorToken = () => crypto.randomBytes(24).toString('base64url')

async function call(api: TestApi, method: string, path: string, auth: Record<string, string>, init: { body?: unknown; headers?: Record<string, string> } = {}) {
	const response = await api.request(method, path, { body: init.body, headers: { ...auth, ...init.headers } })
	expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
	return response.body as Record<string, unknown>
}

/** One of everything in `workspaceId`, made through the API as its owner (and a visitor of its link), named with `prefix`. */
async function hold(api: TestApi, workspaceId: string, workspaceName: string, owner: TestUser, prefix: string): Promise<Holdings> {
	const base = `/v1/workspaces/${workspaceId}`
	const auth = owner.auth
	const label = await call(api, 'POST', `${base}/labels`, auth, { body: { title: `${prefix}-label`, color: '#336699' } })
	const contact = await call(api, 'POST', `${base}/contacts`, auth, {
		body: { name: `${prefix} contact`, email: uniqueEmail(prefix.toLowerCase()), labelIds: [label.id] },
	})
	const teamOf = await call(api, 'POST', `${base}/teams`, auth, { body: { name: `${prefix} team`, userIds: [owner.user.id] } })
	const canned = await call(api, 'POST', `${base}/canned-responses`, auth, { body: { shortCode: `${prefix}-hello`, content: `${prefix} says hello` } })
	const channel = await call(api, 'POST', `${base}/channels`, auth, { body: { kind: 'link', name: `${prefix} site` } })
	const visitorToken = newVisitorToken()
	const written = await call(
		api,
		'POST',
		`/v1/link/${String(channel.slug)}/messages`,
		{},
		{ body: { body: `${prefix} visitor writes`, name: `${prefix} visitor` }, headers: { 'X-Visitor-Token': visitorToken } },
	)
	const conversation = await testDb()
		.selectFrom('conversations')
		.select(['id', 'number'])
		.where('id', '=', String(written.conversationId))
		.executeTakeFirstOrThrow()
	const form = new FormData()
	form.set('kind', 'text')
	form.set('body', `${prefix} reply`)
	form.set('file', new Blob([new TextEncoder().encode(`${prefix} file`)], { type: 'text/plain' }), `${prefix}.txt`)
	const replied = await fetch(`${api.url}${base}/conversations/${conversation.number}/messages`, { method: 'POST', headers: auth, body: form })
	const message = (await replied.json()) as { id: string; attachments: Array<{ id: string }> }
	expect(replied.status, JSON.stringify(message)).toBe(201)
	const campaign = await call(api, 'POST', `${base}/campaigns`, auth, { body: { name: `${prefix} campaign`, channelId: channel.id, body: 'Hello {{name}}' } })
	const invitation = await call(api, 'POST', `${base}/invitations`, auth, { body: { method: 'link', role: 'agent' } })
	const rule = await call(api, 'POST', `${base}/automation-rules`, auth, {
		body: { name: `${prefix} rule`, event: 'conversation.created', actions: [{ kind: 'addLabels', labelIds: [label.id] }] },
	})
	return {
		workspaceId,
		workspaceName,
		owner,
		channel: { id: String(channel.id), slug: String(channel.slug) },
		contact: { id: String(contact.id) },
		label: { id: String(label.id) },
		teamOf: { id: String(teamOf.id) },
		canned: { id: String(canned.id) },
		conversation: { id: conversation.id, number: conversation.number },
		message: { id: String(message.id) },
		attachment: { id: message.attachments[0]!.id },
		campaign: { id: String(campaign.id) },
		invitation: { id: String(invitation.id), code: String(invitation.code) },
		rule: { id: String(rule.id) },
		visitorToken,
	}
}

/**
 * The team's workspace and the outsider's, each with one of everything. The other workspace's
 * conversation gets a number this one has not, so that its number names nothing here.
 */
export async function createFixtures(api: TestApi): Promise<Fixtures> {
	const marker = `Zelsewhere${crypto.randomBytes(3).toString('hex')}`
	const team = await createTeam('Matrix')
	const here = await hold(api, team.workspace.id, team.workspace.name, team.owner, 'Here')
	const elsewhere = await hold(api, team.elsewhere.id, team.elsewhere.name, team.outsider, marker)
	const number = 900_000 + crypto.randomInt(99_999)
	await testDb().updateTable('conversations').set({ number }).where('id', '=', elsewhere.conversation.id).execute()
	elsewhere.conversation.number = number
	return { api, team, here, elsewhere, marker }
}

/** A user straight in the database (no password hashing: they never sign in), a member of `workspaceId` with `role`. */
export async function spareMember(workspaceId: string, role: Role = 'agent') {
	const db = testDb()
	const user = await db
		.insertInto('users')
		.values({ email: uniqueEmail('spare'), name: 'Spare member', passwordHash: 'not a hash' })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db.insertInto('members').values({ workspaceId, userId: user.id, role }).execute()
	return user
}

/** A workspace of its own where the team's owner, admin and agent have their roles (and a spare agent): for routes that end a workspace or a membership. */
export async function scratchWorkspace(team: Team) {
	const db = testDb()
	const workspace = await db
		.insertInto('workspaces')
		.values({ name: 'Scratch', slug: `scratch-${crypto.randomBytes(5).toString('hex')}` })
		.returningAll()
		.executeTakeFirstOrThrow()
	await db
		.insertInto('members')
		.values([
			{ workspaceId: workspace.id, userId: team.owner.user.id, role: 'owner' },
			{ workspaceId: workspace.id, userId: team.admin.user.id, role: 'admin' },
			{ workspaceId: workspace.id, userId: team.agent.user.id, role: 'agent' },
		])
		.execute()
	const spare = await spareMember(workspace.id)
	return { workspace, spare }
}

/** Invitations straight in the database: by link, or by mail to `email`. */
export async function insertInvitation(workspaceId: string, createdBy: string, email?: string) {
	return testDb()
		.insertInto('invitations')
		.values({
			workspaceId,
			code: crypto.randomBytes(16).toString('base64url'),
			method: email ? 'email' : 'link',
			email: email ?? null,
			role: 'agent',
			expiresAt: new Date(Date.now() + 86_400_000),
			createdBy,
		})
		.returning(['id', 'code'])
		.executeTakeFirstOrThrow()
}
