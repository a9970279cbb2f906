import crypto from 'node:crypto'
import { type Answer, type FakeServer, type Received, startFakeServer, type UploadedFile } from './fake-server.ts'
import { graphError, graphNotFound, postSignedWebhook } from './graph.ts'

/**
 * A local WhatsApp Cloud API (https://developers.facebook.com/docs/whatsapp/cloud-api) for tests:
 * `GET /{version}/{phone-number-id}` and `POST /{version}/{phone-number-id}/messages` with a Bearer
 * token (text, media, templates, and interactive lists and reply buttons checked against the API's
 * limits), Graph's error bodies `{ error: { message, type, code, error_subcode, error_data, fbtrace_id } }`,
 * and webhooks signed as Meta signs them (`X-Hub-Signature-256`, HMAC-SHA256 of the body with the app secret).
 */
export type WhatsAppFake = FakeServer & {
	/** A business number this fake serves, with the token that may use it. */
	addNumber: () => { phoneNumberId: string; businessAccountId: string; accessToken: string; displayPhoneNumber: string }
	/**
	 * A file a customer sent the number: its media id for a webhook. `GET /{version}/{media-id}` with
	 * the number's token answers its (temporary) URL, type, hash and size; that URL, with the same
	 * Bearer token, answers the bytes.
	 */
	addMedia: (phoneNumberId: string, bytes: Buffer, mimeType: string) => { mediaId: string; sha256: string }
	/** Posts a webhook as Meta would: signed with `appSecret` (or a forged signature). */
	postWebhook: (url: string, appSecret: string, payload: unknown, options?: { signature?: string }) => Promise<Response>
}

let nextNumber = 1

/** What `GET /{waba-id}/message_templates` lists: one approved template with a parameter, one still pending review. */
const approvedTemplates = [
	{
		name: 'order_update',
		language: 'en_US',
		status: 'APPROVED',
		category: 'UTILITY',
		id: '1001',
		components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} has shipped.' }],
	},
	{
		name: 'summer_sale',
		language: 'en_US',
		status: 'PENDING',
		category: 'MARKETING',
		id: '1002',
		components: [{ type: 'BODY', text: 'Our summer sale starts today!' }],
	},
]

const notFound = graphNotFound

/** The Cloud API's refusal of a parameter's value: code 131009, what is wrong in `error_data.details`. */
function invalidParameter(details: string): Answer {
	const answer = graphError(400, 131009, '(#131009) Parameter value is not valid')
	const { error } = answer.body as { error: Record<string, unknown> }
	return { ...answer, body: { error: { ...error, error_data: { messaging_product: 'whatsapp', details } } } }
}

type Interactive = {
	type?: string
	body?: { text?: string }
	footer?: { text?: string }
	action?: {
		button?: string
		sections?: Array<{ title?: string; rows?: Array<{ id?: string; title?: string; description?: string }> }>
		buttons?: Array<{ type?: string; reply?: { id?: string; title?: string } }>
	}
}

/**
 * Why the Cloud API would refuse an interactive message, or null. A list: body up to 1 024 characters, a button of
 * up to 20, 1 to 10 sections with 1 to 10 rows in all, ids up to 200 and unique, titles up to 24, descriptions up
 * to 72, a title for each section when there are several. Reply buttons: 1 to 3, ids up to 256, titles up to 20.
 */
