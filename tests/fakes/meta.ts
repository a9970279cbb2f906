import crypto from 'node:crypto'
import { type Answer, type FakeServer, type Received, startFakeServer, type UploadedFile } from './fake-server.ts'
import { graphError, graphNotFound, postSignedWebhook } from './graph.ts'

/**
 * A local Graph API for a Facebook Page's Messenger Platform (Messenger, Facebook, Instagram) in
 * tests: `GET /{version}/{page-id}?fields=id,name[,instagram_business_account{id,username}]` and
 * the Send API `POST /{version}/{page-id}/messages` (or `/me/messages`) with the page access token
 * (Bearer or `access_token`), answering `{ recipient_id, message_id }`; customers' profiles
 * (`GET /{psid}`); Graph's error bodies; and
 * webhooks signed as Meta signs them (`X-Hub-Signature-256`).
 */
export type MetaPage = { pageId: string; accessToken: string; name: string; instagramAccountId: string | null; instagramUsername: string | null }

export type MetaFake = FakeServer & {
	/** A page this fake serves, with the token that may use it; `instagram: false` has no Instagram account linked. */
	addPage: (options?: { name?: string; instagram?: boolean }) => MetaPage
	/** A customer's profile, as the page's token may read it (`GET /{psid}?fields=first_name,last_name`, Instagram's `name,username`). */
	addProfile: (id: string, profile: { first_name?: string; last_name?: string; name?: string; username?: string }) => void
	/** A file a customer sent, served as Meta's CDN serves it (no token; its URL is the webhook's `payload.url`). */
	addFile: (bytes: Buffer, name: string, contentType: string) => string
	/** A file's URL that answers `302 Found` to `location`, as Meta's CDN sends a file on from one of its hosts to another. */
	addRedirect: (location: string, name: string) => string
	/** Posts a webhook as Meta would: signed with `appSecret` (or a forged signature). */
	postWebhook: (url: string, appSecret: string, payload: unknown, options?: { signature?: string }) => Promise<Response>
}

let nextPage = 1

const tokenOf = (request: Received) => request.headers.authorization?.replace(/^Bearer /, '') ?? request.query.get('access_token') ?? ''

/** `port` 0 takes any free one; the browser tests give the one the e2e server was told. */
export async function startMetaFake(port = 0): Promise<MetaFake> {
	const pages = new Map<string, MetaPage>()
	const profiles = new Map<string, Record<string, string>>()

	const files = new Map<string, { bytes: Buffer; contentType: string }>()
	const redirects = new Map<string, string>()

	const route = (request: Received): Answer | undefined => {
		const file = request.method === 'GET' ? files.get(request.path) : undefined
		if (file) return { status: 200, body: file.bytes, headers: { 'Content-Type': file.contentType } }
		const location = request.method === 'GET' ? redirects.get(request.path) : undefined
		if (location) return { status: 302, body: {}, headers: { Location: location } }
		const person = /^\/v\d+\.\d+\/(\d+)$/.exec(request.path)?.[1]
		const profile = person && request.method === 'GET' ? profiles.get(person) : undefined
		if (profile) {
			if (![...pages.values()].some((page) => page.accessToken === tokenOf(request)))
				return graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token')
			const fields = (request.query.get('fields') ?? 'first_name,last_name').split(',')
			return {
				status: 200,
				body: { ...Object.fromEntries(fields.filter((field) => profile[field] !== undefined).map((field) => [field, profile[field]])), id: person },
			}
		}
		const match = /^\/v\d+\.\d+\/(\d+|me)(\/messages)?$/.exec(request.path)
		if (!match) return undefined
		const [, id = '', messages] = match
		const token = tokenOf(request)
		const page = id === 'me' ? [...pages.values()].find((candidate) => candidate.accessToken === token) : pages.get(id)
		if (id === 'me' && !page) return graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token')
		if (!page) return graphNotFound(request)
		if (token !== page.accessToken)
			return graphError(400, 190, 'Error validating access token: Session has expired or the token is not a token of this page.', 'OAuthException', 463)
		if (!messages && request.method === 'GET') {
			const fields = (request.query.get('fields') ?? 'id,name').split(/,(?![^{]*\})/)
			const instagram = fields.find((field) => field.startsWith('instagram_business_account'))
			return {
				status: 200,
				body: {
					id: page.pageId,
					name: page.name,
					...(instagram && page.instagramAccountId
						? { instagram_business_account: { id: page.instagramAccountId, ...(instagram.includes('username') ? { username: page.instagramUsername } : {}) } }
						: {}),
				},
			}
		}
		if (messages && request.method === 'POST') {
			const body = sendBody(request.body)
			if (!body?.recipient?.id) return graphError(400, 100, '(#100) param recipient must be non-empty.')
			if (!['RESPONSE', 'UPDATE', 'MESSAGE_TAG'].includes(body.messaging_type ?? ''))
				return graphError(400, 100, '(#100) param messaging_type must be one of {RESPONSE, UPDATE, MESSAGE_TAG}')
			const attachment = body.message?.attachment
			if (attachment && (!['image', 'audio', 'video', 'file'].includes(attachment.type ?? '') || !body.filedata))
				return graphError(400, 100, '(#100) Upload attachment failure.')
			if (!attachment && !body.message?.text) return graphError(400, 100, '(#100) Param message[text] must be a non-empty UTF-8 encoded string')
			if (!/^\d{5,20}$/.test(body.recipient.id)) return graphError(400, 100, '(#100) No matching user found', 'OAuthException', 2018001)
			return { status: 200, body: { recipient_id: body.recipient.id, message_id: `m_${crypto.randomBytes(24).toString('base64url')}` } }
		}
		return graphNotFound(request)
	}

	const server = await startFakeServer(route, graphNotFound, port)
	return {
		...server,
		addPage(options = {}) {
			const n = nextPage++
			const page: MetaPage = {
				pageId: String(300_000_000_000_000 + n),
				accessToken: `EAAB${crypto.randomBytes(24).toString('base64url')}`,
				name: options.name ?? `Acme Page ${n}`,
				instagramAccountId: options.instagram === false ? null : String(17_841_400_000_000_000 + n),
				instagramUsername: options.instagram === false ? null : `acme.page.${n}`,
			}
			pages.set(page.pageId, page)
			return page
		},
		addProfile(id, profile) {
			profiles.set(id, profile as Record<string, string>)
		},
		addFile(bytes, name, contentType) {
			const path = `/cdn/${crypto.randomBytes(8).toString('hex')}/${encodeURIComponent(name)}`
			files.set(path, { bytes, contentType })
			return `${server.url}${path}`
		},
		addRedirect(location, name) {
			const path = `/cdn/${crypto.randomBytes(8).toString('hex')}/${encodeURIComponent(name)}`
			redirects.set(path, location)
			return `${server.url}${path}`
		},
		postWebhook: postSignedWebhook,
	}
}

