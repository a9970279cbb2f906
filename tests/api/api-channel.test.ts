import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { secretOverlapMs } from '#api/outgoing-webhooks/subscriptions.ts'
import { deliverMessage } from '#api/conversations/jobs.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { type JobRunner, startJobRunner } from '#api/jobs/queue.ts'
import { receiverCertificatePath, startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts'
import { campaignAction, createCampaign } from './campaigns-fixtures.ts'
import { until } from './channels-fixtures.ts'
import { recordingRealtime } from './conversations-fixtures.ts'
import { closeTestDb, startApi, testDb, type TestApi } from './harness.ts'
import { createTeam, type Team } from './workspaces-fixtures.ts'

/**
 * The API channel (issue 33): created with a callback URL, fed by an integration through
 * `POST …/channels/:channelId/messages` along the inbound path every provider takes, told what became
 * of the team's replies through `…/messages/:messageId/status`.
 */
let api: TestApi
let receiver: WebhookReceiver
let jobs: JobRunner
let team: Team
let channelId: string
let shopSecret: string
const callbackUrl = 'https://127.0.0.1:9/crm-replies'

const channelsPath = (rest = '') => `/v1/workspaces/${team.workspace.id}/channels${rest}`
const inbound = (body: unknown, auth: Record<string, string> = team.admin.auth, id = channelId) =>
	api.request('POST', channelsPath(`/${id}/messages`), { body, headers: auth })

beforeAll(async () => {
	receiver = await startWebhookReceiver()
	api = await startApi({ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOUND_CA_FILE: receiverCertificatePath }, { mail: false })
	// The rules, the assignment and the sends are jobs, as in production.
	jobs = await startJobRunner({
		db: testDb(),
		databaseUrl: inject('databaseUrl'),
		handlers: jobHandlers,
		log: { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) },
		config: api.config,
		realtime: recordingRealtime(),
		pollInterval: 100,
	})
	team = await createTeam('API channel')
	const created = await api.request('POST', channelsPath(), {
		body: { kind: 'api', name: 'Shop chat', settings: { callbackUrl: receiver.endpoint('shop') } },
		headers: team.admin.auth,
	})
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	expect(created.body).toMatchObject({ kind: 'api', name: 'Shop chat', settings: { callbackUrl: receiver.endpoint('shop') }, status: 'active' })
	const { id, secret } = created.body as { id: string; secret: string }
	// Shown once, in the creation's answer: the receiver verifies every delivery with it.
	expect(secret).toMatch(/^whsec_/)
	receiver.trust('shop', secret)
	shopSecret = secret
	channelId = id
})
afterAll(async () => {
	await jobs.stop()
	await api.close()
	await receiver.close()
	await closeTestDb()
})