function interactiveRefusal(interactive: Interactive | undefined): Answer | null {
	if (interactive?.type !== 'list' && interactive?.type !== 'button')
		return graphError(400, 100, "(#100) Param interactive['type'] must be one of {LIST, BUTTON}.")
	const text = interactive.body?.text
	if (!text) return graphError(400, 100, "(#100) The parameter interactive['body']['text'] is required.")
	if (text.length > 1024) return invalidParameter('Body text is too long. Max length is 1024')
	if ((interactive.footer?.text?.length ?? 0) > 60) return invalidParameter('Footer text is too long. Max length is 60')
	const ids = new Set<string>()
	const uniqueId = (id: string | undefined, limit: number, what: string) => {
		if (!id) return invalidParameter(`${what} id is required`)
		if (id.length > limit) return invalidParameter(`${what} id is too long. Max length is ${limit}`)
		if (ids.has(id)) return invalidParameter(`${what} id must be unique: ${id}`)
		ids.add(id)
		return null
	}
	if (interactive.type === 'button') {
		const buttons = interactive.action?.buttons ?? []
		if (buttons.length < 1 || buttons.length > 3) return invalidParameter('Invalid buttons count. Min allowed buttons: 1, Max allowed buttons: 3')
		for (const button of buttons) {
			const refused = uniqueId(button.reply?.id, 256, 'Button')
			if (refused) return refused
			if (!button.reply?.title) return invalidParameter('Button title is required')
			if (button.reply.title.length > 20) return invalidParameter('Button title length invalid. Min length: 1, Max length: 20')
		}
		return null
	}
	const button = interactive.action?.button
	if (!button) return graphError(400, 100, "(#100) The parameter interactive['action']['button'] is required.")
	if (button.length > 20) return invalidParameter('Button title length invalid. Min length: 1, Max length: 20')
	const sections = interactive.action?.sections ?? []
	if (sections.length < 1 || sections.length > 10) return invalidParameter('Invalid sections count. Min allowed sections: 1, Max allowed sections: 10')
	const rows = sections.flatMap((section) => section.rows ?? [])
	if (sections.some((section) => !section.rows?.length) || rows.length > 10)
		return invalidParameter('Invalid rows count. Min allowed rows: 1, Max allowed rows: 10')
	for (const section of sections) {
		if (sections.length > 1 && !section.title) return invalidParameter('Section title is required when there are multiple sections')
		if ((section.title?.length ?? 0) > 24) return invalidParameter('Section title is too long. Max length is 24')
	}
	for (const row of rows) {
		const refused = uniqueId(row.id, 200, 'Row')
		if (refused) return refused
		if (!row.title) return invalidParameter('Row title is required')
		if (row.title.length > 24) return invalidParameter('Row title is too long. Max length is 24')
		if ((row.description?.length ?? 0) > 72) return invalidParameter('Row description is too long. Max length is 72')
	}
	return null
}

