import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { documentUpdate, photoUpdate, startTelegramFake, textUpdate, type TelegramFake } from '../fakes/telegram.ts'
import { inboundMedia, inboundText, startWhatsAppFake, type WhatsAppFake } from '../fakes/whatsapp.ts'
import { type channelReader, startChannelsApi, until } from './channels-fixtures.ts'
import { createLinkChannel, type MessageJson } from './conversations-fixtures.ts'
import { testDb, type TestApi } from './harness.ts'
import { type Team } from './workspaces-fixtures.ts'

// Small, so that the size limit is cheap to pass.
const maxBytes = 64 * 1024
const appSecret = 'attachments-app-secret'

let telegram: TelegramFake
let whatsapp: WhatsAppFake
let api: TestApi
let team: Team
let reader: ReturnType<typeof channelReader>
let close: () => Promise<void>

beforeAll(async () => {
	;[telegram, whatsapp] = await Promise.all([startTelegramFake(), startWhatsAppFake()])
	;({ api, team, reader, close } = await startChannelsApi(
		{ TELEGRAM_API_URL: telegram.url, WHATSAPP_API_URL: whatsapp.url, UPLOAD_MAX_BYTES: String(maxBytes) },
		'Attachments',
	))
})

afterAll(async () => {
	await close()
	await Promise.all([telegram.close(), whatsapp.close()])
})

const channelsPath = `/v1/workspaces/${'{id}'}/channels`
const attachmentPath = (workspaceId: string, id: string) => `/v1/workspaces/${workspaceId}/attachments/${id}`
/** Bytes that start as a JPEG does, and differ every time. */
const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(size - 4)])

async function connectTelegram() {
	const bot = telegram.addBot()
	const created = await api.request('POST', channelsPath.replace('{id}', team.workspace.id), {
		headers: team.admin.auth,
		body: { kind: 'telegram', name: `Bot ${bot.id}`, credentials: { botToken: bot.token } },
	})
	expect(created.status).toBe(201)
	return { bot, channel: created.body as { id: string } }
}

async function connectWhatsApp() {
	const number = whatsapp.addNumber()
	const created = await api.request('POST', channelsPath.replace('{id}', team.workspace.id), {
		headers: team.owner.auth,
		body: {
			kind: 'whatsapp',
			name: `Number ${number.phoneNumberId}`,
			settings: { phoneNumberId: number.phoneNumberId, businessAccountId: number.businessAccountId },
			credentials: { accessToken: number.accessToken, appSecret },
		},
	})
	expect(created.status).toBe(201)
	const channel = created.body as { id: string; webhook: { url: string } }
	return { number, channel, webhook: `${api.url}${new URL(channel.webhook.url).pathname}` }
}

/** The customer's message of the channel's first conversation, once the job has recorded it. */
async function incomingOf(channelId: string): Promise<MessageJson> {
	const conversation = await reader.firstConversation(channelId)
	return until(async () => (await reader.thread(conversation.number)).find((message) => message.direction === 'incoming'))
}

const download = (workspaceId: string, id: string, auth: Record<string, string> = {}) =>
	fetch(`${api.url}${attachmentPath(workspaceId, id)}`, { headers: auth })

/** Files kept under DATA_DIR/uploads. */
const storedFiles = () => {
	const root = path.join(api.dataDir, 'uploads')
	return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()) : []
}

