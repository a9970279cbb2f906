import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { pino } from 'pino'
import { issueAccountToken } from '#api/auth/account-tokens.ts'
import { createSession } from '#api/auth/sessions.ts'
import { createApi, createWebhooks } from '#api/index.ts'
import { unsubscribeToken } from '#api/notifications/unsubscribe-token.ts'
import { conversationPresenceChannel, visitorChannel } from '#common/realtime.ts'
import { parseConfig } from '#config/config.ts'
import { createUser, testDb, uniqueEmail } from './harness.ts'
import { listRoutes, type ListedRoute } from './route-list.ts'
import { seedTwoFactor, totpCode } from './two-factor-support.ts'
import { insertInvitation, newVisitorToken, scratchWorkspace, spareMember, type Fixtures, type Holdings } from './route-fixtures.ts'

/** Every route of `/v1` and `/webhooks`, listed from the routers `createApi` and `createWebhooks` build. */
export function apiRoutes(): ListedRoute[] {
	const context = { db: testDb(), config: parseConfig({ DATA_DIR: path.join(os.tmpdir(), 'crm-route-matrix') }), logger: pino({ level: 'silent' }) }
	return [...listRoutes(createApi(context), '/v1'), ...listRoutes(createWebhooks(context), '/webhooks')]
}

/**
 * Who calls: nobody, a member of another workspace, and each role of this one. Run in this order,
 * so that a route the owner alone may use (and which may end the thing) comes last.
 */
export const callers = ['anonymous', 'outsider', 'agent', 'admin', 'owner'] as const
export type Caller = (typeof callers)[number]
export type Expected = Record<Caller, number>

/** A request that each caller would have the right to make, with ids that exist. */
export type Prepared = {
	params?: Record<string, string>
	query?: string
	body?: unknown
	/** Sent as is, with its own Content-Type (a CSV import). */
	raw?: { body: string; contentType: string }
	headers?: Record<string, string>
}

export type RouteRow = {
	expect: Expected
	/** Ids and a body that the allowed callers succeed with; called anew for each caller (a deletion needs its own victim). */
	prepare?: (fx: Fixtures, caller: Caller) => Prepared | Promise<Prepared>
	/**
	 * The same request naming the other workspace's things (its ids in this workspace's path):
	 * this workspace's owner must get 404. By default every path parameter but `:id` is swapped for
	 * the other workspace's; `false` for a route whose path names nothing of a workspace's.
	 */
	foreign?: false | ((fx: Fixtures) => Record<string, string> | Promise<Record<string, string>>)
	/** What naming the other workspace's things answers, when not 404 (pusher-js wants 403 for a channel it may not hear). */
	foreignStatus?: number
}

/** The things of `holdings` by the names the routes give their parameters. */
export function paramsOf(holdings: Holdings, memberId: string): Record<string, string> {
	return {
		id: holdings.workspaceId,
		contactId: holdings.contact.id,
		labelId: holdings.label.id,
		teamId: holdings.teamOf.id,
		cannedId: holdings.canned.id,
		channelId: holdings.channel.id,
		number: String(holdings.conversation.number),
		messageId: holdings.message.id,
		attachmentId: holdings.attachment.id,
		campaignId: holdings.campaign.id,
		invitationId: holdings.invitation.id,
		ruleId: holdings.rule.id,
		userId: memberId,
		slug: holdings.channel.slug,
		kind: 'telegram',
	}
}

const everyone = (status: number): Expected => ({ anonymous: status, outsider: status, agent: status, admin: status, owner: status })
const signedIn = (status: number): Expected => ({ ...everyone(status), anonymous: 401 })
/** Every member of this workspace; anyone else learns nothing of it. */
const members = (status: number): Expected => ({ ...signedIn(status), outsider: 404 })
const managers = (status: number): Expected => ({ ...members(status), agent: 403 })
const ownerOnly = (status: number): Expected => ({ ...managers(status), admin: 403 })

/**
 * A webhook of the workspace (on, to a closed port of loopback: a delivery the tests' runner might
 * take fails at once) with one failed delivery, made for each call; the other workspace's for `foreign`.
 */
