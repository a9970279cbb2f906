import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { customerQueue } from '#api/webhooks/jobs.ts'
import { inboundText, startWhatsAppFake, statusUpdate, type WhatsAppFake } from '../fakes/whatsapp.ts'
import { type ChannelReader, channelSuite, until } from './channels-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { conversationsPath, postMessage } from './conversations-fixtures.ts'
import { type Team } from './workspaces-fixtures.ts'

const suite = channelSuite(startWhatsAppFake, 'WHATSAPP_API_URL', 'WhatsApp')
let fake: WhatsAppFake, api: TestApi, team: Team, reader: ChannelReader
beforeAll(() => ({ fake, api, team, reader } = suite))

const channelsPath = (rest = '') => `/v1/workspaces/${team.workspace.id}/channels${rest}`
const appSecret = 'f3a1c0ffee0123456789abcdef012345'

type Connected = { id: string; settings: Record<string, unknown>; webhook: { url: string; verifyToken: string } }

async function connect(name = 'WhatsApp support') {
	const number = fake.addNumber()
	const created = await api.request('POST', channelsPath(), {
		headers: team.owner.auth,
		body: {
			kind: 'whatsapp',
			name,
			settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
			credentials: { accessToken: number.accessToken, appSecret },
		},
	})
	expect(created.status).toBe(201)
	const channel = created.body as Connected
	// The webhook, reached as Meta reaches it: the path of PUBLIC_URL's address on this server.
	const webhook = `${api.url}${new URL(channel.webhook.url).pathname}`
	return { number, channel, webhook }
}

