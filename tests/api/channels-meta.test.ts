import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { beforeAll, describe, expect, test } from 'vitest'
import { customerFile, customerMessage, delivered, echo, type MetaFake, type MetaPage, pageWebhook, readUpTo, startMetaFake } from '../fakes/meta.ts'
import { type ChannelReader, channelSuite, until } from './channels-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { conversationsPath, postMessage } from './conversations-fixtures.ts'
import { type Team } from './workspaces-fixtures.ts'

const suite = channelSuite(startMetaFake, 'META_GRAPH_URL', 'Meta')
let fake: MetaFake, api: TestApi, team: Team, reader: ChannelReader
beforeAll(() => ({ fake, api, team, reader } = suite))

type Kind = 'messenger' | 'facebook' | 'instagram'
type Connected = { id: string; kind: Kind; status: string; settings: Record<string, unknown>; webhook: { url: string; verifyToken: string } }
type Fields = { details: { fields: Record<string, string[]> } }

const channelsPath = (rest = '') => `/v1/workspaces/${team.workspace.id}/channels${rest}`
const appSecret = '0c1d2e3f40516273849506a7b8c9d0e1'
const connectBody = (kind: Kind, page: Pick<MetaPage, 'pageId' | 'accessToken'>, name = `${kind} page`) => ({
	kind,
	name,
	settings: { pageId: page.pageId },
	credentials: { accessToken: page.accessToken, appSecret },
})

async function connect(kind: Kind = 'messenger', name?: string) {
	const page = fake.addPage()
	const created = await api.request('POST', channelsPath(), { headers: team.owner.auth, body: connectBody(kind, page, name) })
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	const channel = created.body as Connected
	// The webhook, reached as Meta reaches it: the path of PUBLIC_URL's address on this server.
	const webhook = `${api.url}${new URL(channel.webhook.url).pathname}`
	// Instagram's webhooks are about the Instagram account, the others' about the page.
	const account = kind === 'instagram' ? page.instagramAccountId! : page.pageId
	const object = kind === 'instagram' ? ('instagram' as const) : ('page' as const)
	const post = (...events: Array<Record<string, unknown>>) => fake.postWebhook(webhook, appSecret, pageWebhook(object, account, ...events))
	return { page, channel, webhook, account, post }
}

const sendsTo = (page: MetaPage) => (request: { method: string; path: string }) =>
	request.method === 'POST' && request.path.endsWith(`/${page.pageId}/messages`)
const statusOf = (id: string) => testDb().selectFrom('messages').select(['status', 'externalId', 'error']).where('id', '=', id).executeTakeFirstOrThrow()

