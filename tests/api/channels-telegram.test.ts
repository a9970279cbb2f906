import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { sendAttempts } from '#api/conversations/jobs.ts'
import { startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { type ChannelReader, channelSuite, until } from './channels-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { conversationsPath, postMessage, type Published } from './conversations-fixtures.ts'
import { type Team } from './workspaces-fixtures.ts'

const published: Published[] = []
const suite = channelSuite(startTelegramFake, 'TELEGRAM_API_URL', 'Telegram', published)
let fake: TelegramFake, api: TestApi, team: Team, reader: ChannelReader
beforeAll(() => ({ fake, api, team, reader } = suite))

const channelsPath = (workspaceId: string, rest = '') => `/v1/workspaces/${workspaceId}/channels${rest}`

async function connect(name = 'Support bot') {
	const bot = fake.addBot()
	const created = await api.request('POST', channelsPath(team.workspace.id), {
		headers: team.admin.auth,
		body: { kind: 'telegram', name, credentials: { botToken: bot.token } },
	})
	expect(created.status).toBe(201)
	return { bot, channel: created.body as { id: string; kind: string; settings: Record<string, unknown>; status: string } }
}

describe('connecting a Telegram bot', () => {
	test('the token is checked with getMe, the webhook set to ours with a secret, and the credentials kept encrypted, never answered', async () => {
		const { bot, channel } = await connect()
		expect(channel).toMatchObject({ kind: 'telegram', status: 'active', settings: { botUsername: bot.username } })
		expect(JSON.stringify(channel)).not.toContain(bot.token)
		const webhook = fake.webhookOf(bot.token)
		expect(webhook?.url).toBe(`http://crm.test/webhooks/telegram/${channel.id}`)
		expect(webhook?.secretToken).toMatch(/^[A-Za-z0-9_-]{32,}$/)
		const row = await testDb().selectFrom('channels').select(['credentials', 'webhookSecret']).where('id', '=', channel.id).executeTakeFirstOrThrow()
		expect(row.credentials).toMatch(/^v1\./)
		expect(row.credentials).not.toContain(bot.token.split(':')[1])
		expect(row.webhookSecret).toBe(webhook?.secretToken)
	})

	test('a token Telegram does not know is refused beside the field, translated, and nothing is kept', async () => {
		const before = await testDb()
			.selectFrom('channels')
			.select(sql<number>`count(*)::int`.as('n'))
			.where('workspaceId', '=', team.workspace.id)
			.executeTakeFirstOrThrow()
		const refused = await api.request('POST', channelsPath(team.workspace.id), {
			headers: { ...team.admin.auth, 'Accept-Language': 'fr' },
			body: { kind: 'telegram', name: 'Wrong', credentials: { botToken: '123456789:AAHnot-a-token-telegram-knows' } },
		})
		expect(refused.status).toBe(422)
		const body = refused.body as { message: string; details: { fields: Record<string, string[]> } }
		expect(body.details.fields['credentials.botToken']?.[0]).toBe(body.message)
		expect(body.message).toMatch(/jeton/i)
		const malformed = await api.request('POST', channelsPath(team.workspace.id), {
			headers: team.admin.auth,
			body: { kind: 'telegram', name: 'Malformed', credentials: { botToken: 'hello' } },
		})
		expect(malformed.status).toBe(400)
		expect((malformed.body as { details: { fields: Record<string, string[]> } }).details.fields['credentials.botToken']).toHaveLength(1)
		const after = await testDb()
			.selectFrom('channels')
			.select(sql<number>`count(*)::int`.as('n'))
			.where('workspaceId', '=', team.workspace.id)
			.executeTakeFirstOrThrow()
		expect(after.n).toBe(before.n)
	})

	test('agents cannot connect a bot', async () => {
		const bot = fake.addBot()
		const refused = await api.request('POST', channelsPath(team.workspace.id), {
			headers: team.agent.auth,
			body: { kind: 'telegram', name: 'Mine', credentials: { botToken: bot.token } },
		})
		expect(refused.status).toBe(403)
		expect(fake.webhookOf(bot.token)).toBeUndefined()
	})
})

describe('messages in and out', () => {
	test('an update becomes a conversation; a reply reaches Telegram as sendMessage; a retried update is recorded once', async () => {
		const { bot, channel } = await connect('Inbound')
		const chat = { id: 555_000_001, firstName: 'ليلى', lastName: 'حسن' }
		const update = textUpdate(chat, 'مرحبا، أين طلبي؟')
		const first = await fake.postUpdate(bot.token, update, { origin: api.url })
		expect(first.status).toBe(200)
		const conversation = await reader.firstConversation(channel.id)
		expect(conversation?.contact.name).toBe('ليلى حسن')
		// The contact's page lists who they are on the channel: the chat id Telegram gave, and only to this workspace.
		const contactPath = `/v1/workspaces/${team.workspace.id}/contacts/${conversation.contact.id}`
		const contact = await api.request('GET', contactPath, { headers: team.agent.auth })
		expect((contact.body as { identities: unknown[] }).identities).toEqual([
			{ channelId: channel.id, channelKind: 'telegram', channelName: 'Inbound', externalId: String(chat.id), since: expect.any(String) },
		])
		expect((await api.request('GET', contactPath.replace(team.workspace.id, team.elsewhere.id), { headers: team.outsider.auth })).status).toBe(404)
		// Published after the commit, gathered for a few milliseconds.
		await expect.poll(() => published.some((entry) => entry.event === 'conversation.created' && entry.data.conversationId === conversation?.id)).toBe(true)

		// Telegram retries an update it did not see acknowledged: the same message, once.
		expect((await fake.postUpdate(bot.token, update, { origin: api.url })).status).toBe(200)
		await fake.postUpdate(bot.token, textUpdate(chat, 'Second message'), { origin: api.url })
		const messages = await until(async () => {
			const found = await reader.thread(conversation!.number)
			return found.length >= 2 ? found : undefined
		})
		expect(messages.map((message) => message.body)).toEqual(['مرحبا، أين طلبي؟', 'Second message'])

		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'Your order ships today.' })
		const sent = await fake.waitFor((request) => request.path === `/bot${bot.token}/sendMessage`)
		expect(sent.body).toEqual({ chat_id: String(chat.id), text: 'Your order ships today.' })
		const delivered = await until(async () =>
			(await reader.thread(conversation!.number)).find((message) => message.id === reply.id && message.status === 'sent'),
		)
		expect(delivered.error).toBeNull()
	})

	test('a forged or missing secret is refused and nothing is kept; an unknown channel is acknowledged and dropped', async () => {
		const { bot, channel } = await connect('Guarded')
		const forged = await fake.postUpdate(bot.token, textUpdate({ id: 555_000_002, firstName: 'Mallory' }, 'hi'), {
			origin: api.url,
			secretToken: 'not-the-secret',
		})
		expect(forged.status).toBe(401)
		expect(((await forged.json()) as { message: string }).message).toMatch(/secret/)
		expect((await fake.postUpdate(bot.token, textUpdate({ id: 555_000_002, firstName: 'Mallory' }, 'hi'), { origin: api.url, secretToken: null })).status).toBe(
			401,
		)
		const jobsFor = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where queue_name = ${`webhooks:${channel.id}`}`.execute(
			testDb(),
		)
		expect(jobsFor.rows[0]?.n).toBe(0)
		expect(await reader.conversationsOf(channel.id)).toEqual([])

		const gone = await api.request('POST', `/webhooks/telegram/00000000-0000-4000-8000-000000000000`, {
			body: textUpdate({ id: 1, firstName: 'Nobody' }, 'hi'),
		})
		expect(gone.status).toBe(200)
		expect((await api.request('POST', `/webhooks/fax/${channel.id}`, { body: {} })).status).toBe(404)
	})

	test('a 429 is tried again after retry_after; a blocked chat fails the message with Telegram’s reason', async () => {
		const { bot, channel } = await connect('Busy')
		const chat = { id: 555_000_003, firstName: 'Karim' }
		await fake.postUpdate(bot.token, textUpdate(chat, 'Hello'), { origin: api.url })
		const conversation = await reader.firstConversation(channel.id)
		fake.failNext(/\/sendMessage$/, {
			status: 429,
			body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } },
		})
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'One moment' })
		const sent = await until(async () => (await reader.thread(conversation!.number)).find((message) => message.id === reply.id && message.status === 'sent'))
		expect(sent).toBeDefined()
		const tries = fake.received.filter((request) => request.path === `/bot${bot.token}/sendMessage`)
		expect(tries).toHaveLength(2)

		fake.blockChat(chat.id)
		const blocked = await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'Are you there?' })
		const failed = await until(async () =>
			(await reader.thread(conversation!.number)).find((message) => message.id === blocked.id && message.status === 'failed'),
		)
		expect(failed.error).toBe('Forbidden: bot was blocked by the user')
		// A refusal is not retried.
		expect(
			fake.received.filter((request) => request.path === `/bot${bot.token}/sendMessage` && (request.body as { text: string }).text === 'Are you there?'),
		).toHaveLength(1)
		expect(sendAttempts).toBeGreaterThan(1)

		// Unblocked, the agent sends it again; a message that did not fail cannot be, nor another workspace's.
		fake.unblockChat(chat.id)
		const retryPath = conversationsPath(team.workspace.id, `/${conversation!.number}/messages/${blocked.id}/retry`)
		expect((await api.request('POST', retryPath.replace(team.workspace.id, team.elsewhere.id), { headers: team.outsider.auth })).status).toBe(404)
		const retried = await api.request('POST', retryPath, { headers: team.agent.auth })
		expect(retried.status).toBe(200)
		expect(retried.body).toMatchObject({ id: blocked.id, status: 'pending', error: null })
		await until(async () => (await reader.thread(conversation!.number)).find((message) => message.id === blocked.id && message.status === 'sent'))
		const again = await api.request('POST', retryPath, { headers: { ...team.agent.auth, 'Accept-Language': 'fr' } })
		expect(again.status).toBe(409)
		expect((again.body as { message: string }).message).toBe('Seul un message en échec peut être renvoyé.')
	})

	test('the list counts each channel’s messages in and out since midnight in the workspace’s zone', async () => {
		const { bot, channel } = await connect('Counted')
		const chat = { id: 555_000_005, firstName: 'Counted' }
		await fake.postUpdate(bot.token, textUpdate(chat, 'One'), { origin: api.url })
		await fake.postUpdate(bot.token, textUpdate(chat, 'Two'), { origin: api.url })
		const [conversation] = await until(async () => {
			const found = await reader.conversationsOf(channel.id)
			return found.length && (await reader.thread(found[0]!.number)).length === 2 ? found : undefined
		})
		await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'text', body: 'Reply' })
		await postMessage(api, team.agent.auth, team.workspace.id, conversation!.number, { kind: 'note', body: 'A note is not a message out' })
		// Yesterday's message is not today's.
		await sql`update messages set created_at = now() - interval '2 days' where conversation_id = ${conversation!.id} and body = 'One'`.execute(testDb())
		const listed = await api.request('GET', channelsPath(team.workspace.id), { headers: team.agent.auth })
		const counted = (listed.body as { channels: Array<{ id: string; today: unknown }> }).channels.find((entry) => entry.id === channel.id)
		expect(counted?.today).toEqual({ incoming: 1, outgoing: 1 })
	})

	test('deleting the channel deletes its webhook at Telegram', async () => {
		const { bot, channel } = await connect('Short-lived')
		expect(fake.webhookOf(bot.token)).toBeDefined()
		const deleted = await api.request('DELETE', channelsPath(team.workspace.id, `/${channel.id}`), { headers: team.owner.auth })
		expect(deleted.status).toBe(204)
		expect(fake.webhookOf(bot.token)).toBeUndefined()
	})

	test('another workspace can neither see the channel nor receive its updates', async () => {
		const { bot, channel } = await connect('Private')
		expect((await api.request('GET', channelsPath(team.elsewhere.id, `/${channel.id}`), { headers: team.outsider.auth })).status).toBe(404)
		await fake.postUpdate(bot.token, textUpdate({ id: 555_000_004, firstName: 'Nadia' }, 'Bonjour'), { origin: api.url })
		await until(async () => (await reader.conversationsOf(channel.id)).length > 0)
		const theirs = await api.request('GET', `${conversationsPath(team.elsewhere.id)}?status=all&search=Bonjour`, { headers: team.outsider.auth })
		expect((theirs.body as { conversations: unknown[] }).conversations).toEqual([])
	})
})

describe('changing a Telegram channel', () => {
	test('its name and switch change; link settings, a slug or credentials are refused', async () => {
		const { channel } = await connect('Renamed')
		const renamed = await api.request('PATCH', channelsPath(team.workspace.id, `/${channel.id}`), {
			headers: team.admin.auth,
			body: { name: 'Bot of the shop', enabled: false },
		})
		expect(renamed.status).toBe(200)
		expect(renamed.body).toMatchObject({ name: 'Bot of the shop', enabled: false, status: 'disabled', settings: channel.settings })
		for (const body of [{ slug: 'my-bot' }, { settings: { greeting: 'hi' } }, { credentials: { botToken: 'x' } }]) {
			const refused = await api.request('PATCH', channelsPath(team.workspace.id, `/${channel.id}`), { headers: team.admin.auth, body })
			expect(refused.status).toBe(400)
		}
	})

	test('a new token replaces the old one: checked with getMe, the webhook moved to the new bot with our secret, shown masked; a refusal changes nothing', async () => {
		const { bot, channel } = await connect('Renewed')
		const path = channelsPath(team.workspace.id, `/${channel.id}/credentials`)
		const secret = fake.webhookOf(bot.token)!.secretToken
		const read = await api.request('GET', channelsPath(team.workspace.id, `/${channel.id}`), { headers: team.admin.auth })
		expect((read.body as { maskedCredentials: unknown }).maskedCredentials).toEqual({ botToken: `••••${bot.token.slice(-4)}` })
		expect(JSON.stringify(read.body)).not.toContain(bot.token)
		expect(
			((await api.request('GET', channelsPath(team.workspace.id, `/${channel.id}`), { headers: team.agent.auth })).body as { maskedCredentials: unknown })
				.maskedCredentials,
		).toBeNull()

		const unknown = await api.request('PUT', path, {
			headers: team.admin.auth,
			body: { credentials: { botToken: '123456789:AAHthis-token-is-unknown-to-telegram' } },
		})
		expect(unknown.status).toBe(422)
		expect((unknown.body as { details: { fields: Record<string, string[]> } }).details.fields['credentials.botToken']?.[0]).toMatch(
			/does not accept this token/,
		)
		for (const body of [
			{ credentials: {} },
			{ credentials: { botToken: '' } },
			{ credentials: { botToken: 'not a token' } },
			{ credentials: { appSecret: 'abcdefghij' } },
			{},
		]) {
			expect((await api.request('PUT', path, { headers: team.admin.auth, body })).status).toBe(400)
		}
		expect((await api.request('PUT', path, { headers: team.agent.auth, body: { credentials: { botToken: bot.token } } })).status).toBe(403)
		expect(
			(
				await api.request('PUT', path.replace(team.workspace.id, team.elsewhere.id), {
					headers: team.outsider.auth,
					body: { credentials: { botToken: bot.token } },
				})
			).status,
		).toBe(404)
		expect(fake.webhookOf(bot.token)?.secretToken).toBe(secret)

		const renewed = fake.addBot({ username: 'renewed_bot' })
		const replaced = await api.request('PUT', path, { headers: team.admin.auth, body: { credentials: { botToken: renewed.token } } })
		expect(replaced.status).toBe(200)
		expect(replaced.body).toMatchObject({
			id: channel.id,
			status: 'active',
			settings: { botUsername: 'renewed_bot' },
			maskedCredentials: { botToken: `••••${renewed.token.slice(-4)}` },
		})
		expect(JSON.stringify(replaced.body)).not.toContain(renewed.token)
		expect(fake.webhookOf(bot.token)).toBeUndefined()
		expect(fake.webhookOf(renewed.token)).toEqual({ url: expect.stringMatching(new RegExp(`/webhooks/telegram/${channel.id}$`)), secretToken: secret })

		// The customer writes to the new bot; the reply leaves with the new token.
		await fake.postUpdate(renewed.token, textUpdate({ id: 555_000_009, firstName: 'Yara' }, 'Hello again'), { origin: api.url })
		const conversation = await reader.firstConversation(channel.id)
		await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Welcome back' })
		await fake.waitFor((request) => request.path === `/bot${renewed.token}/sendMessage`)
	})

	test('a chat link has no credentials to replace', async () => {
		const link = await api.request('POST', channelsPath(team.workspace.id), { headers: team.admin.auth, body: { kind: 'link', name: 'Site chat' } })
		const refused = await api.request('PUT', channelsPath(team.workspace.id, `/${(link.body as { id: string }).id}/credentials`), {
			headers: team.admin.auth,
			body: { credentials: { botToken: 'x' } },
		})
		expect(refused.status).toBe(422)
		expect((refused.body as { message: string }).message).toBe('This channel has no credentials to replace.')
	})
})