describe('a WhatsApp number', () => {
	test('connects once Meta knows the number with this token; the webhook and a generated verify token are shown to owners only, never the secrets', async () => {
		const { number, channel } = await connect()
		expect(channel.settings).toMatchObject({ phoneNumberId: number.phoneNumberId, displayPhoneNumber: number.displayPhoneNumber, verifiedName: 'Acme Support' })
		expect(channel.webhook.url).toBe(`http://crm.test/webhooks/whatsapp/${channel.id}`)
		expect(channel.webhook.verifyToken).toMatch(/^[A-Za-z0-9_-]{32,}$/)
		expect(JSON.stringify(channel)).not.toContain(number.accessToken)
		expect(JSON.stringify(channel)).not.toContain(appSecret)
		expect(((await api.request('GET', channelsPath(`/${channel.id}`), { headers: team.agent.auth })).body as { webhook: unknown }).webhook).toBeNull()
		expect(((await api.request('GET', channelsPath(`/${channel.id}`), { headers: team.admin.auth })).body as { webhook: unknown }).webhook).toEqual(
			channel.webhook,
		)

		const wrongToken = await api.request('POST', channelsPath(), {
			headers: team.owner.auth,
			body: {
				kind: 'whatsapp',
				name: 'Wrong',
				settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
				credentials: { accessToken: 'EAAGnot-the-token', appSecret },
			},
		})
		expect(wrongToken.status).toBe(422)
		expect((wrongToken.body as { details: { fields: Record<string, string[]> } }).details.fields['credentials.accessToken']?.[0]).toMatch(
			/does not accept this token/,
		)
	})

	test('Meta’s handshake is answered with the challenge for the verify token only', async () => {
		const { channel, webhook } = await connect('Handshake')
		const challenge = await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=${channel.webhook.verifyToken}&hub.challenge=1158201444`)
		expect(challenge.status).toBe(200)
		expect(await challenge.text()).toBe('1158201444')
		expect((await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1`)).status).toBe(403)
	})

	test('a signed message becomes a conversation once; the reply reaches the Cloud API; statuses turn the ticks forward only; a forged signature stores nothing', async () => {
		const { number, channel, webhook } = await connect('Messages')
		const customer = { waId: '201001234567', name: 'Mona Adel' }
		const payload = inboundText(number.phoneNumberId, customer, 'السلام عليكم، هل الطلب جاهز؟')
		expect((await fake.postWebhook(webhook, appSecret, payload)).status).toBe(200)
		expect((await fake.postWebhook(webhook, appSecret, payload)).status).toBe(200)
		const conversation = await reader.firstConversation(channel.id)
		expect(conversation?.contact).toMatchObject({ name: 'Mona Adel', phone: '+201001234567' })
		expect((await reader.thread(conversation!.number)).filter((message) => message.direction === 'incoming')).toHaveLength(1)

		const forged = await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, { waId: '201009999999', name: 'Mallory' }, 'hi'), {
			signature: 'sha256=00',
		})
		expect(forged.status).toBe(401)
		const unsigned = await fake.postWebhook(
			webhook,
			'another-app-secret-entirely',
			inboundText(number.phoneNumberId, { waId: '201009999999', name: 'Mallory' }, 'hi'),
		)
		expect(unsigned.status).toBe(401)

		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'نعم، سيصل اليوم.' })
		const sent = await fake.waitFor((request) => request.method === 'POST' && request.path.endsWith(`/${number.phoneNumberId}/messages`))
		expect(sent.path).toBe(`/v21.0/${number.phoneNumberId}/messages`)
		expect(sent.headers.authorization).toBe(`Bearer ${number.accessToken}`)
		expect(sent.body).toEqual({
			messaging_product: 'whatsapp',
			recipient_type: 'individual',
			to: customer.waId,
			type: 'text',
			text: { preview_url: false, body: 'نعم، سيصل اليوم.' },
		})
		const row = await until(async () =>
			testDb().selectFrom('messages').select(['externalId', 'status']).where('id', '=', reply.id).where('status', '=', 'sent').executeTakeFirst(),
		)
		const wamid = row.externalId!
		expect(wamid).toMatch(/^wamid\./)

		for (const status of ['read', 'delivered'] as const)
			await fake.postWebhook(webhook, appSecret, statusUpdate(number.phoneNumberId, wamid, customer.waId, status))
		await until(async () => (await reader.thread(conversation!.number)).find((message) => message.id === reply.id && message.status === 'read'))
		// The late "delivered" did not undo "read".
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect((await reader.thread(conversation!.number)).find((message) => message.id === reply.id)?.status).toBe('read')
		expect(await reader.conversationsOf(channel.id)).toHaveLength(1)
	})

	test('a 400 from the Cloud API fails the reply with its reason; a failed status says why', async () => {
		const { number, channel, webhook } = await connect('Refusals')
		const customer = { waId: '201007654321', name: 'Omar' }
		await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, customer, 'Hello'))
		const conversation = await reader.firstConversation(channel.id)
		fake.failNext(/\/messages$/, {
			status: 400,
			body: { error: { message: '(#131026) Message Undeliverable', type: 'OAuthException', code: 131026, fbtrace_id: 'Axyz' } },
		})
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'Are you there?' })
		const failed = await until(async () =>
			(await reader.thread(conversation!.number)).find((message) => message.id === reply.id && message.status === 'failed'),
		)
		expect(failed.error).toBe('(#131026) Message Undeliverable')

		const second = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'Second try' })
		const row = await until(async () =>
			testDb().selectFrom('messages').select(['externalId']).where('id', '=', second.id).where('status', '=', 'sent').executeTakeFirst(),
		)
		await fake.postWebhook(
			webhook,
			appSecret,
			statusUpdate(number.phoneNumberId, row.externalId!, customer.waId, 'failed', {
				code: 131047,
				title: 'Re-engagement message',
				details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
			}),
		)
		const rejected = await until(async () =>
			(await reader.thread(conversation!.number)).find((message) => message.id === second.id && message.status === 'failed'),
		)
		expect(rejected.error).toContain('more than 24 hours')
	})

	test('a rotated app secret replaces the old one alone: webhooks signed with the old one are refused, the token and verify token are kept', async () => {
		const { number, channel, webhook } = await connect('Rotated')
		const path = channelsPath(`/${channel.id}/credentials`)
		const rotated = '0123456789abcdef0123456789abcdef'
		const wrongToken = await api.request('PUT', path, { headers: team.owner.auth, body: { credentials: { accessToken: 'EAAGnot-the-token' } } })
		expect(wrongToken.status).toBe(422)
		const replaced = await api.request('PUT', path, { headers: team.owner.auth, body: { credentials: { appSecret: rotated } } })
		expect(replaced.status).toBe(200)
		expect(replaced.body).toMatchObject({
			webhook: channel.webhook,
			maskedCredentials: { accessToken: `••••${number.accessToken.slice(-4)}`, appSecret: `••••${rotated.slice(-4)}` },
		})
		const customer = { waId: '201006660000', name: 'Salma' }
		expect((await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, customer, 'Old secret'))).status).toBe(401)
		expect((await fake.postWebhook(webhook, rotated, inboundText(number.phoneNumberId, customer, 'New secret'))).status).toBe(200)
		const conversation = await reader.firstConversation(channel.id)
		expect((await reader.thread(conversation.number)).map((message) => message.body)).toEqual(['New secret'])
	})

	test('a token Meta stopped accepting fails the reply and marks the channel failing since then; the next delivery clears it', async () => {
		const { number, channel, webhook } = await connect('Revoked')
		await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, { waId: '201005550000', name: 'Rana' }, 'Hi'))
		const conversation = await reader.firstConversation(channel.id)
		const expired = 'Error validating access token: Session has expired on Tuesday, 24-Nov-26 03:00:00 PST.'
		fake.failNext(/\/messages$/, {
			status: 401,
			body: { error: { message: expired, type: 'OAuthException', code: 190, error_subcode: 463, fbtrace_id: 'Aexp' } },
		})
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'Hello Rana' })
		await until(async () => (await reader.thread(conversation!.number)).find((message) => message.id === reply.id && message.status === 'failed'))
		const listed = async () =>
			(
				(await api.request('GET', channelsPath(), { headers: team.agent.auth })).body as {
					channels: Array<{ id: string; status: string; statusDetail: string | null; failingSince: string | null }>
				}
			).channels.find((entry) => entry.id === channel.id)!
		const failing = await listed()
		expect(failing).toMatchObject({ status: 'error', statusDetail: expired })
		expect(Date.now() - Date.parse(failing.failingSince!)).toBeLessThan(60_000)

		const retried = await api.request('POST', conversationsPath(team.workspace.id, `/${conversation!.number}/messages/${reply.id}/retry`), {
			headers: team.agent.auth,
		})
		expect(retried.status).toBe(200)
		await until(async () => (await reader.thread(conversation!.number)).find((message) => message.id === reply.id && message.status === 'sent'))
		expect(await listed()).toMatchObject({ status: 'active', statusDetail: null, failingSince: null })
	})
})