/** `port` 0 takes any free one; the browser tests give the one the e2e server was told. */
export async function startWhatsAppFake(port = 0): Promise<WhatsAppFake> {
	const numbers = new Map<string, { accessToken: string; displayPhoneNumber: string; businessAccountId: string }>()
	const media = new Map<string, { phoneNumberId: string; bytes: Buffer; mimeType: string; sha256: string }>()
	let origin = ''

	const route = (request: Received): Answer | undefined => {
		// The media's URL: Meta's CDN (lookaside.fbsbx.com) in life, this fake here; the token is needed there too.
		if (request.path === '/whatsapp_business/attachments/' && request.method === 'GET') {
			const item = media.get(request.query.get('mid') ?? '')
			if (!item) return { status: 404, body: Buffer.from('Not Found'), headers: { 'Content-Type': 'text/plain' } }
			if (request.headers.authorization !== `Bearer ${numbers.get(item.phoneNumberId)?.accessToken}`)
				return graphError(401, 190, 'Error validating access token.')
			return { status: 200, body: item.bytes, headers: { 'Content-Type': item.mimeType } }
		}
		const mediaInfo = /^\/v\d+\.\d+\/(\d+)$/.exec(request.path)
		const item = mediaInfo && media.get(mediaInfo[1] ?? '')
		if (item && request.method === 'GET') {
			if (request.headers.authorization !== `Bearer ${numbers.get(item.phoneNumberId)?.accessToken}`)
				return graphError(401, 190, 'Error validating access token.')
			const id = mediaInfo[1]
			return {
				status: 200,
				body: {
					messaging_product: 'whatsapp',
					url: `${origin}/whatsapp_business/attachments/?mid=${id}&ext=${Math.floor(Date.now() / 1000) + 300}&hash=ATu${item.sha256.slice(0, 12)}`,
					mime_type: item.mimeType,
					sha256: item.sha256,
					file_size: String(item.bytes.length),
					id,
				},
			}
		}
		const templates = /^\/v\d+\.\d+\/(\d+)\/message_templates$/.exec(request.path)
		if (templates && request.method === 'GET') {
			const number = [...numbers.values()].find((entry) => entry.businessAccountId === templates[1])
			if (!number) return notFound(request)
			if (request.headers.authorization !== `Bearer ${number.accessToken}`) return graphError(401, 190, 'Error validating access token.')
			return { status: 200, body: { data: approvedTemplates, paging: { cursors: { before: 'QVFI', after: 'QVFI' } } } }
		}
		// An upload: multipart with messaging_product, the file and its type; answers the media id.
		const upload = /^\/v\d+\.\d+\/(\d+)\/media$/.exec(request.path)
		if (upload && request.method === 'POST') {
			const number = numbers.get(upload[1] ?? '')
			if (!number) return notFound(request)
			if (request.headers.authorization !== `Bearer ${number.accessToken}`) return graphError(401, 190, 'Error validating access token.')
			const form = request.body as { messaging_product?: string; type?: string; file?: UploadedFile | string } | null
			if (form?.messaging_product !== 'whatsapp') return graphError(400, 100, '(#100) The parameter messaging_product is required.')
			if (!form.file || typeof form.file === 'string' || form.file.bytes.length === 0) return graphError(400, 100, '(#100) The parameter file is required.')
			const mediaId = String(900_000_000_000_000 + media.size + 1)
			media.set(mediaId, {
				phoneNumberId: upload[1]!,
				bytes: form.file.bytes,
				mimeType: form.type ?? form.file.contentType,
				sha256: crypto.createHash('sha256').update(form.file.bytes).digest('hex'),
			})
			return { status: 200, body: { id: mediaId } }
		}
		const match = /^\/v\d+\.\d+\/(\d+)(\/messages)?$/.exec(request.path)
		if (!match) return undefined
		const [, id = '', messages] = match
		const number = numbers.get(id)
		if (!number) return notFound(request)
		if (request.headers.authorization !== `Bearer ${number.accessToken}`)
			return graphError(
				401,
				190,
				'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
			)
		if (!messages && request.method === 'GET')
			return { status: 200, body: { display_phone_number: number.displayPhoneNumber, verified_name: 'Acme Support', id } }
		if (messages && request.method === 'POST') {
			const body = request.body as { messaging_product?: string; to?: string; type?: string; text?: { body?: string }; interactive?: Interactive }
			if (body?.messaging_product !== 'whatsapp') return graphError(400, 100, '(#100) The parameter messaging_product is required.')
			if (!body.to || !/^\d{6,15}$/.test(body.to)) return graphError(400, 131030, '(#131030) Recipient phone number not in allowed list')
			if (body.type === 'text' && !body.text?.body) return graphError(400, 100, '(#100) Param text[body] is required.')
			const refused = body.type === 'interactive' ? interactiveRefusal(body.interactive) : null
			if (refused) return refused
			const sentMedia =
				body.type && ['image', 'audio', 'video', 'document'].includes(body.type) ? (body as Record<string, { id?: string } | undefined>)[body.type] : undefined
			if (sentMedia && !media.has(sentMedia.id ?? '')) return graphError(400, 131053, '(#131053) Media upload error: the media id is not valid')
			return {
				status: 200,
				body: {
					messaging_product: 'whatsapp',
					contacts: [{ input: body.to, wa_id: body.to }],
					messages: [{ id: `wamid.${crypto.randomBytes(12).toString('base64url')}` }],
				},
			}
		}
		return notFound(request)
	}

	const server = await startFakeServer(route, notFound, port)
	origin = server.url
	return {
		...server,
		addMedia(phoneNumberId, bytes, mimeType) {
			const mediaId = String(900_000_000_000_000 + media.size + 1)
			const sha256 = crypto.createHash('sha256').update(bytes).digest('hex')
			media.set(mediaId, { phoneNumberId, bytes, mimeType, sha256 })
			return { mediaId, sha256 }
		},
		addNumber() {
			const n = nextNumber++
			const phoneNumberId = String(100_000_000_000_000 + n)
			const accessToken = `EAAG${crypto.randomBytes(24).toString('base64url')}`
			const displayPhoneNumber = `+1 555-01${String(n).padStart(2, '0')}`
			const businessAccountId = String(200_000_000_000_000 + n)
			numbers.set(phoneNumberId, { accessToken, displayPhoneNumber, businessAccountId })
			return { phoneNumberId, businessAccountId, accessToken, displayPhoneNumber }
		},
		postWebhook: postSignedWebhook,
	}
}

