import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { webhookEventTypes, type WebhookEventType } from '#common/webhooks.ts'
import { conversationsForEvents, findMessage } from '#api/conversations/queries.ts'
import { jobHandlers } from '#api/jobs/handlers.ts'
import { startJobRunner, type JobRunner } from '#api/jobs/queue.ts'
import { prune } from '#api/jobs/prune.ts'
import { sendOnce } from '#api/outgoing-webhooks/delivery.ts'
import { createSubscription, secretOverlapMs, signingSecretsOf } from '#api/outgoing-webhooks/subscriptions.ts'
import { receiverCertificatePath, startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts'
import { waitForMail } from './auth-support.ts'
import { until } from './channels-fixtures.ts'
import { createLinkChannel, customerWrites } from './conversations-fixtures.ts'
import { createUser, createWorkspace, startApi, testDb, type TestApi } from './harness.ts'

const db = () => testDb()
// A job that fails says why (a fan-out or delivery retried by the queue would otherwise only show as a slow test).
const quiet = { info: () => {}, debug: () => {}, error: (message: string) => console.error(message) }

let receiver: WebhookReceiver
let api: TestApi
let runner: JobRunner

beforeAll(async () => {
	receiver = await startWebhookReceiver()
	api = await startApi({ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOUND_CA_FILE: receiverCertificatePath })
	runner = await startJobRunner({
		db: db(),
		databaseUrl: inject('databaseUrl'),
		handlers: { 'fan-out-webhooks': jobHandlers['fan-out-webhooks'], 'deliver-webhooks': jobHandlers['deliver-webhooks'] },
		log: quiet,
		config: api.config,
		pollInterval: 100,
	})
})
afterAll(async () => {
	await runner?.stop()
	await api?.close()
	await receiver?.close()
})

let names = 0
/** A workspace with an owner, a chat link, and a subscription to `events` at a fresh path of the receiver. */
async function subscribed(events: readonly WebhookEventType[] = webhookEventTypes, options: { channelId?: (channelId: string) => string } = {}) {
	const workspace = await createWorkspace('Hooked')
	const owner = await createUser({ workspaceId: workspace.id, role: 'owner' })
	const channel = await createLinkChannel(workspace.id)
	const name = `hook-${++names}`
	const { subscription, secret } = await db()
		.transaction()
		.execute((trx) =>
			createSubscription(trx, {
				workspaceId: workspace.id,
				channelId: options.channelId ? channel.id : null,
				url: receiver.endpoint(name),
				events,
				createdBy: owner.user.id,
				encryptionKey: api.config.ENCRYPTION_KEY,
			}),
		)
	receiver.trust(name, secret)
	return { workspace, owner, channel, name, subscription, secret }
}

/** Once `count` deliveries of the subscription have their outcome written (the receiver has a request a moment before). */
const settled = (subscriptionId: string, count: number) =>
	until(async () => {
		const deliveries = await deliveriesOf(subscriptionId)
		return deliveries.length >= count && deliveries.every((delivery) => delivery.status !== 'pending') && deliveries
	})

const typesTo = (name: string) => receiver.to(name).map((request) => request.event?.type)
const deliveriesOf = (subscriptionId: string) =>
	db().selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId).orderBy('id').execute()