describe('webhooks under load', () => {
	test('each customer’s messages are recorded in the order they came, through a queue of their own on the channel, while other customers’ run beside it; a webhook with two customers records both once', async () => {
		const { number, channel, webhook } = await connect('Queues')
		// Two customers whose queues differ (the queue is a hash of the wa_id).
		const first = { waId: '201110000001', name: 'Hoda' }
		const second = [2, 3, 4, 5, 6, 7, 8, 9]
			.map((n) => ({ waId: `20111000000${n}`, name: 'Karim' }))
			.find((customer) => customerQueue(customer.waId) !== customerQueue(first.waId))!
		for (let n = 1; n <= 12; n++) {
			expect((await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, first, `first ${n}`))).status).toBe(200)
			expect((await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, second, `second ${n}`))).status).toBe(200)
		}
		// Meta may batch several customers' messages in one webhook.
		const batched = inboundText(number.phoneNumberId, first, 'first 13')
		const other = inboundText(number.phoneNumberId, second, 'second 13').entry[0]!.changes[0]!.value
		batched.entry[0]!.changes[0]!.value.messages.push(...other.messages)
		batched.entry[0]!.changes[0]!.value.contacts.push(...other.contacts)
		expect((await fake.postWebhook(webhook, appSecret, batched)).status).toBe(200)
		expect((await fake.postWebhook(webhook, appSecret, batched)).status).toBe(200)

		const bodies = (waId: string) =>
			sql<{
				body: string
			}>`select m.body from messages m join contact_identities i on i.contact_id = (select contact_id from conversations where id = m.conversation_id)
				where m.channel_id = ${channel.id} and i.channel_id = ${channel.id} and i.external_id = ${waId} and m.direction = 'incoming' order by m.id`
				.execute(testDb())
				.then(({ rows }) => rows.map((row) => row.body))
		const expected = (prefix: string) => Array.from({ length: 13 }, (_, n) => `${prefix} ${n + 1}`)
		await until(async () => (await bodies(first.waId)).length === 13 && (await bodies(second.waId)).length === 13)
		expect(await bodies(first.waId)).toEqual(expected('first'))
		expect(await bodies(second.waId)).toEqual(expected('second'))
		const queues = await sql<{
			name: string
		}>`select queue_name as name from graphile_worker._private_job_queues where queue_name like ${`webhooks:${channel.id}%`} order by 1`.execute(testDb())
		expect(queues.rows.map((row) => row.name)).toEqual(
			[customerQueue(first.waId), customerQueue(second.waId)]
				.sort()
				.map((queue) => `webhooks:${channel.id}:${queue}`)
				.sort(),
		)
	})
})