describe('inbound attachments', () => {
	test('a Telegram photo is fetched by getFile in the job, kept under a random name with its caption as the text, and shown to members', async () => {
		const { bot, channel } = await connectTelegram()
		const bytes = jpeg(20_000)
		const photo = telegram.addFile(bot.token, bytes, { path: 'photos/file_7.jpg' })
		const update = photoUpdate({ id: 55_001, firstName: 'Salma' }, photo, 'الفاتورة الممزقة')
		expect((await telegram.postUpdate(bot.token, update, { origin: api.url })).status).toBe(200)
		// Delivered twice (Telegram retries): recorded and downloaded once.
		expect((await telegram.postUpdate(bot.token, update, { origin: api.url })).status).toBe(200)

		const message = await incomingOf(channel.id)
		expect(message.body).toBe('الفاتورة الممزقة')
		expect((await reader.conversationsOf(channel.id))[0]?.lastMessage?.excerpt).toBe('الفاتورة الممزقة')
		expect(message.attachments).toEqual([
			{ id: expect.any(String), kind: 'image', filename: 'photo.jpg', contentType: 'image/jpeg', size: bytes.length, status: 'stored' },
		])
		const getFile = telegram.received.find((request) => request.path.endsWith('/getFile'))
		expect(getFile?.body).toEqual({ file_id: photo.fileId })
		// The channel's queue runs in order: once a later message is in, the repeated delivery has been handled.
		await telegram.postUpdate(bot.token, textUpdate({ id: 55_001, firstName: 'Salma' }, 'later'), { origin: api.url })
		const conversationNumber = (await reader.firstConversation(channel.id)).number
		await until(async () => (await reader.thread(conversationNumber)).some((later) => later.body === 'later'))
		expect((await reader.thread(conversationNumber)).filter((incoming) => incoming.attachments.length > 0)).toHaveLength(1)
		expect(telegram.received.filter((request) => request.path === `/file/bot${bot.token}/photos/file_7.jpg`)).toHaveLength(1)

		const row = await testDb().selectFrom('attachments').selectAll().where('id', '=', message.attachments[0]!.id).executeTakeFirstOrThrow()
		expect(row.storageKey).toMatch(/^[0-9a-f]{32}$/)
		expect(row.workspaceId).toBe(team.workspace.id)

		const served = await download(team.workspace.id, row.id, team.agent.auth)
		expect(served.status).toBe(200)
		expect(served.headers.get('content-type')).toBe('image/jpeg')
		expect(served.headers.get('content-disposition')).toBe(`inline; filename="photo.jpg"; filename*=UTF-8''photo.jpg`)
		expect(served.headers.get('x-content-type-options')).toBe('nosniff')
		expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
	})

	test('a WhatsApp document is fetched by its media id (its URL, then the bytes with the token), kept with its name, and served as a download', async () => {
		const { number, channel, webhook } = await connectWhatsApp()
		const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), crypto.randomBytes(9_000)])
		const media = whatsapp.addMedia(number.phoneNumberId, bytes, 'application/pdf')
		const payload = inboundMedia(number.phoneNumberId, { waId: '201001112223', name: 'Karim' }, 'document', {
			...media,
			mimeType: 'application/pdf',
			filename: 'facture mars "2026".pdf',
		})
		expect((await whatsapp.postWebhook(webhook, appSecret, payload)).status).toBe(200)

		const message = await incomingOf(channel.id)
		expect(message.body).toBe('')
		expect(message.attachments).toMatchObject([
			{ kind: 'file', filename: 'facture mars "2026".pdf', contentType: 'application/pdf', size: bytes.length, status: 'stored' },
		])
		const info = whatsapp.received.find((request) => request.path === `/v21.0/${media.mediaId}`)
		expect(info?.headers.authorization).toBe(`Bearer ${number.accessToken}`)
		const file = whatsapp.received.find((request) => request.path === '/whatsapp_business/attachments/')
		expect(file?.headers.authorization).toBe(`Bearer ${number.accessToken}`)
		const [conversation] = await reader.conversationsOf(channel.id)
		expect(conversation?.lastMessage?.excerpt).toBe('📎 facture mars "2026".pdf')

		const served = await download(team.workspace.id, message.attachments[0]!.id, team.owner.auth)
		expect(served.status).toBe(200)
		expect(served.headers.get('content-type')).toBe('application/pdf')
		expect(served.headers.get('content-disposition')).toBe(`attachment; filename="facture mars _2026_.pdf"; filename*=UTF-8''facture%20mars%20%222026%22.pdf`)
		expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
	})

	test('a file over UPLOAD_MAX_BYTES keeps its message, with a note that it was too large, and stores nothing', async () => {
		const { bot, channel } = await connectTelegram()
		const before = storedFiles().length
		const big = telegram.addFile(bot.token, jpeg(maxBytes + 1), { path: 'documents/file_9.zip' })
		const update = documentUpdate({ id: 55_002, firstName: 'Nour' }, big, { name: 'photos.zip', mimeType: 'application/zip' }, 'all the photos')
		await telegram.postUpdate(bot.token, update, { origin: api.url })
		const message = await incomingOf(channel.id)
		expect(message.body).toBe('all the photos')
		expect(message.attachments).toMatchObject([{ kind: 'file', filename: 'photos.zip', size: maxBytes + 1, status: 'too-large' }])
		// Announced too large: not even asked for.
		expect(telegram.received.some((request) => request.path.endsWith('/getFile') && (request.body as { file_id?: string }).file_id === big.fileId)).toBe(false)
		expect(telegram.received.some((request) => request.path === `/file/bot${bot.token}/documents/file_9.zip`)).toBe(false)
		expect(storedFiles().length).toBe(before)
		expect((await download(team.workspace.id, message.attachments[0]!.id, team.agent.auth)).status).toBe(404)
	})

	test('a file that turns out larger than announced is cut off at the limit and kept as too large', async () => {
		const { number, channel, webhook } = await connectWhatsApp()
		const before = storedFiles().length
		const media = whatsapp.addMedia(number.phoneNumberId, jpeg(maxBytes * 2), 'image/jpeg')
		await whatsapp.postWebhook(
			webhook,
			appSecret,
			inboundMedia(number.phoneNumberId, { waId: '201004445556', name: 'Hana' }, 'image', { ...media, mimeType: 'image/jpeg', caption: 'look' }),
		)
		const message = await incomingOf(channel.id)
		expect(message).toMatchObject({ body: 'look', attachments: [{ kind: 'image', status: 'too-large' }] })
		expect(storedFiles().length).toBe(before)
	})
})