describe('connecting a page', () => {
	test.each(['messenger', 'facebook', 'instagram'] as const)(
		'a %s channel connects once Meta knows the page with this token; the webhook and a generated verify token are shown, never the secrets',
		async (kind) => {
			const { page, channel } = await connect(kind)
			expect(channel).toMatchObject({ kind, status: 'active', settings: { pageId: page.pageId, pageName: page.name } })
			if (kind === 'instagram')
				expect(channel.settings).toMatchObject({ instagramAccountId: page.instagramAccountId, instagramUsername: page.instagramUsername })
			expect(channel.webhook.url).toBe(`http://crm.test/webhooks/${kind}/${channel.id}`)
			expect(channel.webhook.verifyToken).toMatch(/^[A-Za-z0-9_-]{32,}$/)
			expect(JSON.stringify(channel)).not.toContain(page.accessToken)
			expect(JSON.stringify(channel)).not.toContain(appSecret)
			const lookup = fake.received.find((request) => request.method === 'GET' && request.path === `/v21.0/${page.pageId}`)
			expect(lookup?.headers.authorization).toBe(`Bearer ${page.accessToken}`)
			expect(lookup?.query.get('fields')).toBe(kind === 'instagram' ? 'id,name,instagram_business_account{id,username}' : 'id,name')
			const row = await testDb().selectFrom('channels').select('credentials').where('id', '=', channel.id).executeTakeFirstOrThrow()
			expect(row.credentials).toMatch(/^v1\./)
			expect(row.credentials).not.toContain(page.accessToken)
			expect(((await api.request('GET', channelsPath(`/${channel.id}`), { headers: team.agent.auth })).body as { webhook: unknown }).webhook).toBeNull()
			expect(((await api.request('GET', channelsPath(`/${channel.id}`), { headers: team.admin.auth })).body as { webhook: unknown }).webhook).toEqual(
				channel.webhook,
			)
		},
	)

	test('a wrong token, a page Meta does not know, a page without Instagram and a malformed id are refused beside their field, translated, and nothing is kept', async () => {
		const count = async () =>
			(
				await testDb()
					.selectFrom('channels')
					.select(sql<number>`count(*)::int`.as('n'))
					.where('workspaceId', '=', team.workspace.id)
					.executeTakeFirstOrThrow()
			).n
		const before = await count()
		const page = fake.addPage()
		const wrongToken = await api.request('POST', channelsPath(), {
			headers: { ...team.owner.auth, 'Accept-Language': 'fr' },
			body: connectBody('messenger', { ...page, accessToken: 'EAABnot-the-token' }),
		})
		expect(wrongToken.status).toBe(422)
		expect((wrongToken.body as Fields).details.fields['credentials.accessToken']?.[0]).toMatch(/^Le fournisseur refuse ce jeton/)

		const unknownPage = await api.request('POST', channelsPath(), {
			headers: team.owner.auth,
			body: connectBody('facebook', { ...page, pageId: '999999999999' }),
		})
		expect(unknownPage.status).toBe(422)
		expect((unknownPage.body as Fields).details.fields['settings.pageId']).toEqual([
			'Meta does not know this page id with this token: check both in Meta Business Suite.',
		])

		const withoutInstagram = fake.addPage({ instagram: false })
		const notLinked = await api.request('POST', channelsPath(), {
			headers: { ...team.owner.auth, 'Accept-Language': 'ar' },
			body: connectBody('instagram', withoutInstagram),
		})
		expect(notLinked.status).toBe(422)
		expect((notLinked.body as Fields).details.fields['settings.pageId']?.[0]).toMatch(/^لا يوجد حساب إنستجرام احترافي/)

		const malformed = await api.request('POST', channelsPath(), {
			headers: team.owner.auth,
			body: { ...connectBody('messenger', page), settings: { pageId: 'my-page' }, credentials: { accessToken: '', appSecret } },
		})
		expect(malformed.status).toBe(400)
		expect(Object.keys((malformed.body as Fields).details.fields).sort()).toEqual(['credentials.accessToken', 'settings.pageId'])
		expect((await api.request('POST', channelsPath(), { headers: team.agent.auth, body: connectBody('messenger', page) })).status).toBe(403)
		expect(await count()).toBe(before)
	})

	test('Meta’s handshake is answered with the challenge for the verify token only', async () => {
		const { channel, webhook } = await connect('facebook')
		const challenge = await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=${channel.webhook.verifyToken}&hub.challenge=2084711384`)
		expect(challenge.status).toBe(200)
		expect(await challenge.text()).toBe('2084711384')
		expect((await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1`)).status).toBe(403)
		expect((await fetch(`${webhook}?hub.mode=unsubscribe&hub.verify_token=${channel.webhook.verifyToken}&hub.challenge=1`)).status).toBe(403)
	})
})