async function webhookOf(workspaceId: string) {
	const subscription = await db()
		.insertInto('webhookSubscriptions')
		.values({ workspaceId, url: 'https://127.0.0.1:1/hook', events: ['csat.rated'], secret: 'v1.not.a.secret' })
		.returning('id')
		.executeTakeFirstOrThrow()
	const delivery = await db()
		.insertInto('webhookDeliveries')
		.values({
			workspaceId,
			subscriptionId: subscription.id,
			eventType: 'webhook.test',
			webhookId: 'msg_matrix',
			payload: '{}',
			orderingKey: subscription.id,
			status: 'failed',
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return { subscriptionId: subscription.id, deliveryId: String(delivery.id) }
}

function webhookRow(status: number, body?: unknown): RouteRow {
	return {
		expect: managers(status),
		prepare: async (fx) => ({ params: await webhookOf(fx.here.workspaceId), ...(body ? { body } : {}) }),
		foreign: (fx) => webhookOf(fx.elsewhere.workspaceId),
	}
}

const db = () => testDb()
/** The caller's user, or none for nobody and the outsider's for the outsider. */
const userOf = (fx: Fixtures, caller: Caller) => (caller === 'anonymous' ? undefined : caller === 'outsider' ? fx.team.outsider : fx.team[caller])
const password = 'Sup3r-secret'
const newPassword = 'Another-Str0ng-passphrase'

async function notificationOf(userId: string, workspaceId: string): Promise<string> {
	const row = await db()
		.insertInto('notifications')
		.values({ workspaceId, userId, kind: 'campaignDone', values: { campaign: 'Matrix', sent: 1, failed: 0 } })
		.returning('id')
		.executeTakeFirstOrThrow()
	return String(row.id)
}
/** A live personal token of the user's in the workspace, as the API would keep it (a hash of a secret nobody holds). */
async function personalTokenOf(userId: string, workspaceId: string): Promise<string> {
	const row = await db()
		.insertInto('accessTokens')
		.values({
			workspaceId,
			kind: 'personal',
			userId,
			createdBy: userId,
			name: 'Matrix',
			tokenHash: crypto.randomBytes(32).toString('hex'),
			hint: 'abcd',
			scopes: ['contacts:read'],
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return row.id
}

async function freshContact(fx: Fixtures) {
	return db()
		.insertInto('contacts')
		.values({ workspaceId: fx.here.workspaceId, name: 'Victim', avatarColor: '#123456' })
		.returning('id')
		.executeTakeFirstOrThrow()
}

async function freshCampaign(fx: Fixtures, status: 'draft' | 'running' | 'paused') {
	return db()
		.insertInto('campaigns')
		.values({
			workspaceId: fx.here.workspaceId,
			channelId: fx.here.channel.id,
			name: `${status} campaign`,
			body: 'Hello',
			status,
			startedAt: status === 'draft' ? null : new Date(),
			createdBy: fx.team.owner.user.id,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
}

/** This workspace's API channel (made once): the API channel's routes take no other kind. */
async function apiChannelOf(fx: Fixtures) {
	const found = await db().selectFrom('channels').select('id').where('workspaceId', '=', fx.here.workspaceId).where('kind', '=', 'api').executeTakeFirst()
	return (
		found ??
		db()
			.insertInto('channels')
			.values({ workspaceId: fx.here.workspaceId, kind: 'api', name: 'Matrix shop', settings: { callbackUrl: 'https://127.0.0.1:9/matrix' } })
			.returning('id')
			.executeTakeFirstOrThrow()
	)
}

/** A new API channel of the workspace with its callback's subscription (its secret one that no longer opens: a roll replaces it), for each call. */
async function apiCallbackOf(workspaceId: string) {
	const channel = await db()
		.insertInto('channels')
		.values({ workspaceId, kind: 'api', name: 'Matrix callback', settings: { callbackUrl: 'https://127.0.0.1:1/callback' } })
		.returning('id')
		.executeTakeFirstOrThrow()
	await db()
		.insertInto('webhookSubscriptions')
		.values({ workspaceId, channelId: channel.id, url: 'https://127.0.0.1:1/callback', events: ['message.created'], secret: 'v1.not.a.secret' })
		.execute()
	return { channelId: channel.id }
}

/** A reply of the team on the API channel, to report on. */
async function apiReplyOf(fx: Fixtures, channelId: string): Promise<string> {
	const conversation = await db()
		.insertInto('conversations')
		.values({ workspaceId: fx.here.workspaceId, number: 800_000 + crypto.randomInt(99_999), contactId: fx.here.contact.id, channelId })
		.returning(['id', 'workspaceId'])
		.executeTakeFirstOrThrow()
	const message = await db()
		.insertInto('messages')
		.values({
			workspaceId: conversation.workspaceId,
			conversationId: conversation.id,
			channelId,
			direction: 'outgoing',
			kind: 'text',
			body: 'Reply',
			status: 'sent',
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	return String(message.id)
}

/** The owner's unsubscribe token of this workspace's assignment e-mails, as a mail would carry it. */
const unsubscribeTokenOf = (fx: Fixtures) =>
	encodeURIComponent(unsubscribeToken(fx.api.config.SESSION_SECRET, { userId: fx.team.owner.user.id, workspaceId: fx.here.workspaceId, kinds: ['assigned'] }))

/** What `PushSubscription.toJSON()` gives for `endpoint`: a real P-256 key and auth secret. */
function browserSubscription(endpoint: string) {
	const ecdh = crypto.createECDH('prime256v1')
	ecdh.generateKeys()
	return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') } }
}

/** A device of the caller's (any id for nobody), at an address the guard refuses without trying it. */
async function pushDevice(fx: Fixtures, caller: Caller): Promise<string> {
	const user = userOf(fx, caller)
	if (!user) return crypto.randomUUID()
	const { endpoint, keys } = browserSubscription(`https://127.0.0.1:9/push/${crypto.randomUUID()}`)
	const row = await db()
		.insertInto('pushSubscriptions')
		.values({ userId: user.user.id, endpoint, ...keys })
		.returning('id')
		.executeTakeFirstOrThrow()
	return row.id
}

const campaignAction = (status: 'draft' | 'running' | 'paused'): RouteRow => ({
	expect: managers(200),
	prepare: async (fx) => ({ params: { campaignId: (await freshCampaign(fx, status)).id } }),
})

/** Every `/v1` route and `/webhooks`, by `METHOD path` as the router lists them: who gets what. */
export const routeMatrix: Record<string, RouteRow> = {
	// The API's own contract and its reference: public.
	'GET /v1/openapi.json': { expect: everyone(200) },
	'GET /v1/docs': { expect: everyone(200) },
	// Accounts: open to anyone, a signed-in user included (the web app never sends one there).
	'POST /v1/auth/register': { expect: everyone(201), prepare: () => ({ body: { name: 'New person', email: uniqueEmail('register'), password: newPassword } }) },
	'POST /v1/auth/login': {
		expect: everyone(200),
		prepare: async () => {
			const user = await createUser({ password })
			return { body: { email: user.user.email, password } }
		},
	},
	'POST /v1/auth/logout': {
		expect: signedIn(204),
		// A session of the caller's own, so that the one the matrix signs in with lives on.
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			return user ? { headers: { Authorization: `Bearer ${await createSession(db(), user.user.id)}` } } : {}
		},
	},
	'POST /v1/auth/forgot-password': { expect: everyone(202), prepare: () => ({ body: { email: uniqueEmail('forgot') } }) },
	'POST /v1/auth/validate-reset-token': {
		expect: everyone(200),
		prepare: async (fx) => ({ body: { token: await issueAccountToken(db(), fx.team.otherAgent.user.id, 'reset_password') } }),
	},
	'POST /v1/auth/reset-password': {
		expect: everyone(200),
		prepare: async () => {
			const user = await createUser()
			return { body: { token: await issueAccountToken(db(), user.user.id, 'reset_password'), password: newPassword } }
		},
	},
	'POST /v1/auth/verify-email': {
		expect: everyone(200),
		prepare: async (fx) => ({ body: { token: await issueAccountToken(db(), fx.team.otherAgent.user.id, 'verify_email') } }),
	},
	// Everyone of the matrix is verified already.
	'POST /v1/auth/resend-verification': { expect: signedIn(409) },
	'GET /v1/auth/profile': { expect: signedIn(200) },
	'GET /v1/auth/sessions': { expect: signedIn(200) },
	'POST /v1/auth/sessions/revoke-others': {
		expect: signedIn(204),
		// Ends only the caller's other sessions: the one the matrix signs in with lives on.
	},
	'DELETE /v1/auth/sessions/:sessionId': {
		expect: signedIn(204),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			if (!user) return { params: { sessionId: '00000000-0000-4000-8000-000000000000' } }
			await createSession(db(), user.user.id)
			const newest = await db().selectFrom('sessions').select('id').where('userId', '=', user.user.id).orderBy('createdAt', 'desc').executeTakeFirstOrThrow()
			return { params: { sessionId: newest.id } }
		},
	},
	// Two-step sign-in: each row sets the caller's state afresh, so the order of the rows does not matter.
	'POST /v1/auth/login/two-factor': {
		expect: everyone(200),
		prepare: async (fx) => {
			const user = await createUser({ password })
			const secret = await seedTwoFactor(user.user.id, fx.api.config.ENCRYPTION_KEY, { on: true })
			const login = await fx.api.request('POST', '/v1/auth/login', { body: { email: user.user.email, password }, headers: { 'X-Forwarded-For': '10.200.0.1' } })
			return { body: { challenge: (login.body as { challenge: string }).challenge, code: totpCode(secret) } }
		},
	},
	'GET /v1/auth/two-factor': { expect: signedIn(200) },
	'POST /v1/auth/two-factor/setup': {
		expect: signedIn(200),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			if (user) await db().updateTable('users').set({ twoFactorSecret: null, twoFactorEnabledAt: null }).where('id', '=', user.user.id).execute()
			return {}
		},
	},
	'POST /v1/auth/two-factor/enable': {
		expect: signedIn(200),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			return { body: { code: user ? totpCode(await seedTwoFactor(user.user.id, fx.api.config.ENCRYPTION_KEY, { on: false })) : '123456' } }
		},
	},
	'POST /v1/auth/two-factor/recovery-codes': {
		expect: signedIn(200),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			return { body: { code: user ? totpCode(await seedTwoFactor(user.user.id, fx.api.config.ENCRYPTION_KEY, { on: true })) : '123456' } }
		},
	},
	'POST /v1/auth/two-factor/disable': {
		expect: signedIn(204),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			return { body: { password, code: user ? totpCode(await seedTwoFactor(user.user.id, fx.api.config.ENCRYPTION_KEY, { on: true })) : '123456' } }
		},
	},
	'PATCH /v1/auth/profile': { expect: signedIn(200), prepare: () => ({ body: { theme: 'blue' } }) },
	'POST /v1/auth/change-password': { expect: signedIn(204), prepare: () => ({ body: { currentPassword: password, password } }) },

	// Workspaces.
	'POST /v1/workspaces/invitations/preview': { expect: everyone(200), prepare: (fx) => ({ body: { code: fx.here.invitation.code, method: 'link' } }) },
	'POST /v1/workspaces': { expect: signedIn(201), prepare: () => ({ body: { name: 'Another workspace' } }) },
	'PUT /v1/workspaces/switch': { expect: members(200), prepare: (fx) => ({ body: { workspaceId: fx.here.workspaceId } }) },
	// Into a workspace of its own: the outsider joins it rather than this one.
	'POST /v1/workspaces/invitations/accept': {
		expect: signedIn(200),
		prepare: async (fx) => {
			const { workspace } = await scratchWorkspace(fx.team)
			return { body: { code: (await insertInvitation(workspace.id, fx.team.owner.user.id)).code, method: 'link' } }
		},
	},
	'GET /v1/workspaces/:id': { expect: members(200) },
	'PATCH /v1/workspaces/:id': { expect: managers(200), prepare: () => ({ body: { logoColor: '#225588' } }) },
	'DELETE /v1/workspaces/:id': {
		expect: ownerOnly(204),
		prepare: async (fx) => {
			const { workspace } = await scratchWorkspace(fx.team)
			return { params: { id: workspace.id }, body: { confirmName: workspace.name } }
		},
	},
	'GET /v1/workspaces/:id/events/last': { expect: members(200) },
	'GET /v1/workspaces/:id/overview': { expect: members(200) },
	'GET /v1/workspaces/:id/members': { expect: members(200) },
	'GET /v1/workspaces/:id/members/me': { expect: members(200) },
	'PATCH /v1/workspaces/:id/members/me': { expect: members(200), prepare: () => ({ body: { availability: 'online' } }) },
	'PATCH /v1/workspaces/:id/members/:userId': { expect: managers(200), prepare: () => ({ body: { role: 'agent' } }) },
	'POST /v1/workspaces/:id/members/:userId/two-factor/reset': {
		expect: managers(200),
		prepare: async (fx) => {
			const spare = await spareMember(fx.here.workspaceId)
			await db().updateTable('users').set({ twoFactorEnabledAt: new Date() }).where('id', '=', spare.id).execute()
			return { params: { userId: spare.id } }
		},
	},
	'DELETE /v1/workspaces/:id/members/:userId': {
		expect: managers(204),
		prepare: async (fx) => ({ params: { userId: (await spareMember(fx.here.workspaceId)).id } }),
	},
	// The owner must hand the workspace over first (409); the others leave a workspace of their own.
	'POST /v1/workspaces/:id/leave': {
		expect: { ...members(204), owner: 409 },
		prepare: async (fx) => ({ params: { id: (await scratchWorkspace(fx.team)).workspace.id } }),
	},
	'POST /v1/workspaces/:id/transfer-ownership': {
		expect: ownerOnly(200),
		prepare: async (fx) => {
			const { workspace, spare } = await scratchWorkspace(fx.team)
			return { params: { id: workspace.id }, body: { userId: spare.id } }
		},
	},
	'GET /v1/workspaces/:id/invitations': { expect: managers(200) },
	'POST /v1/workspaces/:id/invitations': { expect: managers(201), prepare: () => ({ body: { method: 'link', role: 'agent' } }) },
	'POST /v1/workspaces/:id/invitations/:invitationId/resend': {
		expect: managers(202),
		prepare: async (fx) => ({ params: { invitationId: (await insertInvitation(fx.here.workspaceId, fx.team.owner.user.id, uniqueEmail('invitee'))).id } }),
	},
	'DELETE /v1/workspaces/:id/invitations/:invitationId': {
		expect: managers(204),
		prepare: async (fx) => ({ params: { invitationId: (await insertInvitation(fx.here.workspaceId, fx.team.owner.user.id)).id } }),
	},
	'GET /v1/user/workspaces': { expect: signedIn(200) },

	// Browser push: each user's own devices; a workspace's member reports their focus there.
	'GET /v1/user/push-subscriptions': { expect: signedIn(200) },
	// A public address given as such: no DNS, and the guard lets it through (nothing is sent to it).
	'POST /v1/user/push-subscriptions': { expect: signedIn(201), prepare: () => ({ body: browserSubscription(`https://8.8.8.8/push/${crypto.randomUUID()}`) }) },
	'DELETE /v1/user/push-subscriptions/:deviceId': {
		expect: signedIn(204),
		prepare: async (fx, caller) => ({ params: { deviceId: await pushDevice(fx, caller) } }),
	},
	// A loopback endpoint (as if configured before): the guard refuses it at once, and the answer says so.
	'POST /v1/user/push-subscriptions/:deviceId/test': {
		expect: signedIn(200),
		prepare: async (fx, caller) => ({ params: { deviceId: await pushDevice(fx, caller) } }),
	},
	'POST /v1/workspaces/:id/presence/focus': { expect: members(200), prepare: () => ({ body: { focused: true } }) },

	// Contacts: every member reads, creates, edits, imports and exports; owners and admins delete, merge and opt in again.
	'GET /v1/workspaces/:id/contacts': { expect: members(200) },
	'POST /v1/workspaces/:id/contacts': { expect: members(201), prepare: () => ({ body: { name: 'Created contact' } }) },
	'GET /v1/workspaces/:id/contacts/export': { expect: members(200) },
	'POST /v1/workspaces/:id/contacts/import': {
		expect: members(200),
		prepare: () => ({ raw: { body: 'name,company\nImported person,Acme\n', contentType: 'text/csv' } }),
	},
	'POST /v1/workspaces/:id/contacts/bulk': {
		expect: members(200),
		prepare: (fx) => ({ body: { action: 'label', contactIds: [fx.here.contact.id], labelId: fx.here.label.id } }),
	},
	'GET /v1/workspaces/:id/contacts/:contactId': { expect: members(200) },
	'GET /v1/workspaces/:id/contacts/:contactId/satisfaction': { expect: members(200) },
	'PATCH /v1/workspaces/:id/contacts/:contactId': { expect: members(200), prepare: () => ({ body: { company: 'Acme' } }) },
	'POST /v1/workspaces/:id/contacts/:contactId/opt-in': { expect: managers(200) },
	'POST /v1/workspaces/:id/contacts/:contactId/merge': {
		expect: managers(200),
		prepare: async (fx) => ({ params: { contactId: (await freshContact(fx)).id }, body: { into: fx.here.contact.id } }),
	},
	'DELETE /v1/workspaces/:id/contacts/:contactId': { expect: managers(204), prepare: async (fx) => ({ params: { contactId: (await freshContact(fx)).id } }) },

	// Labels and canned responses: everyone reads, owners and admins write.
	'GET /v1/workspaces/:id/labels': { expect: members(200) },
	'POST /v1/workspaces/:id/labels': {
		expect: managers(201),
		prepare: () => ({ body: { title: `label-${crypto.randomBytes(4).toString('hex')}`, color: '#aa5500' } }),
	},
	'GET /v1/workspaces/:id/labels/:labelId': { expect: members(200) },
	'PATCH /v1/workspaces/:id/labels/:labelId': { expect: managers(200), prepare: () => ({ body: { description: 'Changed' } }) },
	'DELETE /v1/workspaces/:id/labels/:labelId': {
		expect: managers(204),
		prepare: async (fx) => ({
			params: {
				labelId: (
					await db()
						.insertInto('labels')
						.values({ workspaceId: fx.here.workspaceId, title: `gone-${crypto.randomBytes(4).toString('hex')}`, color: '#336699' })
						.returning('id')
						.executeTakeFirstOrThrow()
				).id,
			},
		}),
	},
	// Teams: everyone reads, owners and admins write; their members are the workspace's.
	'GET /v1/workspaces/:id/teams': { expect: members(200) },
	'POST /v1/workspaces/:id/teams': {
		expect: managers(201),
		prepare: (fx) => ({ body: { name: `Team ${crypto.randomBytes(4).toString('hex')}`, userIds: [fx.team.agent.user.id] } }),
	},
	'GET /v1/workspaces/:id/teams/:teamId': { expect: members(200) },
	'PATCH /v1/workspaces/:id/teams/:teamId': { expect: managers(200), prepare: () => ({ body: { description: 'Changed' } }) },
	'PUT /v1/workspaces/:id/teams/:teamId/members': { expect: managers(200), prepare: (fx) => ({ body: { userIds: [fx.team.agent.user.id] } }) },
	'DELETE /v1/workspaces/:id/teams/:teamId': {
		expect: managers(204),
		prepare: async (fx) => ({
			params: {
				teamId: (
					await db()
						.insertInto('teams')
						.values({ workspaceId: fx.here.workspaceId, name: `Gone ${crypto.randomBytes(4).toString('hex')}` })
						.returning('id')
						.executeTakeFirstOrThrow()
				).id,
			},
		}),
	},
	// Outgoing webhooks: owners and admins alone; one created off, so the matrix's own changes send nothing.
	'GET /v1/workspaces/:id/webhooks': { expect: managers(200) },
	'POST /v1/workspaces/:id/webhooks': {
		expect: managers(201),
		prepare: () => ({ body: { url: 'https://93.184.215.14/hook', events: ['contact.created'], enabled: false } }),
	},
	'GET /v1/workspaces/:id/webhooks/:subscriptionId': webhookRow(200),
	'PATCH /v1/workspaces/:id/webhooks/:subscriptionId': webhookRow(200, { events: ['contact.updated'] }),
	'DELETE /v1/workspaces/:id/webhooks/:subscriptionId': webhookRow(204),
	'GET /v1/workspaces/:id/webhooks/:subscriptionId/deliveries': webhookRow(200),
	'POST /v1/workspaces/:id/webhooks/:subscriptionId/test': webhookRow(202),
	'POST /v1/workspaces/:id/webhooks/:subscriptionId/secret': webhookRow(200),
	'POST /v1/workspaces/:id/webhooks/:subscriptionId/deliveries/:deliveryId/retry': webhookRow(202),
	// Automation rules: owners and admins alone, reading too.
	'GET /v1/workspaces/:id/automation-rules': { expect: managers(200) },
	'POST /v1/workspaces/:id/automation-rules': {
		expect: managers(201),
		prepare: (fx) => ({ body: { name: 'Matrix rule', event: 'message.received', actions: [{ kind: 'addLabels', labelIds: [fx.here.label.id] }] } }),
	},
	'GET /v1/workspaces/:id/automation-rules/:ruleId': { expect: managers(200) },
	'PATCH /v1/workspaces/:id/automation-rules/:ruleId': { expect: managers(200), prepare: () => ({ body: { stopAfter: true } }) },
	'POST /v1/workspaces/:id/automation-rules/:ruleId/move': { expect: managers(200), prepare: () => ({ body: { direction: 'down' } }) },
	'GET /v1/workspaces/:id/automation-rules/:ruleId/runs': { expect: managers(200) },
	'DELETE /v1/workspaces/:id/automation-rules/:ruleId': {
		expect: managers(204),
		prepare: async (fx) => ({
			params: {
				ruleId: (
					await db()
						.insertInto('automationRules')
						.values({ workspaceId: fx.here.workspaceId, name: 'Gone', event: 'message.received', actions: '[{"kind":"mute"}]', position: 99 })
						.returning('id')
						.executeTakeFirstOrThrow()
				).id,
			},
		}),
	},
	// Access tokens: a member's own personal ones; bot tokens are the managers' (tests/api/access-tokens.test.ts holds the rest).
	'GET /v1/workspaces/:id/access-tokens': { expect: members(200) },
	'POST /v1/workspaces/:id/access-tokens': {
		expect: members(201),
		prepare: () => ({ body: { kind: 'personal', name: 'Matrix token', scopes: ['contacts:read'] } }),
	},
	'PATCH /v1/workspaces/:id/access-tokens/:tokenId': {
		expect: members(200),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			const body = { name: 'Matrix token renamed' }
			if (!user) return { params: { tokenId: crypto.randomUUID() }, body }
			const workspaceId = caller === 'outsider' ? fx.elsewhere.workspaceId : fx.here.workspaceId
			return { params: { tokenId: await personalTokenOf(user.user.id, workspaceId) }, body }
		},
		foreign: async (fx) => ({ tokenId: await personalTokenOf(fx.team.outsider.user.id, fx.elsewhere.workspaceId) }),
	},
	'DELETE /v1/workspaces/:id/access-tokens/:tokenId': {
		expect: members(204),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller)
			if (!user) return { params: { tokenId: crypto.randomUUID() } }
			const workspaceId = caller === 'outsider' ? fx.elsewhere.workspaceId : fx.here.workspaceId
			return { params: { tokenId: await personalTokenOf(user.user.id, workspaceId) } }
		},
		foreign: async (fx) => ({ tokenId: await personalTokenOf(fx.team.outsider.user.id, fx.elsewhere.workspaceId) }),
	},
	// Notifications: each member's own.
	'GET /v1/workspaces/:id/notifications': { expect: members(200) },
	'POST /v1/workspaces/:id/notifications/read': { expect: members(200), prepare: (fx) => ({ body: { conversationNumber: fx.here.conversation.number } }) },
	'POST /v1/workspaces/:id/notifications/read-all': { expect: members(200) },
	'GET /v1/workspaces/:id/notification-preferences': { expect: members(200) },
	'PUT /v1/workspaces/:id/notification-preferences': {
		expect: members(200),
		prepare: () => ({ body: { preferences: { assigned: { email: false } }, sound: true } }),
	},
	// A user's own notification in whichever workspace; another's (the other workspace's owner's) is a 404.
	'GET /v1/notifications/:notificationId': {
		expect: signedIn(200),
		prepare: async (fx, caller) => {
			const user = userOf(fx, caller) ?? fx.team.owner
			const workspaceId = caller === 'outsider' ? fx.elsewhere.workspaceId : fx.here.workspaceId
			return { params: { notificationId: await notificationOf(user.user.id, workspaceId) } }
		},
		foreign: async (fx) => ({ notificationId: await notificationOf(fx.team.outsider.user.id, fx.elsewhere.workspaceId) }),
	},
	'GET /v1/workspaces/:id/canned-responses': { expect: members(200) },
	'POST /v1/workspaces/:id/canned-responses': {
		expect: managers(201),
		prepare: () => ({ body: { shortCode: `hi-${crypto.randomBytes(4).toString('hex')}`, content: 'Hi there' } }),
	},
	'GET /v1/workspaces/:id/canned-responses/:cannedId': { expect: members(200) },
	'PATCH /v1/workspaces/:id/canned-responses/:cannedId': { expect: managers(200), prepare: () => ({ body: { content: 'Hello again' } }) },
	'DELETE /v1/workspaces/:id/canned-responses/:cannedId': {
		expect: managers(204),
		prepare: async (fx) => ({
			params: {
				cannedId: (
					await db()
						.insertInto('cannedResponses')
						.values({ workspaceId: fx.here.workspaceId, shortCode: `bye-${crypto.randomBytes(4).toString('hex')}`, content: 'Bye' })
						.returning('id')
						.executeTakeFirstOrThrow()
				).id,
			},
		}),
	},

	// Channels: everyone reads, owners and admins write. A link channel has neither templates nor credentials (422).
	'GET /v1/workspaces/:id/channels': { expect: members(200) },
	'POST /v1/workspaces/:id/channels': { expect: managers(201), prepare: () => ({ body: { kind: 'link', name: 'Another site' } }) },
	'GET /v1/workspaces/:id/channels/:channelId': { expect: members(200) },
	'GET /v1/workspaces/:id/channels/:channelId/templates': { expect: members(422) },
	'PATCH /v1/workspaces/:id/channels/:channelId': { expect: managers(200), prepare: () => ({ body: { enabled: true } }) },
	'PUT /v1/workspaces/:id/channels/:channelId/credentials': { expect: managers(422), prepare: () => ({ body: { credentials: {} } }) },
	'POST /v1/workspaces/:id/channels/:channelId/callback-secret': {
		expect: managers(200),
		prepare: async (fx) => ({ params: await apiCallbackOf(fx.here.workspaceId) }),
		foreign: (fx) => apiCallbackOf(fx.elsewhere.workspaceId),
	},
	'DELETE /v1/workspaces/:id/channels/:channelId': {
		expect: managers(204),
		prepare: async (fx) => ({
			params: {
				channelId: (
					await db()
						.insertInto('channels')
						.values({ workspaceId: fx.here.workspaceId, kind: 'link', name: 'Gone', slug: `gone-${crypto.randomBytes(5).toString('hex')}` })
						.returning('id')
						.executeTakeFirstOrThrow()
				).id,
			},
		}),
	},

	// The API channel (issue 33): every member (an integration's token, or a session) hands over messages and reports deliveries.
	'POST /v1/workspaces/:id/channels/:channelId/messages': {
		expect: members(201),
		prepare: async (fx) => ({
			params: { channelId: (await apiChannelOf(fx)).id },
			body: { contact: { externalId: `matrix-${crypto.randomBytes(4).toString('hex')}` }, text: 'Hello from the shop' },
		}),
	},
	'POST /v1/workspaces/:id/channels/:channelId/messages/:messageId/status': {
		expect: members(200),
		prepare: async (fx) => {
			const channel = await apiChannelOf(fx)
			return { params: { channelId: channel.id, messageId: await apiReplyOf(fx, channel.id) }, body: { status: 'delivered' } }
		},
	},

	// The inbox: every member.
	'GET /v1/workspaces/:id/conversations': { expect: members(200), prepare: () => ({ query: 'status=all' }) },
	'GET /v1/workspaces/:id/conversations/summary': { expect: members(200) },
	'POST /v1/workspaces/:id/conversations/bulk': {
		expect: members(200),
		prepare: (fx) => ({ body: { numbers: [fx.here.conversation.number], action: 'status', status: 'open' } }),
	},
	'GET /v1/workspaces/:id/conversations/:number': { expect: members(200) },
	'PATCH /v1/workspaces/:id/conversations/:number': { expect: members(200), prepare: () => ({ body: { priority: 'high' } }) },
	'PUT /v1/workspaces/:id/conversations/:number/labels': { expect: members(200), prepare: (fx) => ({ body: { labelIds: [fx.here.label.id] } }) },
	'GET /v1/workspaces/:id/conversations/:number/messages': { expect: members(200) },
	'GET /v1/workspaces/:id/conversations/:number/view': { expect: members(200) },
	'POST /v1/workspaces/:id/conversations/:number/messages': { expect: members(201), prepare: () => ({ body: { kind: 'note', body: 'A note' } }) },
	'POST /v1/workspaces/:id/conversations/:number/messages/:messageId/retry': {
		expect: members(200),
		prepare: async (fx) => {
			await db().updateTable('messages').set({ status: 'failed', error: 'matrix' }).where('id', '=', fx.here.message.id).execute()
			return {}
		},
	},
	'POST /v1/workspaces/:id/conversations/:number/read': { expect: members(204) },
	'GET /v1/workspaces/:id/attachments/:attachmentId': { expect: members(200) },

	// Campaigns: everyone reads (and previews an audience), owners and admins write.
	'GET /v1/workspaces/:id/campaigns': { expect: members(200) },
	'POST /v1/workspaces/:id/campaigns/audience': { expect: members(200), prepare: (fx) => ({ body: { channelId: fx.here.channel.id } }) },
	'POST /v1/workspaces/:id/campaigns': {
		expect: managers(201),
		prepare: (fx) => ({ body: { name: 'New campaign', channelId: fx.here.channel.id, body: 'Hi {{name}}' } }),
	},
	'GET /v1/workspaces/:id/campaigns/:campaignId': { expect: members(200) },
	'PATCH /v1/workspaces/:id/campaigns/:campaignId': { expect: managers(200), prepare: () => ({ body: { name: 'Renamed campaign' } }) },
	'DELETE /v1/workspaces/:id/campaigns/:campaignId': {
		expect: managers(204),
		prepare: async (fx) => ({ params: { campaignId: (await freshCampaign(fx, 'draft')).id } }),
	},
	'POST /v1/workspaces/:id/campaigns/:campaignId/start': campaignAction('draft'),
	'POST /v1/workspaces/:id/campaigns/:campaignId/pause': campaignAction('running'),
	'POST /v1/workspaces/:id/campaigns/:campaignId/resume': campaignAction('paused'),
	'POST /v1/workspaces/:id/campaigns/:campaignId/cancel': campaignAction('draft'),
	'GET /v1/workspaces/:id/campaigns/:campaignId/recipients': { expect: members(200) },
	'GET /v1/workspaces/:id/campaigns/:campaignId/message-preview': { expect: members(200) },

	// Reports: every member (an agent sees their own work), filtered by one of the workspace's teams.
	'GET /v1/workspaces/:id/reports': { expect: members(200), prepare: (fx) => ({ query: `teamId=${fx.here.teamOf.id}` }) },
	'GET /v1/workspaces/:id/reports/satisfaction': { expect: members(200), prepare: (fx) => ({ query: `teamId=${fx.here.teamOf.id}` }) },
	'GET /v1/workspaces/:id/reports/export': { expect: members(200), prepare: (fx) => ({ query: `table=teams&teamId=${fx.here.teamOf.id}` }) },
	// The audit log: owners and admins alone.
	'GET /v1/workspaces/:id/audit-log': { expect: managers(200) },
	'GET /v1/workspaces/:id/audit-log/export': { expect: managers(200) },

	// Realtime: pusher-js wants 403 for a channel it may not hear, whoever asks. A conversation's presence channel, whose
	// workspace is looked up (tests/api/realtime-auth.test.ts has the workspace's own).
	'POST /v1/realtime/auth': {
		expect: { ...members(200), outsider: 403 },
		prepare: (fx) => ({ body: { socket_id: '1234.5678', channel_name: conversationPresenceChannel(fx.here.conversation.id) } }),
	},
	'POST /v1/realtime/user-auth': { expect: signedIn(200), prepare: () => ({ body: { socket_id: '1234.5678' } }) },

	// A link's visitors: no account, named by their token.
	'GET /v1/link/:slug': { expect: everyone(200), foreign: false },
	'GET /v1/link/:slug/messages': { expect: everyone(200), foreign: false, prepare: (fx) => ({ headers: { 'X-Visitor-Token': fx.here.visitorToken } }) },
	'POST /v1/link/:slug/messages': {
		expect: everyone(201),
		foreign: false,
		prepare: () => ({ headers: { 'X-Visitor-Token': newVisitorToken() }, body: { body: 'Hello?' } }),
	},
	// The fixtures' conversation asks no survey: nothing to rate (tests/api/satisfaction.test.ts rates one).
	'POST /v1/link/:slug/satisfaction': {
		expect: everyone(409),
		foreign: false,
		prepare: (fx) => ({ headers: { 'X-Visitor-Token': fx.here.visitorToken }, body: { rating: 5 } }),
	},
	// Only the visitor's own conversation: another visitor's replies are out of reach (tests/api/link.test.ts).
	'POST /v1/link/:slug/read': {
		expect: everyone(204),
		foreign: false,
		prepare: (fx) => ({ headers: { 'X-Visitor-Token': fx.here.visitorToken }, body: { upTo: fx.here.message.id } }),
	},
	// Another workspace's file is no more the visitor's than another visitor's.
	'GET /v1/link/:slug/attachments/:attachmentId': {
		expect: everyone(200),
		prepare: (fx) => ({ headers: { 'X-Visitor-Token': fx.here.visitorToken } }),
		foreign: (fx) => ({ attachmentId: fx.elsewhere.attachment.id }),
	},
	'POST /v1/link/:slug/realtime/auth': {
		expect: everyone(200),
		foreign: (fx) => ({ slug: fx.elsewhere.channel.slug }),
		foreignStatus: 403,
		prepare: (fx) => ({
			headers: { 'X-Visitor-Token': fx.here.visitorToken },
			body: { socket_id: '1234.5678', channel_name: visitorChannel(fx.here.conversation.id) },
		}),
	},

	// A notification mail's unsubscribe: no session, the signed token says whose e-mails (tests/api/notifications-mail.test.ts).
	'GET /v1/notifications/unsubscribe': { expect: everyone(200), foreign: false, prepare: (fx) => ({ query: `token=${unsubscribeTokenOf(fx)}` }) },
	'POST /v1/notifications/unsubscribe': {
		expect: everyone(200),
		foreign: false,
		prepare: (fx) => ({
			query: `token=${unsubscribeTokenOf(fx)}`,
			raw: { body: 'List-Unsubscribe=One-Click', contentType: 'application/x-www-form-urlencoded' },
		}),
	},

	// The realtime server posts presence here, signed with its app's secret: a session is no signature.
	'POST /webhooks/realtime': {
		expect: everyone(401),
		foreign: false,
		prepare: () => ({ body: { time_ms: Date.now(), events: [] } }),
	},
	// Providers post here: an event for a channel that is not there is acknowledged and dropped.
	'ALL /webhooks/:kind/:channelId': {
		expect: everyone(200),
		foreign: false,
		prepare: () => ({ params: { channelId: crypto.randomUUID() }, body: { update_id: 1 } }),
	},
}