describe('serving attachments', () => {
	async function storedDocument(name: string, contentType: string, bytes: Buffer) {
		const { bot, channel } = await connectTelegram()
		const file = telegram.addFile(bot.token, bytes, { path: `documents/${crypto.randomBytes(4).toString('hex')}` })
		await telegram.postUpdate(
			bot.token,
			documentUpdate({ id: 55_100 + Math.floor(Math.random() * 1000), firstName: 'Eve' }, file, { name, mimeType: contentType }),
			{ origin: api.url },
		)
		const message = await incomingOf(channel.id)
		return message.attachments[0]!
	}

	test('only members of its workspace get a file: members of another workspace and strangers learn nothing', async () => {
		const attachment = await storedDocument('notes.txt', 'text/plain', Buffer.from('private notes'))
		expect((await download(team.workspace.id, attachment.id, team.agent.auth)).status).toBe(200)
		// The outsider asks through their own workspace, and through ours.
		expect((await download(team.elsewhere.id, attachment.id, team.outsider.auth)).status).toBe(404)
		const through = await download(team.workspace.id, attachment.id, team.outsider.auth)
		expect(through.status).toBe(404)
		expect(await through.text()).not.toContain('private notes')
		expect((await download(team.workspace.id, attachment.id)).status).toBe(401)
		expect((await download(team.workspace.id, crypto.randomUUID(), team.agent.auth)).status).toBe(404)
		expect((await download(team.workspace.id, 'not-an-id', team.agent.auth)).status).toBe(404)
		const french = await download(team.workspace.id, crypto.randomUUID(), { ...team.agent.auth, 'Accept-Language': 'fr' })
		expect(((await french.json()) as { message: string }).message).toMatch(/fichier/i)
	})

	test('HTML and SVG are never served as themselves nor inline: downloaded as bytes, without sniffing', async () => {
		const html = await storedDocument('page.html', 'text/html', Buffer.from('<script>alert(document.cookie)</script>'))
		const svg = await storedDocument('logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))
		for (const attachment of [html, svg]) {
			const served = await download(team.workspace.id, attachment.id, team.agent.auth)
			expect(served.status).toBe(200)
			expect(served.headers.get('content-type')).toBe('application/octet-stream')
			expect(served.headers.get('content-disposition')).toMatch(/^attachment; /)
			expect(served.headers.get('x-content-type-options')).toBe('nosniff')
			expect(served.headers.get('content-security-policy')).toContain('sandbox')
		}
	})
})

describe('replies with a file', () => {
	/** A Telegram conversation with a customer who wrote first. */
	async function telegramConversation(chatId: number) {
		const { bot, channel } = await connectTelegram()
		await telegram.postUpdate(bot.token, textUpdate({ id: chatId, firstName: 'Omar' }, 'Can you send the label?'), { origin: api.url })
		const conversation = await reader.firstConversation(channel.id)
		return { bot, channel, number: conversation.number }
	}

	/** Posts a reply as the browser's form does: multipart, the file under `file`. */
	function postWithFile(auth: Record<string, string>, number: number, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
		const form = new FormData()
		for (const [name, value] of Object.entries(fields)) form.set(name, value)
		if (file) form.set('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
		return fetch(`${api.url}/v1/workspaces/${team.workspace.id}/conversations/${number}/messages`, { method: 'POST', headers: auth, body: form })
	}

	test('a picture goes to Telegram by sendPhoto with the text as its caption, and stays in the thread', async () => {
		const { bot, number } = await telegramConversation(56_001)
		const bytes = jpeg(30_000)
		const answer = await postWithFile(
			team.agent.auth,
			number,
			{ kind: 'text', body: 'Voici l’étiquette' },
			{ name: 'étiquette.jpg', type: 'image/jpeg', bytes },
		)
		expect(answer.status).toBe(201)
		const message = (await answer.json()) as MessageJson
		expect(message).toMatchObject({
			body: 'Voici l’étiquette',
			status: 'pending',
			attachments: [{ kind: 'image', filename: 'étiquette.jpg', contentType: 'image/jpeg', size: bytes.length, status: 'stored' }],
		})

		const sent = await telegram.waitFor((request) => request.path === `/bot${bot.token}/sendPhoto`)
		const form = sent.body as { chat_id: string; caption: string; photo: { filename: string; contentType: string; bytes: Buffer } }
		expect(form.chat_id).toBe('56001')
		expect(form.caption).toBe('Voici l’étiquette')
		expect(form.photo.filename).toBe('étiquette.jpg')
		expect(form.photo.bytes.equals(bytes)).toBe(true)
		await until(async () => (await reader.thread(number)).find((entry) => entry.id === message.id && entry.status === 'sent'))
		const served = await download(team.workspace.id, message.attachments[0]!.id, team.agent.auth)
		expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
	})

	test('another file goes by sendDocument, without a caption when there is no text; a note keeps its file and sends nothing', async () => {
		const { bot, number } = await telegramConversation(56_002)
		const bytes = Buffer.from('name,qty\nbox,2\n')
		expect((await postWithFile(team.agent.auth, number, { kind: 'text', body: '' }, { name: 'order.csv', type: 'text/csv', bytes })).status).toBe(201)
		const sent = await telegram.waitFor((request) => request.path === `/bot${bot.token}/sendDocument`)
		expect(sent.body).toMatchObject({ chat_id: '56002', document: { filename: 'order.csv', contentType: 'text/csv' } })
		expect((sent.body as Record<string, unknown>).caption).toBeUndefined()

		const note = await postWithFile(
			team.agent.auth,
			number,
			{ kind: 'note', body: 'the signed copy' },
			{ name: 'signed.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4 signed') },
		)
		expect(note.status).toBe(201)
		expect(((await note.json()) as MessageJson).attachments).toMatchObject([{ filename: 'signed.pdf', kind: 'file' }])
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(telegram.received.filter((request) => request.path.startsWith(`/bot${bot.token}/send`))).toHaveLength(1)
	})

	test('on WhatsApp the file is uploaded to the number’s media, then sent by its id as a document with its name and the caption', async () => {
		const { number, channel, webhook } = await connectWhatsApp()
		await whatsapp.postWebhook(webhook, appSecret, inboundText(number.phoneNumberId, { waId: '201007778889', name: 'Laila' }, 'The invoice please'))
		const conversation = await reader.firstConversation(channel.id)
		const bytes = Buffer.from('%PDF-1.4 invoice 42')
		expect(
			(
				await postWithFile(
					team.agent.auth,
					conversation.number,
					{ kind: 'text', body: 'Invoice attached' },
					{ name: 'invoice-42.pdf', type: 'application/pdf', bytes },
				)
			).status,
		).toBe(201)
		const upload = await whatsapp.waitFor((request) => request.path === `/v21.0/${number.phoneNumberId}/media`)
		expect(upload.headers.authorization).toBe(`Bearer ${number.accessToken}`)
		const form = upload.body as { messaging_product: string; type: string; file: { filename: string; bytes: Buffer } }
		expect(form).toMatchObject({ messaging_product: 'whatsapp', type: 'application/pdf', file: { filename: 'invoice-42.pdf' } })
		expect(form.file.bytes.equals(bytes)).toBe(true)
		const sent = await whatsapp.waitFor((request) => request.path === `/v21.0/${number.phoneNumberId}/messages`)
		expect(sent.body).toEqual({
			messaging_product: 'whatsapp',
			recipient_type: 'individual',
			to: '201007778889',
			type: 'document',
			document: { id: expect.any(String), caption: 'Invoice attached', filename: 'invoice-42.pdf' },
		})
		await until(async () => (await reader.thread(conversation.number)).find((message) => message.attachments.length > 0 && message.status === 'sent'))
	})

	test('on a link channel the visitor sees the team’s file in their thread and fetches it with their own token; another visitor, or a note’s file, is a 404', async () => {
		const channel = await createLinkChannel(team.workspace.id)
		const visitor = crypto.randomBytes(24).toString('hex')
		const stranger = crypto.randomBytes(24).toString('hex')
		const as = (token: string) => ({ 'X-Visitor-Token': token })
		expect((await api.request('POST', `/v1/link/${channel.slug}/messages`, { headers: as(visitor), body: { body: 'Do you have the manual?' } })).status).toBe(
			201,
		)
		expect((await api.request('POST', `/v1/link/${channel.slug}/messages`, { headers: as(stranger), body: { body: 'Me too' } })).status).toBe(201)
		const number = (await reader
			.firstConversation(channel.id)
			.then(async () => (await reader.conversationsOf(channel.id)).find((conversation) => conversation.lastMessage?.excerpt === 'Do you have the manual?')))!
			.number

		const manual = Buffer.from('%PDF-1.4 the manual')
		const reply = (await (
			await postWithFile(team.agent.auth, number, { kind: 'text', body: 'Here it is' }, { name: 'manual.pdf', type: 'application/pdf', bytes: manual })
		).json()) as MessageJson
		const note = (await (
			await postWithFile(
				team.agent.auth,
				number,
				{ kind: 'note', body: 'internal' },
				{ name: 'costs.xlsx', type: 'application/vnd.ms-excel', bytes: Buffer.from('costs') },
			)
		).json()) as MessageJson

		const thread = await api.request('GET', `/v1/link/${channel.slug}/messages`, { headers: as(visitor) })
		const messages = (thread.body as { messages: Array<{ body: string; attachments: Array<{ id: string; filename: string }> }> }).messages
		expect(messages.find((message) => message.body === 'Here it is')?.attachments).toMatchObject([{ id: reply.attachments[0]!.id, filename: 'manual.pdf' }])
		expect(JSON.stringify(messages)).not.toContain('costs.xlsx')

		const file = (id: string, token: string) => fetch(`${api.url}/v1/link/${channel.slug}/attachments/${id}`, { headers: as(token) })
		const served = await file(reply.attachments[0]!.id, visitor)
		expect(served.status).toBe(200)
		expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="manual.pdf"/)
		expect(served.headers.get('x-content-type-options')).toBe('nosniff')
		expect(Buffer.from(await served.arrayBuffer()).equals(manual)).toBe(true)
		expect((await file(reply.attachments[0]!.id, stranger)).status).toBe(404)
		expect((await file(note.attachments[0]!.id, visitor)).status).toBe(404)
		expect((await fetch(`${api.url}/v1/link/${channel.slug}/attachments/${reply.attachments[0]!.id}`)).status).toBe(400)
	})

	test('a file of exactly UPLOAD_MAX_BYTES is kept (busboy calls a file that reaches its limit cut off)', async () => {
		const { number } = await telegramConversation(56_004)
		const answer = await postWithFile(
			team.agent.auth,
			number,
			{ kind: 'note', body: '' },
			{ name: 'exact.bin', type: 'application/octet-stream', bytes: Buffer.alloc(maxBytes, 1) },
		)
		expect(answer.status).toBe(201)
		expect(((await answer.json()) as MessageJson).attachments).toMatchObject([{ filename: 'exact.bin', size: maxBytes, status: 'stored' }])
	})

	test('a file over the limit, an empty file, or a reply with neither text nor file is refused, translated, and nothing is kept', async () => {
		const { number } = await telegramConversation(56_003)
		const before = storedFiles().length
		const messagesBefore = (await reader.thread(number)).length
		const big = await postWithFile(
			{ ...team.agent.auth, 'Accept-Language': 'fr' },
			number,
			{ kind: 'text', body: 'trop gros' },
			{ name: 'big.bin', type: 'application/octet-stream', bytes: Buffer.alloc(maxBytes + 1) },
		)
		expect(big.status).toBe(413)
		const refusal = (await big.json()) as { message: string; details: { fields: Record<string, string[]> } }
		expect(refusal.message).toBe('Le fichier dépasse 0,1 Mo.')
		expect(refusal.details.fields.file).toEqual([refusal.message])

		const empty = await postWithFile(
			team.agent.auth,
			number,
			{ kind: 'text', body: 'empty' },
			{ name: 'empty.txt', type: 'text/plain', bytes: Buffer.alloc(0) },
		)
		expect(empty.status).toBe(400)
		expect(((await empty.json()) as { details: { fields: Record<string, string[]> } }).details.fields.file).toEqual(['This file is empty.'])

		const nothing = await postWithFile(team.agent.auth, number, { kind: 'text', body: '' })
		expect(nothing.status).toBe(400)
		expect(((await nothing.json()) as { details: { fields: Record<string, string[]> } }).details.fields.body).toHaveLength(1)

		// Not a member: refused before a byte is stored.
		const outsider = await postWithFile(
			team.outsider.auth,
			number,
			{ kind: 'text', body: 'hi' },
			{ name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
		)
		expect(outsider.status).toBe(404)
		expect(storedFiles().length).toBe(before)
		expect((await reader.thread(number)).length).toBe(messagesBefore)
	})
})