describe('the 24-hour window', () => {
	test('past it, a free reply is refused with a translated reason and an approved template goes out with its parameters', async () => {
		const { number, channel, webhook } = await connect('Window')
		const customer = { waId: '201005550000', name: 'Salma' }
		await fake.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, customer, 'Is the blue one back in stock?'))
		const conversation = await reader.firstConversation(channel.id)
		const path = conversationsPath(team.workspace.id, `/${conversation!.number}/messages`)
		// Within the window, a free reply is fine.
		expect((await api.request('POST', path, { headers: team.agent.auth, body: { kind: 'text', body: 'Let me check.' } })).status).toBe(201)

		await sql`update messages set created_at = now() - interval '25 hours' where conversation_id = ${conversation!.id} and direction = 'incoming'`.execute(
			testDb(),
		)
		const refused = await api.request('POST', path, { headers: { ...team.agent.auth, 'Accept-Language': 'ar' }, body: { kind: 'text', body: 'It is back!' } })
		expect(refused.status).toBe(422)
		expect((refused.body as { message: string }).message).toBe('مرّت أكثر من 24 ساعة على آخر رسالة من العميل: أرسل قالبًا معتمدًا بدلًا من ذلك.')
		// A note is never sent, so it is always allowed.
		expect((await api.request('POST', path, { headers: team.agent.auth, body: { kind: 'note', body: 'Window closed, template next' } })).status).toBe(201)

		const listed = await api.request('GET', channelsPath(`/${channel.id}/templates`), { headers: team.agent.auth })
		expect(listed.body).toEqual({
			templates: [{ name: 'order_update', language: 'en_US', category: 'UTILITY', body: 'Hello {{1}}, your order {{2}} has shipped.', parameterCount: 2 }],
		})
		const missing = await api.request('POST', path, {
			headers: team.agent.auth,
			body: { kind: 'template', template: { name: 'summer_sale', language: 'en_US', parameters: [] } },
		})
		expect(missing.status).toBe(422)
		const short = await api.request('POST', path, {
			headers: team.agent.auth,
			body: { kind: 'template', template: { name: 'order_update', language: 'en_US', parameters: ['Salma'] } },
		})
		expect((short.body as { details: { fields: Record<string, string[]> } }).details.fields['template.parameters']).toEqual(['This template takes 2 values.'])

		const sent = await api.request('POST', path, {
			headers: team.agent.auth,
			body: { kind: 'template', template: { name: 'order_update', language: 'en_US', parameters: ['Salma', '#1042'] } },
		})
		expect(sent.status).toBe(201)
		expect(sent.body).toMatchObject({ kind: 'text', body: 'Hello Salma, your order #1042 has shipped.', status: 'pending' })
		const request = await fake.waitFor((received) => (received.body as { type?: string } | null)?.type === 'template')
		expect(request.body).toEqual({
			messaging_product: 'whatsapp',
			recipient_type: 'individual',
			to: customer.waId,
			type: 'template',
			template: {
				name: 'order_update',
				language: { code: 'en_US' },
				components: [
					{
						type: 'body',
						parameters: [
							{ type: 'text', text: 'Salma' },
							{ type: 'text', text: '#1042' },
						],
					},
				],
			},
		})
	})

	test('channels without templates say so', async () => {
		const link = await api.request('POST', channelsPath(), { headers: team.owner.auth, body: { kind: 'link', name: 'No templates' } })
		const answer = await api.request('GET', channelsPath(`/${(link.body as { id: string }).id}/templates`), { headers: team.agent.auth })
		expect(answer.status).toBe(422)
		expect((answer.body as { message: string }).message).toBe('This channel has no message templates.')
	})
})