describe('core: triggers, fan-out, signed delivery', () => {
	test('a customer message: conversation.created then message.created, each signed as Standard Webhooks says and verified by its library', async () => {
		const { workspace, channel, name, secret } = await subscribed()
		expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
		const received = await customerWrites(channel, 'visitor-1', 'Hello there')
		await until(async () => receiver.to(name).length >= 3)
		const created = receiver.to(name).find((request) => request.event?.type === 'conversation.created')
		const message = receiver.to(name).find((request) => request.event?.type === 'message.created')
		expect(typesTo(name)).toContain('contact.created')
		expect([created?.verified, message?.verified]).toEqual([true, true])
		expect(created?.event?.type).toBe('conversation.created')
		expect(created?.event?.data).toMatchObject({ workspaceId: workspace.id, conversation: { id: received.conversation.id, channel: { id: channel.id } } })
		expect(message?.event).toMatchObject({
			type: 'message.created',
			data: { workspaceId: workspace.id, message: { body: 'Hello there', direction: 'incoming' } },
		})
		expect(message?.headers['webhook-id']).toMatch(/^msg_/)
		expect(Math.abs(Number(message?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
		expect(message?.headers['webhook-signature']).toMatch(/^v1,/)
		expect(Date.parse(message!.event!.timestamp)).not.toBeNaN()
		expect(await db().selectFrom('webhookEvents').select('id').where('workspaceId', '=', workspace.id).execute()).toEqual([])
	})

	test('a contact’s labels changing is a contact.updated with its labels; a contact deleted with its labels is only contact.deleted', async () => {
		const { workspace, owner, name } = await subscribed(['contact.updated', 'contact.deleted'])
		const contact = await db()
			.insertInto('contacts')
			.values({ workspaceId: workspace.id, name: 'Lena', avatarColor: '#336699' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const label = await db()
			.insertInto('labels')
			.values({ workspaceId: workspace.id, title: 'VIP', color: '#aa0000' })
			.returning('id')
			.executeTakeFirstOrThrow()
		const contactPath = `/v1/workspaces/${workspace.id}/contacts/${contact.id}`
		expect((await api.request('PATCH', contactPath, { headers: owner.auth, body: { labelIds: [label.id] } })).status).toBe(200)
		await until(async () => receiver.to(name).length >= 1)
		expect(receiver.to(name)[0]?.event).toMatchObject({
			type: 'contact.updated',
			data: { contact: { id: contact.id, labels: [{ id: label.id, title: 'VIP' }] } },
		})
		expect((await api.request('PATCH', contactPath, { headers: owner.auth, body: { labelIds: [] } })).status).toBe(200)
		await until(async () => receiver.to(name).length >= 2)
		expect(receiver.to(name)[1]?.event).toMatchObject({ type: 'contact.updated', data: { contact: { id: contact.id, labels: [] } } })
		await db().insertInto('contactLabels').values({ workspaceId: workspace.id, contactId: contact.id, labelId: label.id }).execute()
		await until(async () => receiver.to(name).length >= 3)
		expect((await api.request('DELETE', contactPath, { headers: owner.auth })).status).toBe(204)
		await until(async () => receiver.to(name).length >= 4)
		expect(await db().selectFrom('webhookEvents').select('type').where('workspaceId', '=', workspace.id).execute()).toEqual([])
		expect(typesTo(name)).toEqual(['contact.updated', 'contact.updated', 'contact.updated', 'contact.deleted'])
	})

	test('a workspace without a subscription writes nothing to the outbox', async () => {
		const workspace = await createWorkspace('Quiet')
		const channel = await createLinkChannel(workspace.id)
		await customerWrites(channel, 'visitor-q', 'Hi')
		expect(await db().selectFrom('webhookEvents').select('id').where('workspaceId', '=', workspace.id).execute()).toEqual([])
	})

	test('every event type reaches a subscription that asked for it, and nothing it did not ask for', async () => {
		const { workspace, owner, channel, name, subscription } = await subscribed()
		const only = await subscribed(['contact.deleted'])
		const { conversation, message } = await customerWrites(channel, 'visitor-2', 'Hi')
		await until(async () => receiver.to(name).length >= 3)
		const agent = await createUser({ workspaceId: workspace.id, role: 'agent', name: 'Agent Ada' })
		await db().updateTable('conversations').set({ status: 'resolved' }).where('id', '=', conversation.id).execute()
		await db().updateTable('conversations').set({ assigneeId: agent.user.id }).where('id', '=', conversation.id).execute()
		await db().updateTable('messages').set({ status: 'read' }).where('id', '=', message.id).execute()
		const contact = await db()
			.insertInto('contacts')
			.values({ workspaceId: workspace.id, name: 'Carla', avatarColor: '#336699' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db().updateTable('contacts').set({ company: 'Acme' }).where('id', '=', contact.id).execute()
		// Its last activity is not something the API shows as a change.
		await db().updateTable('contacts').set({ lastActivityAt: new Date() }).where('id', '=', contact.id).execute()
		// Shaped when fanned out: a contact already gone by then is told of by its deletion alone.
		await until(async () => typesTo(name).includes('contact.updated'))
		await db().deleteFrom('contacts').where('id', '=', contact.id).execute()
		const campaign = await db()
			.insertInto('campaigns')
			.values({ workspaceId: workspace.id, channelId: channel.id, name: 'Spring', body: 'Hi', createdBy: owner.user.id, status: 'running' })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db().updateTable('campaigns').set({ status: 'completed' }).where('id', '=', campaign.id).execute()
		const survey = await db()
			.insertInto('satisfactionSurveys')
			.values({ workspaceId: workspace.id, conversationId: conversation.id, channelId: channel.id, contactId: conversation.contactId })
			.returning('id')
			.executeTakeFirstOrThrow()
		await db().updateTable('satisfactionSurveys').set({ rating: 5, status: 'rated', answeredAt: new Date() }).where('id', '=', survey.id).execute()

		const expected = [
			'conversation.created',
			'message.created',
			'conversation.updated',
			'conversation.status_changed',
			'conversation.updated',
			'conversation.assigned',
			'message.updated',
			'contact.created',
			'contact.updated',
			'contact.deleted',
			'campaign.completed',
			'csat.rated',
		]
		expected.splice(1, 0, 'contact.created')
		await until(async () => receiver.to(name).length >= expected.length).catch(async () => {
			throw new Error(`got ${JSON.stringify(typesTo(name))}, ${JSON.stringify(await deliveriesOf(subscription.id))}`)
		})
		// Each conversation's (contact's, campaign's) events in order; the keys among themselves in any.
		const got = typesTo(name)
		expect([...got].sort()).toEqual([...expected].sort())
		expect(got.filter((type) => type?.startsWith('contact.')).slice(-3)).toEqual(['contact.created', 'contact.updated', 'contact.deleted'])
		expect(new Set(webhookEventTypes)).toEqual(new Set(got))
		expect(receiver.to(name).every((request) => request.verified)).toBe(true)
		const events = receiver.to(name).map((request) => request.event!)
		expect(events.find((event) => event.type === 'conversation.status_changed')?.data).toMatchObject({
			conversation: { status: 'resolved' },
			previousStatus: 'open',
		})
		expect(events.find((event) => event.type === 'conversation.assigned')?.data).toMatchObject({
			conversation: { assignee: { id: agent.user.id, name: 'Agent Ada' } },
		})
		expect(events.find((event) => event.type === 'contact.deleted')?.data).toMatchObject({ contact: { id: contact.id, name: 'Carla', company: 'Acme' } })
		expect(events.find((event) => event.type === 'campaign.completed')?.data).toMatchObject({ campaign: { id: campaign.id, status: 'completed' } })
		expect(events.find((event) => event.type === 'csat.rated')?.data).toMatchObject({
			survey: { id: survey.id, rating: 5 },
			conversation: { id: conversation.id },
		})
		await until(async () => receiver.to(only.name).length >= 0 && (await deliveriesOf(subscription.id)).every((delivery) => delivery.status === 'delivered'))
		expect(typesTo(only.name)).toEqual([])
	})

	test('one batch of many events of several conversations and contacts: each body is its own object’s as /v1 reads it, each key in order', async () => {
		const { workspace, owner, channel, name, subscription } = await subscribed()
		const agent = await createUser({ workspaceId: workspace.id, role: 'agent', name: 'Agent Bo' })
		// One transaction: the fan-out takes its events as one batch.
		const written = await db()
			.transaction()
			.execute(async (trx) => {
				const known = await trx
					.insertInto('contacts')
					.values({ workspaceId: workspace.id, name: 'Known', email: 'known@example.com', avatarColor: '#336699' })
					.returning('id')
					.executeTakeFirstOrThrow()
				const people = []
				for (const index of [1, 2, 3]) {
					const contact = await trx
						.insertInto('contacts')
						.values({
							workspaceId: workspace.id,
							name: `Customer ${index}`,
							avatarColor: '#336699',
							unverifiedEmail: index === 2 ? 'known@example.com' : null,
						})
						.returning('id')
						.executeTakeFirstOrThrow()
					await trx
						.insertInto('contactIdentities')
						.values({ workspaceId: workspace.id, channelId: channel.id, contactId: contact.id, externalId: `v-${index}` })
						.execute()
					const conversation = await trx
						.insertInto('conversations')
						.values({ workspaceId: workspace.id, number: index, contactId: contact.id, channelId: channel.id })
						.returning('id')
						.executeTakeFirstOrThrow()
					const base = { workspaceId: workspace.id, conversationId: conversation.id, channelId: channel.id, kind: 'text' as const }
					await trx
						.insertInto('messages')
						.values({ ...base, direction: 'incoming', body: `Question ${index}` })
						.execute()
					await trx
						.insertInto('messages')
						.values({ ...base, direction: 'outgoing', body: `Answer ${index}`, senderId: owner.user.id })
						.execute()
					if (index === 3) await trx.updateTable('conversations').set({ assigneeId: agent.user.id }).where('id', '=', conversation.id).execute()
					people.push({ contactId: contact.id, conversationId: conversation.id })
				}
				return { known, people }
			})
		const expectedCount = 4 + 3 * 3 + 2
		await until(async () => receiver.to(name).length >= expectedCount)
		const deliveries = await settled(subscription.id, expectedCount)
		expect(new Set(deliveries.map((delivery) => delivery.createdAt.getTime())).size).toBe(1)
		const events = receiver.to(name).map((request) => request.event!)
		expect(receiver.to(name).every((request) => request.verified)).toBe(true)
		const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown
		const conversations = await conversationsForEvents(
			db(),
			written.people.map((person) => person.conversationId),
		)
		for (const [index, { contactId, conversationId }] of written.people.entries()) {
			const ofConversation = events.filter((event) => (event.data.conversation as { id?: string } | undefined)?.id === conversationId)
			expect(ofConversation.map((event) => [event.type, (event.data.message as { body?: string } | undefined)?.body])).toEqual([
				['conversation.created', undefined],
				['message.created', `Question ${index + 1}`],
				['message.created', `Answer ${index + 1}`],
				...(index === 2
					? [
							['conversation.updated', undefined],
							['conversation.assigned', undefined],
						]
					: []),
			])
			for (const event of ofConversation) {
				const message = event.data.message as { id: string } | undefined
				expect(event.data).toEqual({
					workspaceId: workspace.id,
					conversation: plain(conversations.get(conversationId)),
					...(message ? { message: plain(await findMessage(db(), message.id)) } : {}),
					...(event.type === 'conversation.assigned' ? { previousAssigneeId: null } : {}),
				})
			}
			const contactEvent = events.find((event) => (event.data.contact as { id?: string } | undefined)?.id === contactId)
			const contact = await api.request('GET', `/v1/workspaces/${workspace.id}/contacts/${contactId}`, { headers: owner.auth })
			expect(contactEvent).toEqual({ type: 'contact.created', timestamp: expect.any(String), data: { workspaceId: workspace.id, contact: contact.body } })
		}
		expect(conversations.get(written.people[2]!.conversationId)?.assignee?.id).toBe(agent.user.id)
		expect(events.find((event) => (event.data.contact as { id?: string } | undefined)?.id === written.people[1]!.contactId)?.data.contact).toMatchObject({
			possibleMatches: [{ id: written.known.id, name: 'Known' }],
			identities: [{ channelId: channel.id }],
		})
	})

	test('more of one conversation’s deliveries than a delivery job reads at once go in order', async () => {
		const { channel, name, subscription } = await subscribed(['message.created'])
		const { conversation } = await customerWrites(channel, 'visitor-many', 'first')
		await until(async () => receiver.to(name).length >= 1)
		const bodies = Array.from({ length: 45 }, (_, index) => `message ${index + 1}`)
		await db()
			.insertInto('messages')
			.values(
				bodies.map((body) => ({
					workspaceId: conversation.workspaceId,
					conversationId: conversation.id,
					channelId: channel.id,
					direction: 'incoming',
					kind: 'text',
					body,
				})),
			)
			.execute()
		await settled(subscription.id, 46)
		expect(receiver.to(name).map((request) => (request.event?.data.message as { body: string }).body)).toEqual(['first', ...bodies])
	})

	test('a failing receiver holds a conversation’s later events back until it recovers, then they arrive in order; the log keeps each answer', async () => {
		const { channel, name, subscription } = await subscribed(['message.created'])
		receiver.failNext(new RegExp(`/hooks/${name}$`), { status: 503, body: { error: 'down for a moment' } }, 1)
		const first = await customerWrites(channel, 'visitor-3', 'one')
		await customerWrites(channel, 'visitor-3', 'two')
		await customerWrites(channel, 'visitor-3', 'three')
		await until(async () => receiver.to(name).length >= 1)
		// The first try failed: the next two wait for its retry, 5 s later.
		await new Promise((resolve) => setTimeout(resolve, 1000))
		expect(receiver.to(name)).toHaveLength(1)
		const waiting = await deliveriesOf(subscription.id)
		expect(waiting[0]).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 503, responseBody: '{"error":"down for a moment"}' })
		expect(waiting[0]!.nextAttemptAt!.getTime() - waiting[0]!.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(4_000)
		expect(
			(await db().selectFrom('webhookSubscriptions').select('failingSince').where('id', '=', subscription.id).executeTakeFirstOrThrow()).failingSince,
		).not.toBeNull()
		// The retry is due 5 s after the first try; a loaded machine (CI runs two API processes on two cores) has been seen to need more than 15 s in all.
		await until(async () => receiver.to(name).length >= 4, 40_000)
		const bodies = receiver.to(name).map((request) => (request.event?.data.message as { body: string } | undefined)?.body)
		expect(bodies).toEqual(['one', 'one', 'two', 'three'])
		expect(receiver.to(name).map((request) => request.verified)).toEqual([true, true, true, true])
		// The same webhook-id and body on the retry.
		expect(receiver.to(name)[1]!.headers['webhook-id']).toBe(receiver.to(name)[0]!.headers['webhook-id'])
		expect(receiver.to(name)[1]!.rawBody).toBe(receiver.to(name)[0]!.rawBody)
		expect(first.conversation.id).toBe(waiting[0]!.orderingKey)
		const done = await settled(subscription.id, 3)
		expect(done.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
			['delivered', 2],
			['delivered', 1],
			['delivered', 1],
		])
		expect(
			(await db().selectFrom('webhookSubscriptions').select('failingSince').where('id', '=', subscription.id).executeTakeFirstOrThrow()).failingSince,
		).toBeNull()
	}, 60_000)

	test('429 with Retry-After waits as asked; 400 is not retried and lets the next event go', async () => {
		const { channel, name, subscription } = await subscribed(['message.created'])
		receiver.failNext(new RegExp(`/hooks/${name}$`), { status: 429, body: { error: 'slow down' }, headers: { 'Retry-After': '2' } }, 1)
		await customerWrites(channel, 'visitor-4', 'throttled')
		const [throttled] = await settled(subscription.id, 1)
		expect(throttled).toMatchObject({ status: 'delivered', attempts: 2 })
		const [first, second] = receiver.to(name)
		expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])

		receiver.failNext(new RegExp(`/hooks/${name}$`), { status: 400, body: { error: 'no thanks' } }, 1)
		await customerWrites(channel, 'visitor-4', 'refused')
		await customerWrites(channel, 'visitor-4', 'after')
		const after = await settled(subscription.id, 3)
		expect(after.map((delivery) => [delivery.status, delivery.attempts, delivery.responseStatus])).toEqual([
			['delivered', 2, 204],
			['failed', 1, 400],
			['delivered', 1, 204],
		])
	}, 30_000)

	test('a redirect is an answer, not followed', async () => {
		const { channel, name, subscription } = await subscribed(['message.created'])
		receiver.failNext(new RegExp(`/hooks/${name}$`), { status: 302, body: null, headers: { Location: receiver.endpoint(`${name}-elsewhere`) } }, 1)
		await customerWrites(channel, 'visitor-5', 'moved?')
		await until(async () => (await deliveriesOf(subscription.id))[0]?.status === 'failed')
		expect((await deliveriesOf(subscription.id))[0]).toMatchObject({ responseStatus: 302, attempts: 1 })
		expect(receiver.to(`${name}-elsewhere`)).toEqual([])
	})

	test('loopback and private addresses are refused without WEBHOOK_ALLOW_PRIVATE, and not retried', async () => {
		const delivery = { webhookId: 'msg_test', payload: '{}' }
		const strict = { ENCRYPTION_KEY: api.config.ENCRYPTION_KEY, WEBHOOK_ALLOW_PRIVATE: false, outboundCa: api.config.outboundCa }
		for (const url of [receiver.endpoint('strict'), 'https://10.1.2.3/hook', 'https://[::1]/hook', 'https://169.254.169.254/latest']) {
			expect(await sendOnce(strict, url, ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], delivery)).toMatchObject({ delivered: false, retry: false, status: null })
		}
		expect(await sendOnce(strict, 'http://example.com/hook', ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], delivery)).toMatchObject({
			delivered: false,
			retry: false,
		})
		expect(receiver.to('strict')).toEqual([])
	})

	test('a subscription failing for a day is turned off at its next failed try, and its owners and admins are mailed', async () => {
		const { workspace, owner, channel, name, subscription } = await subscribed(['message.created'])
		const admin = await createUser({ workspaceId: workspace.id, role: 'admin' })
		const agent = await createUser({ workspaceId: workspace.id, role: 'agent' })
		await db()
			.updateTable('webhookSubscriptions')
			.set({ failingSince: sql<Date>`now() - interval '25 hours'` })
			.where('id', '=', subscription.id)
			.execute()
		receiver.failNext(new RegExp(`/hooks/${name}$`), { status: 500, body: { error: 'broken' } }, 1)
		await customerWrites(channel, 'visitor-6', 'anyone?')
		await until(
			async () =>
				(await db().selectFrom('webhookSubscriptions').select('enabled').where('id', '=', subscription.id).executeTakeFirstOrThrow()).enabled === false,
		)
		const off = await db().selectFrom('webhookSubscriptions').selectAll().where('id', '=', subscription.id).executeTakeFirstOrThrow()
		expect(off.disabledAt).not.toBeNull()
		for (const manager of [owner, admin]) {
			const mail = await waitForMail(api, manager.user.email)
			expect(mail.subject).toBe('A webhook of Hooked was turned off')
			expect(mail.text).toContain(`/en-us/dashboard/settings/integrations/webhooks/${subscription.id}`)
		}
		expect((await api.outbox()).some((mail) => mail.to === agent.user.email)).toBe(false)
		// Nothing more is sent while it is off; the delivery waits for it to be turned on.
		await customerWrites(channel, 'visitor-6', 'still there?')
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(receiver.to(name)).toHaveLength(1)
	}, 30_000)

	test('an API channel’s own subscription hears only its conversations’ replies (no notes, no customer messages), and sets their delivery status', async () => {
		const { workspace, channel, name, subscription } = await subscribed(['message.created', 'conversation.status_changed'], { channelId: (id) => id })
		const other = await createLinkChannel(workspace.id, 'Other')
		const { conversation } = await customerWrites(channel, 'visitor-7', 'from the customer')
		await customerWrites(other, 'visitor-8', 'elsewhere')
		const write = (kind: 'text' | 'note', body: string) =>
			db()
				.insertInto('messages')
				.values({
					workspaceId: workspace.id,
					conversationId: conversation.id,
					channelId: channel.id,
					direction: 'outgoing',
					kind,
					body,
					status: kind === 'text' ? 'pending' : null,
				})
				.returning('id')
				.executeTakeFirstOrThrow()
		await write('note', 'internal')
		const reply = await write('text', 'Hello from the team')
		await until(async () => receiver.to(name).length >= 1)
		await until(async () => (await db().selectFrom('messages').select('status').where('id', '=', reply.id).executeTakeFirstOrThrow()).status === 'sent')
		expect(typesTo(name)).toEqual(['message.created'])
		expect(receiver.to(name)[0]!.event!.data).toMatchObject({ message: { id: String(reply.id), body: 'Hello from the team', direction: 'outgoing' } })

		receiver.failNext(new RegExp(`/hooks/${name}$`), { status: 410, body: { error: 'gone' } }, 1)
		const refused = await write('text', 'Are you there?')
		await until(async () => (await db().selectFrom('messages').select('status').where('id', '=', refused.id).executeTakeFirstOrThrow()).status === 'failed')
		expect(await db().selectFrom('messages').select('error').where('id', '=', refused.id).executeTakeFirstOrThrow()).toEqual({ error: 'HTTP 410' })
		expect((await deliveriesOf(subscription.id)).every((delivery) => delivery.eventType === 'message.created')).toBe(true)
	})
})

describe('the API: /v1/workspaces/:id/webhooks', () => {
	const path = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/webhooks${rest}`

	async function viaApi(events: readonly string[] = ['contact.created']) {
		const workspace = await createWorkspace('Via API')
		const owner = await createUser({ workspaceId: workspace.id, role: 'owner' })
		const name = `api-hook-${++names}`
		const created = await api.request('POST', path(workspace.id), { headers: owner.auth, body: { url: receiver.endpoint(name), events } })
		expect(created.status, JSON.stringify(created.body)).toBe(201)
		const { webhook, secret } = created.body as { webhook: { id: string; url: string; events: string[]; enabled: boolean }; secret: string }
		receiver.trust(name, secret)
		return { workspace, owner, name, webhook, secret }
	}

	test('an owner adds one and sees its secret once; a test event arrives signed and the log shows it; send again resends the same event', async () => {
		const { workspace, owner, name, webhook, secret } = await viaApi()
		expect(secret).toMatch(/^whsec_/)
		expect(webhook).toMatchObject({ events: ['contact.created'], enabled: true, failingSince: null, disabledAt: null })
		const read = await api.request('GET', path(workspace.id, `/${webhook.id}`), { headers: owner.auth })
		expect(read.status).toBe(200)
		expect(JSON.stringify(read.body)).not.toContain(secret)
		const list = await api.request('GET', path(workspace.id), { headers: owner.auth })
		expect(list.body).toEqual({ webhooks: [read.body] })
		expect(JSON.stringify(list.body)).not.toContain('whsec_')

		const sent = await api.request('POST', path(workspace.id, `/${webhook.id}/test`), { headers: owner.auth })
		expect(sent.status, JSON.stringify(sent.body)).toBe(202)
		expect(sent.body).toMatchObject({ eventType: 'webhook.test', status: 'pending' })
		await until(async () => receiver.to(name).length >= 1)
		const [test] = receiver.to(name)
		expect(test).toMatchObject({ verified: true, event: { type: 'webhook.test', data: { workspaceId: workspace.id, webhook: { id: webhook.id } } } })
		const [logged] = await settled(webhook.id, 1)
		const log = await api.request('GET', path(workspace.id, `/${webhook.id}/deliveries`), { headers: owner.auth })
		expect(log.body).toMatchObject({
			deliveries: [{ id: String(logged!.id), eventType: 'webhook.test', status: 'delivered', attempts: 1, responseStatus: 204 }],
			nextCursor: null,
		})

		const again = await api.request('POST', path(workspace.id, `/${webhook.id}/deliveries/${logged!.id}/retry`), { headers: owner.auth })
		expect(again.status, JSON.stringify(again.body)).toBe(202)
		await until(async () => receiver.to(name).length >= 2)
		expect(receiver.to(name)[1]).toMatchObject({ verified: true, rawBody: test!.rawBody })
		expect(receiver.to(name)[1]!.headers['webhook-id']).toBe(test!.headers['webhook-id'])
	})

	test('the nightly prune forgets deliveries that ended 30 days ago, never one still waiting', async () => {
		const { workspace, webhook } = await viaApi()
		const old = new Date(Date.now() - 31 * 24 * 3600 * 1000)
		const delivery = (status: 'delivered' | 'failed' | 'pending', createdAt: Date) => ({
			workspaceId: workspace.id,
			subscriptionId: webhook.id,
			eventType: 'webhook.test' as const,
			webhookId: `msg_${status}_${createdAt.getTime()}`,
			payload: '{}',
			orderingKey: crypto.randomUUID(),
			status,
			createdAt,
			nextAttemptAt: status === 'pending' ? new Date(Date.now() + 3_600_000) : null,
		})
		await db()
			.insertInto('webhookDeliveries')
			.values([delivery('delivered', old), delivery('failed', old), delivery('pending', old), delivery('delivered', new Date())])
			.execute()
		expect((await prune(db())).webhookDeliveries).toBeGreaterThanOrEqual(2)
		const kept = await deliveriesOf(webhook.id)
		expect(kept.map((row) => row.status).sort()).toEqual(['delivered', 'pending'])
	})

	test('rolling the secret: for a day each request is signed with the new secret and the old one, then with the new one alone', async () => {
		const { workspace, owner, name, webhook, secret } = await viaApi()
		const rolled = await api.request('POST', path(workspace.id, `/${webhook.id}/secret`), { headers: owner.auth })
		expect(rolled.status).toBe(200)
		const { secret: fresh, previousSecretExpiresAt } = rolled.body as { secret: string; previousSecretExpiresAt: string }
		expect(fresh).toMatch(/^whsec_/)
		expect(fresh).not.toBe(secret)
		expect(Math.abs(Date.parse(previousSecretExpiresAt) - Date.now() - secretOverlapMs)).toBeLessThan(60_000)
		await api.request('POST', path(workspace.id, `/${webhook.id}/test`), { headers: owner.auth })
		await until(async () => receiver.to(name).length >= 1)
		// A receiver still on the old secret and one already on the new both verify it.
		const request = receiver.to(name)[0]!
		const headers = request.headers as Record<string, string>
		expect(headers['webhook-signature']?.split(' ')).toHaveLength(2)
		for (const key of [secret, fresh]) expect(new Webhook(key).verify(request.rawBody, headers)).toMatchObject({ type: 'webhook.test' })
		const row = await db().selectFrom('webhookSubscriptions').select('secret').where('id', '=', webhook.id).executeTakeFirstOrThrow()
		expect(signingSecretsOf(row, api.config.ENCRYPTION_KEY)).toEqual([fresh, secret])
		expect(signingSecretsOf(row, api.config.ENCRYPTION_KEY, new Date(Date.now() + secretOverlapMs + 60_000))).toEqual([fresh])
		// Rolled again within the day: the one it replaces overlaps; the first is gone.
		const again = (await api.request('POST', path(workspace.id, `/${webhook.id}/secret`), { headers: owner.auth })).body as { secret: string }
		const after = await db().selectFrom('webhookSubscriptions').select('secret').where('id', '=', webhook.id).executeTakeFirstOrThrow()
		expect(signingSecretsOf(after, api.config.ENCRYPTION_KEY)).toEqual([again.secret, fresh])
		// Two rolls at once: one after the other, so both secrets they showed sign.
		const both = await Promise.all(
			[1, 2].map(
				async () => ((await api.request('POST', path(workspace.id, `/${webhook.id}/secret`), { headers: owner.auth })).body as { secret: string }).secret,
			),
		)
		const last = await db().selectFrom('webhookSubscriptions').select('secret').where('id', '=', webhook.id).executeTakeFirstOrThrow()
		expect(signingSecretsOf(last, api.config.ENCRYPTION_KEY).sort()).toEqual(both.sort())
	})

	test('adding, changing, rolling the secret of and deleting a webhook are lines of the audit log, naming its host only', async () => {
		const { workspace, owner, webhook } = await viaApi()
		const host = new URL(webhook.url).host
		await api.request('PATCH', path(workspace.id, `/${webhook.id}`), {
			headers: owner.auth,
			body: { events: ['contact.created', 'contact.deleted'], enabled: false },
		})
		await api.request('POST', path(workspace.id, `/${webhook.id}/secret`), { headers: owner.auth })
		expect((await api.request('DELETE', path(workspace.id, `/${webhook.id}`), { headers: owner.auth })).status).toBe(204)
		const log = await api.request('GET', `/v1/workspaces/${workspace.id}/audit-log`, { headers: owner.auth })
		const lines = (log.body as { events: Array<{ kind: string; values: Record<string, unknown> }> }).events
		expect(lines.map(({ kind, values }) => ({ kind, values })).reverse()).toEqual([
			{ kind: 'webhook.created', values: { host, events: 1 } },
			{ kind: 'webhook.updated', values: { host, fields: 'events, enabled' } },
			{ kind: 'webhook.secretRolled', values: { host } },
			{ kind: 'webhook.deleted', values: { host } },
		])
		expect(JSON.stringify(lines)).not.toContain('/hooks/')
	})

	test('the log pages by cursor, newest first', async () => {
		const { workspace, owner, webhook } = await viaApi()
		await db()
			.insertInto('webhookDeliveries')
			.values(
				Array.from({ length: 55 }, (_, index) => ({
					workspaceId: workspace.id,
					subscriptionId: webhook.id,
					eventType: 'webhook.test' as const,
					webhookId: `msg_page_${index}`,
					payload: '{}',
					orderingKey: webhook.id,
					status: 'failed' as const,
				})),
			)
			.execute()
		const first = (await api.request('GET', path(workspace.id, `/${webhook.id}/deliveries`), { headers: owner.auth })).body as {
			deliveries: Array<{ webhookId: string }>
			nextCursor: string
		}
		expect(first.deliveries).toHaveLength(50)
		expect(first.deliveries[0]!.webhookId).toBe('msg_page_54')
		const second = (await api.request('GET', path(workspace.id, `/${webhook.id}/deliveries?cursor=${first.nextCursor}`), { headers: owner.auth })).body as {
			deliveries: Array<{ webhookId: string }>
			nextCursor: string | null
		}
		expect(second.deliveries.map((delivery) => delivery.webhookId)).toEqual(['msg_page_4', 'msg_page_3', 'msg_page_2', 'msg_page_1', 'msg_page_0'])
		expect(second.nextCursor).toBeNull()
		expect((await api.request('GET', path(workspace.id, `/${webhook.id}/deliveries?cursor=abc`), { headers: owner.auth })).status).toBe(400)
	})

	test('bad input is a translated 4xx beside its field, and nothing is created', async () => {
		const workspace = await createWorkspace('Careful')
		const owner = await createUser({ workspaceId: workspace.id, role: 'owner' })
		// The schema's refusals are 400s (as every route's), the address's a 422.
		const refuse = async (body: unknown, field: string, language = 'en-us') => {
			const answer = await api.request('POST', path(workspace.id), { headers: { ...owner.auth, 'Accept-Language': language }, body })
			expect(answer.status, JSON.stringify(answer.body)).toBe(field === 'url' ? 422 : 400)
			return (answer.body as { details: { fields: Record<string, string[]> } }).details.fields[field]
		}
		expect(await refuse({ url: 'http://example.com/hook', events: ['contact.created'] }, 'url')).toEqual(['Give an https:// address.'])
		expect(await refuse({ url: 'not a url', events: ['contact.created'] }, 'url', 'fr-FR')).toEqual(['Indiquez une adresse https://.'])
		expect(await refuse({ url: receiver.endpoint('x'), events: [] }, 'events')).toEqual(['Choose at least one event.'])
		expect(await refuse({ url: receiver.endpoint('x'), events: ['webhook.test'] }, 'events.0')).toHaveLength(1)
		expect((await api.request('GET', path(workspace.id), { headers: owner.auth })).body).toEqual({ webhooks: [] })
	})

	test('a private address is refused without WEBHOOK_ALLOW_PRIVATE', async () => {
		const strict = await startApi({ OUTBOUND_CA_FILE: receiverCertificatePath }, { mail: false })
		try {
			const workspace = await createWorkspace('Strict')
			const owner = await createUser({ workspaceId: workspace.id, role: 'owner' })
			for (const url of [receiver.endpoint('private'), 'https://10.0.0.5/hook', 'https://[fd00::1]/hook']) {
				const answer = await strict.request('POST', path(workspace.id), { headers: owner.auth, body: { url, events: ['contact.created'] } })
				expect(answer.status, url).toBe(422)
				expect(answer.body).toMatchObject({
					details: { fields: { url: ['This address is on a private network: webhooks go to addresses on the Internet only.'] } },
				})
			}
		} finally {
			await strict.close()
		}
	})

	test('turned off after a day, it is turned on again with PATCH and the events that waited are sent', async () => {
		const { workspace, owner, name, webhook } = await viaApi(['contact.created'])
		await db()
			.updateTable('webhookSubscriptions')
			.set({ enabled: false, disabledAt: new Date(), failingSince: new Date() })
			.where('id', '=', webhook.id)
			.execute()
		await db()
			.insertInto('webhookDeliveries')
			.values({
				workspaceId: workspace.id,
				subscriptionId: webhook.id,
				eventType: 'webhook.test',
				webhookId: 'msg_waited',
				payload: '{"type":"webhook.test","timestamp":"2026-01-01T00:00:00.000Z","data":{}}',
				orderingKey: webhook.id,
				nextAttemptAt: new Date(Date.now() + 3_600_000),
			})
			.execute()
		expect((await api.request('POST', path(workspace.id, `/${webhook.id}/test`), { headers: owner.auth })).status).toBe(409)
		const on = await api.request('PATCH', path(workspace.id, `/${webhook.id}`), { headers: owner.auth, body: { enabled: true } })
		expect(on.body).toMatchObject({ enabled: true, disabledAt: null, failingSince: null })
		await until(async () => receiver.to(name).some((request) => request.headers['webhook-id'] === 'msg_waited' && request.verified))
	})

	test('agents are refused; another workspace’s webhook and delivery are 404 to this one’s owner', async () => {
		const { workspace, webhook } = await viaApi()
		const agent = await createUser({ workspaceId: workspace.id, role: 'agent' })
		expect((await api.request('GET', path(workspace.id), { headers: agent.auth })).status).toBe(403)
		const other = await viaApi()
		const delivery = await db()
			.insertInto('webhookDeliveries')
			.values({
				workspaceId: workspace.id,
				subscriptionId: webhook.id,
				eventType: 'webhook.test',
				webhookId: 'msg_x',
				payload: '{}',
				orderingKey: webhook.id,
				status: 'failed',
			})
			.returning('id')
			.executeTakeFirstOrThrow()
		for (const [method, rest] of [
			['GET', `/${webhook.id}`],
			['PATCH', `/${webhook.id}`],
			['DELETE', `/${webhook.id}`],
			['GET', `/${webhook.id}/deliveries`],
			['POST', `/${webhook.id}/test`],
			['POST', `/${webhook.id}/deliveries/${delivery.id}/retry`],
			['POST', `/${other.webhook.id}/deliveries/${delivery.id}/retry`],
		] as const) {
			const answer = await api.request(method, path(other.workspace.id, rest), {
				headers: other.owner.auth,
				body: method === 'PATCH' ? { enabled: false } : undefined,
			})
			expect(answer.status, `${method} ${rest}`).toBe(404)
		}
		// An API channel's own subscription is not one of the workspace's webhooks.
		const channel = await createLinkChannel(workspace.id)
		const { subscription } = await db()
			.transaction()
			.execute((trx) =>
				createSubscription(trx, {
					workspaceId: workspace.id,
					channelId: channel.id,
					url: receiver.endpoint('channel'),
					events: ['message.created'],
					createdBy: null,
					encryptionKey: api.config.ENCRYPTION_KEY,
				}),
			)
		const admin = await createUser({ workspaceId: workspace.id, role: 'admin' })
		const { webhooks } = (await api.request('GET', path(workspace.id), { headers: admin.auth })).body as { webhooks: Array<{ id: string }> }
		expect(webhooks.map((entry) => entry.id)).toEqual([webhook.id])
		expect((await api.request('GET', path(workspace.id, `/${subscription.id}`), { headers: admin.auth })).status).toBe(404)
	})
})
