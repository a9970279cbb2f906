import crypto from 'node:crypto'
import { type Answer, type FakeServer, type Received, startFakeServer } from './fake-server.ts'
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
	/** Posts a webhook as Meta would: signed with `appSecret` (or a forged signature). */
	postWebhook: (url: string, appSecret: string, payload: unknown, options?: { signature?: string }) => Promise<Response>
}

let nextNumber = 1

/** What `GET /{waba-id}/message_templates` lists: one approved template with a parameter, one still pending review. */
const approvedTemplates = [
	{ name: 'order_update', language: 'en_US', status: 'APPROVED', category: 'UTILITY', id: '1001', components: [{ type: 'BODY', text: 'Hello {{1}}, your order {{2}} has shipped.' }] },
	{ name: 'summer_sale', language: 'en_US', status: 'PENDING', category: 'MARKETING', id: '1002', components: [{ type: 'BODY', text: 'Our summer sale starts today!' }] },
]

const notFound = graphNotFound

/** `port` 0 takes any free one; the browser tests give the one the e2e server was told. */
export async function startWhatsAppFake(port = 0): Promise<WhatsAppFake> {
	const numbers = new Map<string, { accessToken: string; displayPhoneNumber: string; businessAccountId: string }>()

	const route = (request: Received): Answer | undefined => {
		const templates = /^\/v\d+\.\d+\/(\d+)\/message_templates$/.exec(request.path)
		if (templates && request.method === 'GET') {
			const number = [...numbers.values()].find((entry) => entry.businessAccountId === templates[1])
			if (!number) return notFound(request)
			if (request.headers.authorization !== `Bearer ${number.accessToken}`) return graphError(401, 190, 'Error validating access token.')
			return { status: 200, body: { data: approvedTemplates, paging: { cursors: { before: 'QVFI', after: 'QVFI' } } } }
		}
		const match = /^\/v\d+\.\d+\/(\d+)(\/messages)?$/.exec(request.path)
		if (!match) return undefined
		const [, id = '', messages] = match
		const number = numbers.get(id)
		if (!number) return notFound(request)
		if (request.headers.authorization !== `Bearer ${number.accessToken}`) return graphError(401, 190, 'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.')
		if (!messages && request.method === 'GET') return { status: 200, body: { display_phone_number: number.displayPhoneNumber, verified_name: 'Acme Support', id } }
		if (messages && request.method === 'POST') {
			const body = request.body as { messaging_product?: string; to?: string; type?: string; text?: { body?: string } }
			if (body?.messaging_product !== 'whatsapp') return graphError(400, 100, '(#100) The parameter messaging_product is required.')
			if (!body.to || !/^\d{6,15}$/.test(body.to)) return graphError(400, 131030, '(#131030) Recipient phone number not in allowed list')
			if (body.type === 'text' && !body.text?.body) return graphError(400, 100, '(#100) Param text[body] is required.')
			return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.${crypto.randomBytes(12).toString('base64url')}` }] } }
		}
		return notFound(request)
	}

	const server = await startFakeServer(route, notFound, port)
	return {
		...server,
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
export function inboundText(phoneNumberId: string, from: { waId: string; name: string }, text: string, id = `wamid.${crypto.randomBytes(12).toString('base64url')}`) {
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

/** A webhook with the status of one of our messages. */
export function statusUpdate(phoneNumberId: string, wamid: string, recipient: string, status: 'sent' | 'delivered' | 'read' | 'failed', error?: { code: number; title: string; details: string }) {
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