/** A webhook with one customer's text message, as the Cloud API sends it. */
export function inboundText(
	phoneNumberId: string,
	from: { waId: string; name: string },
	text: string,
	id = `wamid.${crypto.randomBytes(12).toString('base64url')}`,
) {
	return {
		object: 'whatsapp_business_account',
		entry: [
			{
				id: '200000000000001',
				changes: [
					{
						field: 'messages',
						value: {
							messaging_product: 'whatsapp',
							metadata: { display_phone_number: '15550100', phone_number_id: phoneNumberId },
							contacts: [{ profile: { name: from.name }, wa_id: from.waId }],
							messages: [{ from: from.waId, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
						},
					},
				],
			},
		],
	}
}

/** A webhook with a customer's tap on a row of one of our lists (`context.id`: that list's wamid), as the Cloud API sends it. */
export function inboundListReply(
	phoneNumberId: string,
	from: { waId: string; name: string },
	row: { id: string; title: string; description?: string },
	listWamid: string,
	id = `wamid.${crypto.randomBytes(12).toString('base64url')}`,
) {
	const webhook = inboundText(phoneNumberId, from, '', id)
	const value = webhook.entry[0]!.changes[0]!.value
	const message = {
		context: { from: '15550100', id: listWamid },
		from: from.waId,
		id,
		timestamp: String(Math.floor(Date.now() / 1000)),
		type: 'interactive',
		interactive: { type: 'list_reply', list_reply: row },
	}
	return { ...webhook, entry: [{ ...webhook.entry[0]!, changes: [{ field: 'messages', value: { ...value, messages: [message] } }] }] }
}

/** A webhook with one customer's media message (`image`, `document`, `audio`, `video`, `sticker`), as the Cloud API sends it. */
export function inboundMedia(
	phoneNumberId: string,
	from: { waId: string; name: string },
	type: 'image' | 'document' | 'audio' | 'video' | 'sticker',
	file: { mediaId: string; sha256: string; mimeType: string; filename?: string; caption?: string },
	id = `wamid.${crypto.randomBytes(12).toString('base64url')}`,
) {
	const webhook = inboundText(phoneNumberId, from, '', id)
	const value = webhook.entry[0]!.changes[0]!.value
	const details = {
		mime_type: file.mimeType,
		sha256: Buffer.from(file.sha256, 'hex').toString('base64'),
		id: file.mediaId,
		...(file.filename ? { filename: file.filename } : {}),
		...(file.caption ? { caption: file.caption } : {}),
	}
	const message = { from: from.waId, id, timestamp: String(Math.floor(Date.now() / 1000)), type, [type]: details }
	return { ...webhook, entry: [{ ...webhook.entry[0]!, changes: [{ field: 'messages', value: { ...value, messages: [message] } }] }] }
}

/** A webhook with the status of one of our messages. */
export function statusUpdate(
	phoneNumberId: string,
	wamid: string,
	recipient: string,
	status: 'sent' | 'delivered' | 'read' | 'failed',
	error?: { code: number; title: string; details: string },
) {
	return {
		object: 'whatsapp_business_account',
		entry: [
			{
				id: '200000000000001',
				changes: [
					{
						field: 'messages',
						value: {
							messaging_product: 'whatsapp',
							metadata: { display_phone_number: '15550100', phone_number_id: phoneNumberId },
							statuses: [
								{
									id: wamid,
									status,
									timestamp: String(Math.floor(Date.now() / 1000)),
									recipient_id: recipient,
									...(error ? { errors: [{ code: error.code, title: error.title, message: error.title, error_data: { details: error.details } }] } : {}),
								},
							],
						},
					},
				],
			},
		],
	}
}