describe('an API channel', () => {
	test('is created by owners and admins with an https callback URL the server may reach, checked beside the field', async () => {
		const create = (body: object, auth: Record<string, string> = team.owner.auth) =>
			api.request('POST', channelsPath(), { body: { kind: 'api', name: 'Gateway', ...body }, headers: auth })
		expect((await create({ settings: { callbackUrl } }, team.agent.auth)).status).toBe(403)
		const notHttps = await create({ settings: { callbackUrl: 'http://127.0.0.1:9/hook' } })
		expect(notHttps.status).toBe(422)
		expect(notHttps.body).toMatchObject({ details: { fields: { 'settings.callbackUrl': ['A callback URL must be an https:// address.'] } } })
		const notUrl = await create({ settings: { callbackUrl: 'somewhere' } }, { ...team.owner.auth, 'Accept-Language': 'fr-x' })
		expect(notUrl.status).toBe(400)
		expect(notUrl.body).toMatchObject({ details: { fields: { 'settings.callbackUrl': ['Saisissez une adresse complète, commençant par https://.'] } } })
		expect((await create({})).status).toBe(400)
		expect((await create({ settings: { callbackUrl }, credentials: { botToken: 'x' } })).status).toBe(400)

		const read = await api.request('GET', channelsPath(`/${channelId}`), { headers: team.agent.auth })
		expect(read.body).toMatchObject({ kind: 'api', settings: { callbackUrl: receiver.endpoint('shop') }, webhook: null })
		expect(read.body).not.toHaveProperty('secret')
		const audit = await testDb()
			.selectFrom('auditEvents')
			.select(['kind', 'values'])
			.where('workspaceId', '=', team.workspace.id)
			.where('kind', '=', 'channel.created')
			.execute()
		expect(audit).toContainEqual({ kind: 'channel.created', values: expect.objectContaining({ channelId, channelKind: 'api' }) })
	})

	test('changes its callback URL (checked again), name and switch; a link setting is refused', async () => {
		const patch = (body: object) => api.request('PATCH', channelsPath(`/${channelId}`), { body, headers: team.admin.auth })
		const moved = await patch({ settings: { callbackUrl: 'https://127.0.0.1:9/elsewhere' } })
		expect(moved.status, JSON.stringify(moved.body)).toBe(200)
		expect(moved.body).toMatchObject({ settings: { callbackUrl: 'https://127.0.0.1:9/elsewhere' } })
		expect((await patch({ settings: { callbackUrl: 'ftp://127.0.0.1/x' } })).status).toBe(422)
		expect((await patch({ settings: { greeting: 'Hi' } })).status).toBe(400)
		expect((await patch({ settings: { callbackUrl: receiver.endpoint('shop') } })).status).toBe(200)
	})

	test('takes a customer’s message: a new contact by their external id, a numbered conversation, once per external id', async () => {
		const first = await inbound({
			contact: { externalId: 'shop-customer-1', name: 'Leïla Benali', email: 'Leila@Example.com', phone: '+33612345678' },
			text: 'Où est ma commande ?',
			externalId: 'shop-msg-1',
		})
		expect(first.status, JSON.stringify(first.body)).toBe(201)
		const { conversationId, conversationNumber, messageId } = first.body as { conversationId: string; conversationNumber: number; messageId: string }
		expect(conversationNumber).toBe(1)
		const conversation = await testDb().selectFrom('conversations').selectAll().where('id', '=', conversationId).executeTakeFirstOrThrow()
		expect(conversation).toMatchObject({ workspaceId: team.workspace.id, channelId, status: 'open', incomingCount: 1 })
		const contact = await testDb().selectFrom('contacts').selectAll().where('id', '=', conversation.contactId).executeTakeFirstOrThrow()
		expect(contact).toMatchObject({ name: 'Leïla Benali', unverifiedEmail: 'leila@example.com', phone: '+33612345678', email: null })

		// The integration sends the same message again (its own retry): recorded once, the same ids answered.
		const again = await inbound({ contact: { externalId: 'shop-customer-1' }, text: 'Où est ma commande ?', externalId: 'shop-msg-1' })
		expect(again.status).toBe(200)
		expect(again.body).toMatchObject({ conversationId, conversationNumber, messageId, duplicate: true })

		const second = await inbound({ contact: { externalId: 'shop-customer-1' }, text: 'Merci' })
		expect(second.body).toMatchObject({ conversationId, duplicate: false })
		const thread = await api.request('GET', `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}/messages`, { headers: team.agent.auth })
		const bodies = (thread.body as { messages: Array<{ body: string; direction: string }> }).messages.map((message) => [message.direction, message.body])
		expect(bodies).toEqual([
			['incoming', 'Où est ma commande ?'],
			['incoming', 'Merci'],
		])
	})

	test('takes a file in a multipart form, with the contact in dotted fields', async () => {
		const form = new FormData()
		form.set('contact.externalId', 'shop-customer-files')
		form.set('contact.name', 'Omar')
		form.set('text', 'Voici la facture')
		form.set('file', new Blob([new TextEncoder().encode('%PDF-1.4 invoice')], { type: 'application/pdf' }), 'facture.pdf')
		const answer = await fetch(`${api.url}${channelsPath(`/${channelId}/messages`)}`, { method: 'POST', headers: team.admin.auth, body: form })
		const body = (await answer.json()) as { messageId: string }
		expect(answer.status, JSON.stringify(body)).toBe(201)
		const files = await testDb()
			.selectFrom('attachments')
			.select(['filename', 'contentType', 'kind', 'status'])
			.where('messageId', '=', body.messageId)
			.execute()
		expect(files).toEqual([{ filename: 'facture.pdf', contentType: 'application/pdf', kind: 'file', status: 'stored' }])

		const fileOnly = new FormData()
		fileOnly.set('contact.externalId', 'shop-customer-files')
		fileOnly.set('file', new Blob([new TextEncoder().encode('hello')], { type: 'text/plain' }), 'note.txt')
		expect((await fetch(`${api.url}${channelsPath(`/${channelId}/messages`)}`, { method: 'POST', headers: team.admin.auth, body: fileOnly })).status).toBe(201)
	})

	test('refuses bad input with a 4xx and keeps nothing', async () => {
		const before = await testDb()
			.selectFrom('messages')
			.select((eb) => eb.fn.countAll<string>().as('count'))
			.where('channelId', '=', channelId)
			.executeTakeFirstOrThrow()
		expect((await inbound({ text: 'No contact' })).status).toBe(400)
		expect((await inbound({ contact: { externalId: '' }, text: 'Empty id' })).status).toBe(400)
		expect((await inbound({ contact: { externalId: 'x', email: 'not an address' }, text: 'Bad e-mail' })).status).toBe(400)
		expect((await inbound({ contact: { externalId: 'x' }, text: 'y'.repeat(4097) })).status).toBe(400)
		expect((await inbound({ contact: { externalId: 'x' }, text: 'hi', extra: true })).status).toBe(400)
		const empty = await inbound({ contact: { externalId: 'x' }, text: '   ' })
		expect(empty.status).toBe(422)
		expect(empty.body).toMatchObject({ message: 'A message needs a text or a file.', details: { fields: { text: ['A message needs a text or a file.'] } } })
		const after = await testDb()
			.selectFrom('messages')
			.select((eb) => eb.fn.countAll<string>().as('count'))
			.where('channelId', '=', channelId)
			.executeTakeFirstOrThrow()
		expect(after.count).toBe(before.count)
	})

	test('is found only in its own workspace and as an API channel: anything else is 404', async () => {
		const body = { contact: { externalId: 'stranger' }, text: 'Hello' }
		expect((await inbound(body, team.outsider.auth)).status).toBe(404)
		expect((await inbound(body, {})).status).toBe(401)
		const link = await testDb()
			.insertInto('channels')
			.values({ workspaceId: team.workspace.id, kind: 'link', name: 'Site', slug: `api-test-${Date.now()}` })
			.returning('id')
			.executeTakeFirstOrThrow()
		expect((await inbound(body, team.admin.auth, link.id)).status).toBe(404)
		const foreign = await testDb()
			.insertInto('channels')
			.values({ workspaceId: team.elsewhere.id, kind: 'api', name: 'Theirs', settings: { callbackUrl } })
			.returning('id')
			.executeTakeFirstOrThrow()
		expect((await inbound(body, team.admin.auth, foreign.id)).status).toBe(404)
		expect((await inbound(body, team.outsider.auth, foreign.id)).status).toBe(404)
		expect((await inbound(body, team.admin.auth, 'not-a-uuid')).status).toBe(404)
	})

	test('takes nothing while switched off', async () => {
		await api.request('PATCH', channelsPath(`/${channelId}`), { body: { enabled: false }, headers: team.admin.auth })
		const refused = await inbound({ contact: { externalId: 'off' }, text: 'Anyone?' })
		expect(refused.status).toBe(422)
		await api.request('PATCH', channelsPath(`/${channelId}`), { body: { enabled: true }, headers: team.admin.auth })
	})

	test('runs the rules, the greeting and the survey like any channel; its replies are left to the callback, not a provider', async () => {
		const auth = team.owner.auth
		const label = await api.request('POST', `/v1/workspaces/${team.workspace.id}/labels`, { body: { title: 'from-the-shop', color: '#336699' }, headers: auth })
		const rule = await api.request('POST', `/v1/workspaces/${team.workspace.id}/automation-rules`, {
			body: {
				name: 'Shop conversations',
				event: 'conversation.created',
				conditions: [{ kind: 'channelKind', op: 'is', kinds: ['api'] }],
				actions: [
					{ kind: 'addLabels', labelIds: [(label.body as { id: string }).id] },
					{ kind: 'assignAgent', userId: team.agent.user.id },
				],
			},
			headers: auth,
		})
		expect(rule.status, JSON.stringify(rule.body)).toBe(201)
		const greeting = { enabled: true, text: 'Bonjour, nous revenons vers vous vite.', translations: {} }
		expect((await api.request('PATCH', channelsPath(`/${channelId}`), { body: { autoReplies: { greeting }, csatEnabled: true }, headers: auth })).status).toBe(
			200,
		)

		const written = await inbound({ contact: { externalId: 'shop-customer-rules', name: 'Nadia' }, text: 'Bonjour' })
		const { conversationNumber, conversationId } = written.body as { conversationNumber: number; conversationId: string }
		const conversation = await until(async () => {
			const read = await api.request('GET', `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}`, { headers: auth })
			return (read.body as { assignee: unknown }).assignee ? read : undefined
		})
		expect(conversation.body).toMatchObject({ assignee: { id: team.agent.user.id }, labels: [expect.objectContaining({ title: 'from-the-shop' })] })
		// The assignee heard of it.
		const notified = await testDb()
			.selectFrom('notifications')
			.select('kind')
			.where('userId', '=', team.agent.user.id)
			.where('conversationId', '=', conversationId)
			.execute()
		expect(notified.map((row) => row.kind)).toContain('assigned')

		const reply = await testDb()
			.selectFrom('messages')
			.select(['id', 'body', 'status'])
			.where('conversationId', '=', conversationId)
			.where('direction', '=', 'outgoing')
			.where('kind', '=', 'text')
			.executeTakeFirstOrThrow()
		expect(reply).toMatchObject({ body: greeting.text })
		// Sent through the channel's callback, which took it: sent.
		await until(async () => receiver.to('shop').some((request) => (request.event?.data.message as { id?: string } | undefined)?.id === String(reply.id)))
		await until(async () => (await testDb().selectFrom('messages').select('status').where('id', '=', reply.id).executeTakeFirstOrThrow()).status === 'sent')

		// Resolved: the survey's question goes out as a reply; the customer's digit rates it.
		const resolved = await api.request('PATCH', `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}`, {
			body: { status: 'resolved' },
			headers: auth,
		})
		expect(resolved.status).toBe(200)
		await inbound({ contact: { externalId: 'shop-customer-rules' }, text: '5' })
		const survey = await testDb()
			.selectFrom('satisfactionSurveys')
			.select(['status', 'rating'])
			.where('conversationId', '=', conversationId)
			.executeTakeFirstOrThrow()
		expect(survey).toMatchObject({ rating: 5 })
		const after = await testDb().selectFrom('conversations').select('status').where('id', '=', conversationId).executeTakeFirstOrThrow()
		expect(after.status).toBe('resolved')
	})

	test('its send-message job asks no provider: the reply stays pending for its webhook delivery', async () => {
		// A channel of another workspace without a subscription: nothing but the job would touch its reply.
		const channel = await testDb()
			.insertInto('channels')
			.values({ workspaceId: team.elsewhere.id, kind: 'api', name: 'Quiet', settings: { callbackUrl } })
			.returning('id')
			.executeTakeFirstOrThrow()
		const contact = await testDb()
			.insertInto('contacts')
			.values({ workspaceId: team.elsewhere.id, name: 'Quiet customer', avatarColor: '#123456' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const conversation = await testDb()
			.insertInto('conversations')
			.values({ workspaceId: team.elsewhere.id, number: 1, contactId: contact.id, channelId: channel.id })
			.returning('id')
			.executeTakeFirstOrThrow()
		const reply = await testDb()
			.insertInto('messages')
			.values({
				workspaceId: team.elsewhere.id,
				conversationId: conversation.id,
				channelId: channel.id,
				direction: 'outgoing',
				kind: 'text',
				body: 'Hi',
				status: 'pending',
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		await deliverMessage(testDb(), recordingRealtime(), api.config, String(reply.id))
		expect(await testDb().selectFrom('messages').select(['status', 'error']).where('id', '=', reply.id).executeTakeFirstOrThrow()).toEqual({
			status: 'pending',
			error: null,
		})
	})

	test('is told what became of a reply: delivered, read, failed with why; never backwards, only its own replies', async () => {
		const written = await inbound({ contact: { externalId: 'shop-customer-status' }, text: 'Hello' })
		const { conversationNumber } = written.body as { conversationNumber: number; messageId: string }
		const replied = await api.request('POST', `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}/messages`, {
			body: { kind: 'text', body: 'Your parcel left today.' },
			headers: team.agent.auth,
		})
		expect(replied.status, JSON.stringify(replied.body)).toBe(201)
		const replyId = (replied.body as { id: string }).id
		const report = (messageId: string, body: object, auth = team.admin.auth, id = channelId) =>
			api.request('POST', channelsPath(`/${id}/messages/${messageId}/status`), { body, headers: auth })

		expect(await report(replyId, { status: 'read' })).toMatchObject({ status: 200, body: { messageId: replyId, status: 'read' } })
		// A late "delivered" does not undo "read".
		expect(await report(replyId, { status: 'delivered' })).toMatchObject({ status: 200, body: { status: 'read' } })
		expect(await report(replyId, { status: 'failed', error: 'Customer unreachable' })).toMatchObject({ status: 200, body: { status: 'failed' } })
		const stored = await testDb().selectFrom('messages').select(['status', 'error']).where('id', '=', replyId).executeTakeFirstOrThrow()
		expect(stored).toEqual({ status: 'failed', error: 'Customer unreachable' })

		expect((await report(replyId, { status: 'sent' })).status).toBe(400)
		expect((await report(replyId, { status: 'read', extra: 1 })).status).toBe(400)
		// The customer's own message is no reply; another workspace's caller learns nothing.
		expect((await report((written.body as { messageId: string }).messageId, { status: 'read' })).status).toBe(404)
		expect((await report('999999999', { status: 'read' })).status).toBe(404)
		expect((await report('abc', { status: 'read' })).status).toBe(404)
		expect((await report(replyId, { status: 'read' }, team.outsider.auth)).status).toBe(404)
	})

	test('both ways: the team’s replies reach the callback signed (never a note), status changes and assignment too; the callback moves with the channel', async () => {
		const written = await inbound({ contact: { externalId: 'shop-customer-both-ways', name: 'Yasmine' }, text: 'Is my order shipped?' })
		const { conversationNumber } = written.body as { conversationNumber: number }
		const path = `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}`
		const post = (kind: 'text' | 'note', body: string) => api.request('POST', `${path}/messages`, { body: { kind, body }, headers: team.agent.auth })
		expect((await post('note', 'Check the warehouse first')).status).toBe(201)
		const reply = await post('text', 'Yes, it left this morning.')
		const replyId = (reply.body as { id: string }).id

		const messageOf = (request: { event: { data: Record<string, unknown> } | null }) => request.event?.data.message as { id: string; body: string } | undefined
		const delivered = await until(async () => receiver.to('shop').find((request) => messageOf(request)?.id === replyId))
		expect(delivered.verified).toBe(true)
		expect(delivered.headers['webhook-id']).toBeTruthy()
		expect(delivered.event!.data).toMatchObject({
			workspaceId: team.workspace.id,
			message: { id: replyId, body: 'Yes, it left this morning.', direction: 'outgoing' },
		})
		// Taken by the callback (2xx): the reply is sent; the integration then says the customer read it.
		await until(async () => (await testDb().selectFrom('messages').select('status').where('id', '=', replyId).executeTakeFirstOrThrow()).status === 'sent')
		const read = await api.request('POST', channelsPath(`/${channelId}/messages/${replyId}/status`), { body: { status: 'read' }, headers: team.admin.auth })
		expect(read.body).toMatchObject({ status: 'read' })

		expect((await api.request('PATCH', path, { body: { assigneeId: team.agent.user.id }, headers: team.agent.auth })).status).toBe(200)
		expect((await api.request('PATCH', path, { body: { status: 'resolved' }, headers: team.agent.auth })).status).toBe(200)
		await until(async () => receiver.to('shop').some((request) => request.event?.type === 'conversation.status_changed'))
		await until(async () => receiver.to('shop').some((request) => request.event?.type === 'conversation.assigned'))
		const bodies = receiver
			.to('shop')
			.filter((request) => request.event?.type === 'message.created')
			.map((request) => messageOf(request)!.body)
		// Neither the note nor the customer's own message went out.
		expect(bodies).not.toContain('Check the warehouse first')
		expect(bodies).not.toContain('Is my order shipped?')
		expect(receiver.to('shop').every((request) => request.verified)).toBe(true)

		// A new callback URL: the next reply goes there, signed with the same secret.
		const moved = await api.request('PATCH', channelsPath(`/${channelId}`), {
			body: { settings: { callbackUrl: receiver.endpoint('shop-moved') } },
			headers: team.owner.auth,
		})
		expect(moved.status).toBe(200)
		receiver.trust('shop-moved', shopSecret)
		await inbound({ contact: { externalId: 'shop-customer-both-ways' }, text: 'Thanks!' })
		const again = await post('text', 'You are welcome.')
		const arrived = await until(async () => receiver.to('shop-moved').find((request) => messageOf(request)?.id === (again.body as { id: string }).id))
		expect(arrived.verified).toBe(true)
	})

	test('rolling its callback secret: the next callbacks carry both signatures for a day; managers of an API channel of the workspace only', async () => {
		const created = await api.request('POST', channelsPath(), {
			body: { kind: 'api', name: 'Rolled shop', settings: { callbackUrl: receiver.endpoint('rolled') } },
			headers: team.admin.auth,
		})
		const { id, secret } = created.body as { id: string; secret: string }
		// The receiver is still on the old secret.
		receiver.trust('rolled', secret)
		const roll = (channel: string, auth: Record<string, string>) => api.request('POST', channelsPath(`/${channel}/callback-secret`), { headers: auth })
		const rolled = await roll(id, team.owner.auth)
		expect(rolled.status, JSON.stringify(rolled.body)).toBe(200)
		const { secret: fresh, previousSecretExpiresAt } = rolled.body as { secret: string; previousSecretExpiresAt: string }
		expect(fresh).toMatch(/^whsec_/)
		expect(fresh).not.toBe(secret)
		expect(Math.abs(Date.parse(previousSecretExpiresAt) - Date.now() - secretOverlapMs)).toBeLessThan(60_000)

		const written = await inbound({ contact: { externalId: 'rolled-customer' }, text: 'Where is my parcel?' }, team.admin.auth, id)
		const { conversationNumber } = written.body as { conversationNumber: number }
		const reply = await api.request('POST', `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}/messages`, {
			body: { kind: 'text', body: 'On its way.' },
			headers: team.agent.auth,
		})
		const replyId = (reply.body as { id: string }).id
		const delivered = await until(async () =>
			receiver.to('rolled').find((request) => (request.event?.data.message as { id?: string } | undefined)?.id === replyId),
		)
		// A receiver still on the old secret and one already on the new both verify it.
		const headers = delivered.headers as Record<string, string>
		expect(headers['webhook-signature']?.split(' ')).toHaveLength(2)
		for (const key of [secret, fresh]) expect(new Webhook(key).verify(delivered.rawBody, headers)).toMatchObject({ type: 'message.created' })

		const line = await testDb()
			.selectFrom('auditEvents')
			.select(['kind', 'values', 'actorId'])
			.where('workspaceId', '=', team.workspace.id)
			.where('kind', '=', 'webhook.secretRolled')
			.executeTakeFirstOrThrow()
		expect(line).toEqual({ kind: 'webhook.secretRolled', values: { host: new URL(receiver.endpoint('rolled')).host }, actorId: team.owner.user.id })

		// An agent may not; another workspace's channel, a link, an unknown id are unknown.
		expect((await roll(id, team.agent.auth)).status).toBe(403)
		expect((await roll(id, team.outsider.auth)).status).toBe(404)
		const link = await testDb()
			.insertInto('channels')
			.values({ workspaceId: team.workspace.id, kind: 'link', name: 'Rolled site', slug: `rolled-${Date.now()}` })
			.returning('id')
			.executeTakeFirstOrThrow()
		expect((await roll(link.id, team.admin.auth)).status).toBe(404)
		const theirs = await api.request('POST', `/v1/workspaces/${team.elsewhere.id}/channels`, {
			body: { kind: 'api', name: 'Their shop', settings: { callbackUrl } },
			headers: team.outsider.auth,
		})
		expect(theirs.status).toBe(201)
		expect((await roll((theirs.body as { id: string }).id, team.admin.auth)).status).toBe(404)
		expect((await roll('not-a-uuid', team.admin.auth)).status).toBe(404)
	})

	test('a campaign on it reaches each recipient through the callback, and is completed', async () => {
		const label = await api.request('POST', `/v1/workspaces/${team.workspace.id}/labels`, {
			body: { title: 'shop-campaign', color: '#225588' },
			headers: team.owner.auth,
		})
		const written = await inbound({ contact: { externalId: 'shop-campaign-1', name: 'Sara' }, text: 'Hello' })
		const { conversationId } = written.body as { conversationId: string }
		const { contactId } = await testDb().selectFrom('conversations').select('contactId').where('id', '=', conversationId).executeTakeFirstOrThrow()
		await testDb()
			.insertInto('contactLabels')
			.values({ workspaceId: team.workspace.id, contactId, labelId: (label.body as { id: string }).id })
			.execute()
		const campaign = await createCampaign(api, team.admin.auth, team.workspace.id, {
			name: 'Shop sale',
			channelId,
			labelsIn: [(label.body as { id: string }).id],
			body: 'Sale today, {{name}}!',
		})
		await campaignAction(api, team.admin.auth, team.workspace.id, campaign.id, 'start')
		const arrived = await until(async () =>
			// Wherever the callback is now (an earlier test moves it).
			[...receiver.to('shop'), ...receiver.to('shop-moved')].find(
				(request) => (request.event?.data.message as { body?: string } | undefined)?.body === 'Sale today, Sara!',
			),
		)
		expect(arrived.verified).toBe(true)
		await until(
			async () => (await testDb().selectFrom('campaigns').select('status').where('id', '=', campaign.id).executeTakeFirstOrThrow()).status === 'completed',
		)
		const recipients = await testDb().selectFrom('campaignRecipients').select(['status', 'messageId']).where('campaignId', '=', campaign.id).execute()
		expect(recipients).toEqual([{ status: 'sent', messageId: expect.anything() }])
		await until(
			async () =>
				(await testDb().selectFrom('messages').select('status').where('id', '=', String(recipients[0]!.messageId)).executeTakeFirstOrThrow()).status === 'sent',
		)
	})

	test('its page reads how the callback’s deliveries go; saving the callback URL turns a switched-off one back on', async () => {
		const read = async (auth: Record<string, string> = team.admin.auth) =>
			(await api.request('GET', channelsPath(`/${channelId}`), { headers: auth })).body as { callback: Record<string, unknown> | null }
		expect((await read()).callback).toMatchObject({ enabled: true, failingSince: null, disabledAt: null })
		// Agents read the channel, not its callback's state.
		expect((await read(team.agent.auth)).callback).toBeNull()
		const since = new Date(Date.now() - 26 * 3_600_000)
		await testDb()
			.updateTable('webhookSubscriptions')
			.set({ enabled: false, failingSince: since, disabledAt: new Date() })
			.where('channelId', '=', channelId)
			.execute()
		expect((await read()).callback).toMatchObject({ enabled: false, failingSince: since.toISOString(), disabledAt: expect.any(String) })
		const current = (await read()).callback!.url as string
		expect((await api.request('PATCH', channelsPath(`/${channelId}`), { body: { settings: { callbackUrl: current } }, headers: team.owner.auth })).status).toBe(
			200,
		)
		expect((await read()).callback).toMatchObject({ url: current, enabled: true, failingSince: null, disabledAt: null })
	})

	test('an integration’s bot token writing conversations hands messages over and reports deliveries; a reading one, or another workspace’s, cannot', async () => {
		const token = async (scopes: string[], auth = team.owner.auth, workspaceId = team.workspace.id) => {
			const created = await api.request('POST', `/v1/workspaces/${workspaceId}/access-tokens`, {
				body: { kind: 'bot', name: 'Shop bot', scopes },
				headers: auth,
			})
			expect(created.status, JSON.stringify(created.body)).toBe(201)
			return { Authorization: `Bearer ${(created.body as { secret: string }).secret}` }
		}
		const writer = await token(['conversations:write'])
		const body = { contact: { externalId: 'shop-customer-bot', name: 'Karim' }, text: 'Bonjour du magasin', externalId: 'bot-1' }
		const handed = await inbound(body, writer)
		expect(handed.status, JSON.stringify(handed.body)).toBe(201)
		expect((await inbound({ ...body, externalId: 'bot-2' }, await token(['conversations:read']))).status).toBe(403)
		expect((await inbound({ ...body, externalId: 'bot-3' }, await token(['settings:write']))).status).toBe(403)
		expect((await inbound({ ...body, externalId: 'bot-4' }, await token(['conversations:write'], team.outsider.auth, team.elsewhere.id))).status).toBe(404)

		const { conversationNumber } = handed.body as { conversationNumber: number }
		const reply = await api.request('POST', `/v1/workspaces/${team.workspace.id}/conversations/${conversationNumber}/messages`, {
			body: { kind: 'text', body: 'Merci, Karim.' },
			headers: team.agent.auth,
		})
		const replyId = (reply.body as { id: string }).id
		const reported = await api.request('POST', channelsPath(`/${channelId}/messages/${replyId}/status`), { body: { status: 'delivered' }, headers: writer })
		expect(reported.status).toBe(200)
	})
})