type SendBody = { recipient?: { id?: string }; messaging_type?: string; message?: { text?: string; attachment?: { type?: string } }; filedata?: UploadedFile }

/** The Send API's body: JSON, or a multipart form whose `recipient` and `message` are JSON and `filedata` the file. */
function sendBody(body: unknown): SendBody | null {
	if (!body || typeof body !== 'object') return null
	const fields = body as Record<string, unknown>
	if (typeof fields.recipient !== 'string') return fields as SendBody
	const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : undefined)
	return {
		recipient: json(fields.recipient) as SendBody['recipient'],
		messaging_type: String(fields.messaging_type ?? ''),
		message: json(fields.message) as SendBody['message'],
		filedata: fields.filedata as UploadedFile,
	}
}

/** A message id as Meta gives them. */
export const newMid = () => `m_${crypto.randomBytes(24).toString('base64url')}`

type Event = Record<string, unknown>

/** A webhook with messaging events, as the Messenger Platform sends it: `object` is `page` (Messenger, Facebook) or `instagram`; `account` the page's (or Instagram account's) id. */
export function pageWebhook(object: 'page' | 'instagram', account: string, ...messaging: Event[]) {
	return { object, entry: [{ id: account, time: Date.now(), messaging }] }
}

/** A customer's text message (sender: their PSID or IGSID). */
export function customerMessage(account: string, customer: string, text: string, mid = newMid()): Event {
	return { sender: { id: customer }, recipient: { id: account }, timestamp: Date.now(), message: { mid, text } }
}

/** A customer's message with a file (`type` image, video, audio or file) at `url`, and no text. */
export function customerFile(account: string, customer: string, type: string, url: string, mid = newMid()): Event {
	return { sender: { id: customer }, recipient: { id: account }, timestamp: Date.now(), message: { mid, attachments: [{ type, payload: { url } }] } }
}

/** Our messages delivered to the customer: by id when given, and up to the watermark. */
export function delivered(account: string, customer: string, watermark: number, mids?: string[]): Event {
	return { sender: { id: customer }, recipient: { id: account }, delivery: { ...(mids ? { mids } : {}), watermark } }
}

/** The customer read everything we sent up to the watermark (Messenger). */
export function readUpTo(account: string, customer: string, watermark: number): Event {
	return { sender: { id: customer }, recipient: { id: account }, timestamp: Date.now(), read: { watermark } }
}

/** The page's own message (written in Meta Business Suite, or ours sent through the Send API), echoed back. */
export function echo(account: string, customer: string, text: string, mid = newMid()): Event {
	return { sender: { id: account }, recipient: { id: customer }, timestamp: Date.now(), message: { is_echo: true, app_id: 1517776481860111, mid, text } }
}
