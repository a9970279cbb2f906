import crypto from 'node:crypto'
import { type Answer, type FakeServer, type Received, startFakeServer, type UploadedFile } from './fake-server.ts'
import { graphError, graphNotFound, postSignedWebhook } from './graph.ts'

/**
 * A local WhatsApp Cloud API (https://developers.facebook.com/docs/whatsapp/cloud-api) for tests:
 * `GET /{version}/{phone-number-id}` and `POST /{version}/{phone-number-id}/messages` with a Bearer
 * token, Graph's error bodies `{ error: { message, type, code, error_subcode, fbtrace_id } }`, and
 * webhooks signed as Meta signs them (`X-Hub-Signature-256`, HMAC-SHA256 of the body with the app secret).
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
			const body = request.body as { messaging_product?: string; to?: string; type?: string; text?: { body?: string } }
			if (body?.messaging_product !== 'whatsapp') return graphError(400, 100, '(#100) The parameter messaging_product is required.')
			if (!body.to || !/^\d{6,15}$/.test(body.to)) return graphError(400, 131030, '(#131030) Recipient phone number not in allowed list')
			if (body.type === 'text' && !body.text?.body) return graphError(400, 100, '(#100) Param text[body] is required.')
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