/** Every id of `holdings` and its marker: none may appear in an answer to this workspace. */
export function idsOf(holdings: Holdings): string[] {
	return [
		holdings.workspaceId,
		holdings.owner.user.id,
		holdings.channel.id,
		holdings.channel.slug,
		holdings.contact.id,
		holdings.label.id,
		holdings.teamOf.id,
		holdings.canned.id,
		holdings.conversation.id,
		holdings.attachment.id,
		holdings.campaign.id,
		holdings.invitation.id,
		holdings.invitation.code,
		holdings.rule.id,
	]
}

/** What a list of this workspace must hold (so that finding nothing of the other's means something). */
export const listsHold: Record<string, (fx: Fixtures) => string> = {
	'GET /v1/user/workspaces': (fx) => fx.here.workspaceId,
	'GET /v1/workspaces/:id/members': (fx) => fx.team.otherAgent.user.id,
	'GET /v1/workspaces/:id/invitations': (fx) => fx.here.invitation.id,
	'GET /v1/workspaces/:id/contacts': (fx) => fx.here.contact.id,
	'GET /v1/workspaces/:id/contacts/export': () => 'Here contact',
	'GET /v1/workspaces/:id/labels': (fx) => fx.here.label.id,
	'GET /v1/workspaces/:id/teams': (fx) => fx.here.teamOf.id,
	'GET /v1/workspaces/:id/canned-responses': (fx) => fx.here.canned.id,
	'GET /v1/workspaces/:id/automation-rules': (fx) => fx.here.rule.id,
	'GET /v1/workspaces/:id/channels': (fx) => fx.here.channel.id,
	'GET /v1/workspaces/:id/conversations': (fx) => fx.here.conversation.id,
	'GET /v1/workspaces/:id/conversations/:number/messages': (fx) => fx.here.message.id,
	'GET /v1/workspaces/:id/conversations/:number/view': (fx) => fx.here.message.id,
	'GET /v1/workspaces/:id/campaigns': (fx) => fx.here.campaign.id,
	'GET /v1/link/:slug/messages': (fx) => fx.here.message.id,
}