describe('messages in and out', () => {
	test('a signed message becomes a conversation with a contact by PSID, once; the reply reaches the Send API as Meta expects; deliveries and reads turn the ticks forward only', async () => {
		const { page, channel, account, post } = await connect('messenger', 'Inbound')
		const psid = '24681357900001'
		fake.addProfile(psid, { first_name: 'Amélie', last_name: 'Durand' })
		const first = customerMessage(account, psid, 'Bonjour, ma commande est-elle partie ?')
		expect((await post(first)).status).toBe(200)
		expect((await post(first)).status).toBe(200)
		await post(customerMessage(account, psid, 'Numéro 1042'))
		const conversation = await reader.firstConversation(channel.id)
		const thread = await until(async () => {
			const found = await reader.thread(conversation.number)
			return found.length === 2 ? found : undefined
		})
		expect(thread.map((message) => message.body)).toEqual(['Bonjour, ma commande est-elle partie ?', 'Numéro 1042'])
		// Named once by the User Profile API, with the page's token.
		expect(conversation.contact.name).toBe('Amélie Durand')
		const lookups = fake.received.filter((request) => request.path === `/v21.0/${psid}`)
		expect(lookups.map((request) => [request.query.get('fields'), request.headers.authorization])).toEqual([
			['first_name,last_name', `Bearer ${page.accessToken}`],
		])
		const identity = await testDb().selectFrom('contactIdentities').select(['contactId', 'externalId']).where('channelId', '=', channel.id).execute()
		expect(identity).toEqual([{ contactId: conversation.contact.id, externalId: psid }])

		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Oui, elle arrive demain.' })
		const sent = await fake.waitFor(sendsTo(page))
		expect(sent.path).toBe(`/v21.0/${page.pageId}/messages`)
		expect(sent.headers.authorization).toBe(`Bearer ${page.accessToken}`)
		expect(sent.body).toEqual({ recipient: { id: psid }, messaging_type: 'RESPONSE', message: { text: 'Oui, elle arrive demain.' } })
		const { externalId: mid } = await until(async () => {
			const row = await statusOf(reply.id)
			return row.status === 'sent' ? row : undefined
		})
		expect(mid).toMatch(/^m_/)

		await post(delivered(account, psid, Date.now(), [mid!]))
		await until(async () => (await statusOf(reply.id)).status === 'delivered')
		await post(readUpTo(account, psid, Date.now()))
		await until(async () => (await statusOf(reply.id)).status === 'read')
		// A late delivery does not undo the read.
		await post(delivered(account, psid, Date.now(), [mid!]))
		await new Promise((resolve) => setTimeout(resolve, 300))
		expect((await statusOf(reply.id)).status).toBe('read')
		expect(await reader.conversationsOf(channel.id)).toHaveLength(1)
	})

	test('a delivery watermark without ids ticks every message sent before it, not a later one', async () => {
		const { page, channel, account, post } = await connect('facebook', 'Watermarks')
		const psid = '24681357900002'
		await post(customerMessage(account, psid, 'Hello'))
		const conversation = await reader.firstConversation(channel.id)
		const earlier = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'First' })
		await until(async () => (await statusOf(earlier.id)).status === 'sent')
		const watermark = Date.now()
		await new Promise((resolve) => setTimeout(resolve, 20))
		const later = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Second' })
		await until(async () => (await statusOf(later.id)).status === 'sent')
		await post(delivered(account, psid, watermark))
		await until(async () => (await statusOf(earlier.id)).status === 'delivered')
		expect((await statusOf(later.id)).status).toBe('sent')
		expect(fake.received.filter(sendsTo(page))).toHaveLength(2)
	})

	test('an Instagram message arrives by the account’s id and IGSID; a page webhook sent to it is not its own', async () => {
		const { page, channel, account, webhook, post } = await connect('instagram', 'Instagram DMs')
		const igsid = '17841499999000001'
		fake.addProfile(igsid, { name: 'Nour Hassan', username: 'nour.h' })
		await fake.postWebhook(webhook, appSecret, pageWebhook('page', page.pageId, customerMessage(page.pageId, '24681357900099', 'Not for Instagram')))
		await post(customerMessage(account, igsid, 'Is the red dress in stock?'))
		const conversation = await reader.firstConversation(channel.id)
		expect((await reader.thread(conversation.number)).map((message) => message.body)).toEqual(['Is the red dress in stock?'])
		expect(conversation.contact.name).toBe('Nour Hassan')
		await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Yes, in every size.' })
		const sent = await fake.waitFor(sendsTo(page))
		expect(sent.body).toEqual({ recipient: { id: igsid }, messaging_type: 'RESPONSE', message: { text: 'Yes, in every size.' } })
	})

	test('a customer’s picture is downloaded from Meta’s CDN and served to members; a file anywhere else is not fetched', async () => {
		const { channel, account, post } = await connect('messenger', 'Pictures')
		const psid = '24681357900123'
		const bytes = Buffer.from('\x89PNG\r\n\x1a\n a picture of a cracked cup')
		await post(customerFile(account, psid, 'image', fake.addFile(bytes, 'cup.png', 'image/png')))
		const conversation = await reader.firstConversation(channel.id)
		const [message] = await until(async () => (await reader.thread(conversation.number)).filter((each) => each.attachments.length > 0))
		expect(message!.attachments).toEqual([
			{ id: expect.any(String), kind: 'image', filename: 'cup.png', contentType: 'image/png', size: bytes.length, status: 'stored' },
		])
		expect(conversation.lastMessage?.excerpt).toBe('📎 cup.png')
		const served = await fetch(`${api.url}/v1/workspaces/${team.workspace.id}/attachments/${message!.attachments[0]!.id}`, { headers: team.agent.auth })
		expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes)

		// A signed webhook still names only Meta's servers (or the Graph API's own): another address is never asked.
		await post(customerFile(account, psid, 'file', 'http://127.0.0.2:9/internal/secrets.txt'))
		const refused = await until(async () => (await reader.thread(conversation.number)).find((each) => each.attachments[0]?.filename === 'secrets.txt'))
		expect(refused.attachments).toMatchObject([{ kind: 'file', status: 'failed' }])
	})

	test('a redirect on the way to a file is followed on Meta’s servers only: one to a loopback address is never asked', async () => {
		// A service of the machine's own, which only a redirect could make the server ask.
		const internal: string[] = []
		const service = http.createServer((req, res) => {
			internal.push(req.url ?? '')
			res.end('the internal secrets')
		})
		await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
		try {
			const { channel, account, post } = await connect('messenger', 'Redirects')
			const psid = '24681357900456'
			const bytes = Buffer.from('\x89PNG\r\n\x1a\n a picture moved to another host of the CDN')
			await post(customerFile(account, psid, 'image', fake.addRedirect(fake.addFile(bytes, 'moved.png', 'image/png'), 'moved.png')))
			const conversation = await reader.firstConversation(channel.id)
			const moved = await until(async () => (await reader.thread(conversation.number)).find((each) => each.attachments[0]?.filename === 'moved.png'))
			expect(moved.attachments).toMatchObject([{ kind: 'image', status: 'stored', size: bytes.length }])

			const inside = `http://127.0.0.1:${(service.address() as AddressInfo).port}/internal/secrets.txt`
			await post(customerFile(account, psid, 'file', fake.addRedirect(inside, 'report.txt')))
			await post(customerFile(account, psid, 'file', fake.addRedirect(fake.addRedirect(inside, 'hop.txt'), 'twice.txt')))
			for (const filename of ['report.txt', 'twice.txt']) {
				const refused = await until(async () => (await reader.thread(conversation.number)).find((each) => each.attachments[0]?.filename === filename))
				expect(refused.attachments, filename).toMatchObject([{ kind: 'file', status: 'failed' }])
			}
			expect(internal).toEqual([])
		} finally {
			await new Promise<void>((resolve) => service.close(() => resolve()))
		}
	})

	test('an agent’s picture goes to the Send API as a multipart attachment, the text after it as its own message', async () => {
		const { page, channel, account, post } = await connect('messenger', 'Pictures out')
		const psid = '24681357900456'
		await post(customerMessage(account, psid, 'Can you send me the size chart?'))
		const conversation = await reader.firstConversation(channel.id)
		const bytes = Buffer.from('\x89PNG\r\n\x1a\n the size chart')
		const form = new FormData()
		form.set('kind', 'text')
		form.set('body', 'Here it is')
		form.set('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'sizes.png')
		const answer = await fetch(`${api.url}${conversationsPath(team.workspace.id, `/${conversation.number}/messages`)}`, {
			method: 'POST',
			headers: team.agent.auth,
			body: form,
		})
		expect(answer.status).toBe(201)
		const reply = (await answer.json()) as { id: string }
		await until(async () => (await statusOf(reply.id)).status === 'sent')
		const sent = fake.received.filter(sendsTo(page))
		expect(sent).toHaveLength(2)
		const upload = sent[0]!.body as {
			recipient: string
			messaging_type: string
			message: string
			filedata: { filename: string; contentType: string; bytes: Buffer }
		}
		expect(JSON.parse(upload.recipient)).toEqual({ id: psid })
		expect(upload.messaging_type).toBe('RESPONSE')
		expect(JSON.parse(upload.message)).toEqual({ attachment: { type: 'image', payload: { is_reusable: false } } })
		expect(upload.filedata).toMatchObject({ filename: 'sizes.png', contentType: 'image/png' })
		expect(upload.filedata.bytes.equals(bytes)).toBe(true)
		expect(sent[1]!.body).toEqual({ recipient: { id: psid }, messaging_type: 'RESPONSE', message: { text: 'Here it is' } })
	})

	test('a forged or missing signature is refused and nothing is kept; another page’s events are not this channel’s', async () => {
		const { channel, webhook, account } = await connect('messenger', 'Guarded')
		const payload = pageWebhook('page', account, customerMessage(account, '24681357900003', 'hi'))
		expect((await fake.postWebhook(webhook, appSecret, payload, { signature: 'sha256=00' })).status).toBe(401)
		expect((await fake.postWebhook(webhook, 'another-app-secret-entirely', payload)).status).toBe(401)
		const unsigned = await fetch(webhook, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'Accept-Language': 'fr' },
			body: JSON.stringify(payload),
		})
		expect(unsigned.status).toBe(401)
		expect(((await unsigned.json()) as { message: string }).message).toMatch(/signature/)
		const queued = await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where queue_name = ${`webhooks:${channel.id}`}`.execute(
			testDb(),
		)
		expect(queued.rows[0]?.n).toBe(0)

		// Signed with this app's secret but about another page (one app, several pages): recorded nowhere.
		const other = fake.addPage()
		expect(
			(await fake.postWebhook(webhook, appSecret, pageWebhook('page', other.pageId, customerMessage(other.pageId, '24681357900004', 'wrong page')))).status,
		).toBe(200)
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(await reader.conversationsOf(channel.id)).toEqual([])
	})

	test('a 429 is tried again after Retry-After; a refusal fails the reply with Meta’s reason, at once', async () => {
		const { page, channel, account, post } = await connect('messenger', 'Busy')
		await post(customerMessage(account, '24681357900005', 'Hello'))
		const conversation = await reader.firstConversation(channel.id)
		// Meta would not say who they are: their id stands for a name.
		expect(conversation.contact.name).toBe('24681357900005')
		fake.failNext(/\/messages$/, {
			status: 429,
			headers: { 'Retry-After': '1' },
			body: { error: { message: '(#613) Calls to this api have exceeded the rate limit.', type: 'OAuthException', code: 613, fbtrace_id: 'Arate' } },
		})
		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'One moment' })
		await until(async () => (await statusOf(reply.id)).status === 'sent')
		expect(fake.received.filter(sendsTo(page))).toHaveLength(2)

		fake.failNext(/\/messages$/, {
			status: 400,
			body: {
				error: { message: '(#551) This person isn’t available right now.', type: 'OAuthException', code: 551, error_subcode: 1545041, fbtrace_id: 'Agone' },
			},
		})
		const refused = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Are you there?' })
		const failed = await until(async () =>
			(await reader.thread(conversation.number)).find((message) => message.id === refused.id && message.status === 'failed'),
		)
		expect(failed.error).toBe('(#551) This person isn’t available right now.')
		expect(
			fake.received.filter((request) => sendsTo(page)(request) && (request.body as { message: { text: string } }).message.text === 'Are you there?'),
		).toHaveLength(1)
	})

	test('Graph’s rate-limit code in a 400 is tried again too; a token Meta no longer accepts fails the reply and marks the channel', async () => {
		const { page, channel, account, post } = await connect('instagram', 'Revoked')
		await post(customerMessage(account, '17841499999000003', 'Hello'))
		const conversation = await reader.firstConversation(channel.id)
		fake.failNext(/\/messages$/, {
			status: 400,
			body: { error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4, fbtrace_id: 'Aapp' } },
		})
		const slowed = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'First' })
		await until(async () => (await statusOf(slowed.id)).status === 'sent')
		expect(fake.received.filter(sendsTo(page))).toHaveLength(2)

		fake.failNext(/\/messages$/, {
			status: 400,
			body: {
				error: {
					message: 'Error validating access token: The user has not authorized application 1517776481860111.',
					type: 'OAuthException',
					code: 190,
					error_subcode: 458,
					fbtrace_id: 'Arevoked',
				},
			},
		})
		const refused = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Second' })
		await until(async () => (await statusOf(refused.id)).status === 'failed')
		const row = await testDb().selectFrom('channels').select(['status', 'statusDetail']).where('id', '=', channel.id).executeTakeFirstOrThrow()
		expect(row).toEqual({ status: 'error', statusDetail: 'Error validating access token: The user has not authorized application 1517776481860111.' })
		expect(fake.received.filter(sendsTo(page))).toHaveLength(3)
	})

	test('echoes: the page’s message from Meta Business Suite is recorded once as outgoing; the echo of our own reply is not a second copy', async () => {
		const { page, channel, account, post } = await connect('messenger', 'Echoes')
		const psid = '24681357900006'
		await post(customerMessage(account, psid, 'Do you ship to Alexandria?'))
		const conversation = await reader.firstConversation(channel.id)
		const fromSuite = echo(account, psid, 'Yes, in two days.')
		await post(fromSuite)
		await post(fromSuite)
		const echoed = await until(async () => (await reader.thread(conversation.number)).find((message) => message.body === 'Yes, in two days.'))
		expect(echoed).toMatchObject({ direction: 'outgoing', kind: 'text', status: 'sent' })

		const reply = await postMessage(api, team.agent.auth, team.workspace.id, conversation.number, { kind: 'text', body: 'Free of charge.' })
		const { externalId } = await until(async () => {
			const row = await statusOf(reply.id)
			return row.status === 'sent' ? row : undefined
		})
		await post(echo(account, psid, 'Free of charge.', externalId!))
		await new Promise((resolve) => setTimeout(resolve, 500))
		const thread = await reader.thread(conversation.number)
		expect(thread.filter((message) => message.body === 'Yes, in two days.')).toHaveLength(1)
		expect(thread.filter((message) => message.body === 'Free of charge.')).toHaveLength(1)
		expect(fake.received.filter(sendsTo(page))).toHaveLength(1)
	})

	test('a switched-off channel’s webhook is acknowledged and dropped', async () => {
		const { channel, account, post } = await connect('facebook', 'Switched off')
		expect((await api.request('PATCH', channelsPath(`/${channel.id}`), { headers: team.admin.auth, body: { enabled: false } })).status).toBe(200)
		expect((await post(customerMessage(account, '24681357900007', 'Anyone?'))).status).toBe(200)
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(await reader.conversationsOf(channel.id)).toEqual([])
	})

	test('past 24 hours a reply is refused with a translated reason; a note is still fine', async () => {
		const { channel, account, post } = await connect('messenger', 'Window')
		await post(customerMessage(account, '24681357900008', 'Hello?'))
		const conversation = await reader.firstConversation(channel.id)
		const path = conversationsPath(team.workspace.id, `/${conversation.number}/messages`)
		await sql`update messages set created_at = now() - interval '25 hours' where conversation_id = ${conversation.id} and direction = 'incoming'`.execute(
			testDb(),
		)
		const refused = await api.request('POST', path, { headers: { ...team.agent.auth, 'Accept-Language': 'fr' }, body: { kind: 'text', body: 'Still there?' } })
		expect(refused.status).toBe(422)
		expect((refused.body as { message: string }).message).toBe(
			'Plus de 24 heures depuis le dernier message du client : Meta ne laisse passer aucune réponse avant qu’il écrive de nouveau.',
		)
		expect((await api.request('POST', path, { headers: team.agent.auth, body: { kind: 'note', body: 'Wait for them' } })).status).toBe(201)
		const templates = await api.request('GET', channelsPath(`/${channel.id}/templates`), { headers: team.agent.auth })
		expect(templates.status).toBe(422)
	})

	test('another workspace can neither see the channel nor its conversations', async () => {
		const { channel, account, post } = await connect('instagram', 'Private')
		expect((await api.request('GET', `/v1/workspaces/${team.elsewhere.id}/channels/${channel.id}`, { headers: team.outsider.auth })).status).toBe(404)
		expect((await api.request('GET', channelsPath(`/${channel.id}`), { headers: team.outsider.auth })).status).toBe(404)
		await post(customerMessage(account, '17841499999000002', 'Salut'))
		await reader.firstConversation(channel.id)
		const theirs = await api.request('GET', `${conversationsPath(team.elsewhere.id)}?status=all&search=Salut`, { headers: team.outsider.auth })
		expect((theirs.body as { conversations: unknown[] }).conversations).toEqual([])
	})
})
