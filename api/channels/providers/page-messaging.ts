import { downloadFile } from './download.ts'
import { graphCall, isMetaCdn, verifyMetaWebhook } from './graph.ts'
import { type ChannelProvider, type InboundAttachment, type InboundEvent, type ProviderChannel, type ProviderConfig, ProviderError } from './provider.ts'

/**
 * A Facebook Page's Messenger Platform, behind the Messenger, Facebook and Instagram channels: the
 * page's id is a public setting; the page access token, the app secret (which signs webhooks,
 * `X-Hub-Signature-256`) and the verify token (Meta's GET handshake) are credentials. Webhooks
 * carry `entry[].messaging[]` events: a customer's message, our messages delivered or read, and
 * echoes of what the page sent. A customer is their page-scoped id (PSID, Instagram's IGSID).
 * One implementation; each kind says which webhook `object` is its own and which account it is.
 */

export type PageKind = 'messenger' | 'facebook' | 'instagram'

type Messaging = {
	sender?: { id?: string }
	recipient?: { id?: string }
	timestamp?: number
	message?: { mid?: string; text?: string; is_echo?: boolean; attachments?: Array<{ type?: string; payload?: { url?: string; title?: string } }> }
	delivery?: { mids?: string[]; watermark?: number }
	read?: { watermark?: number; mid?: string }
}
export type PageWebhook = { object?: string; entry?: Array<{ id?: string; time?: number; messaging?: Messaging[] }> }

type PageOptions = {
	kind: PageKind
	/** The webhook's `object`: `page` for a Page's Messenger conversations, `instagram` for its Instagram account's. */
	object: 'page' | 'instagram'
}

const base = (config: ProviderConfig) => `${config.META_GRAPH_URL}/${config.META_GRAPH_VERSION}`
const pageIdOf = (channel: ProviderChannel) => String(channel.settings.pageId)
const hours24 = 24 * 60 * 60 * 1000
// A signed body is Meta's, but its shape is still checked before it is walked.
const listOf = <T>(value: T[] | undefined): T[] => (Array.isArray(value) ? value : [])
const timeOf = (milliseconds: unknown) => (typeof milliseconds === 'number' && Number.isFinite(milliseconds) ? new Date(milliseconds) : null)

// The attachment types that are a file at `payload.url` (a share, a story mention or a template is not).
const fileKinds = { image: 'image', video: 'video', audio: 'audio', file: 'file' } as const

/** A message's files: each at a URL of Meta's CDN, downloaded in the webhook's job (`fetchAttachment`). */
function attachmentsOf(message: NonNullable<Messaging['message']>): InboundAttachment[] {
	return listOf(message.attachments).flatMap((attachment) => {
		const kind = fileKinds[attachment?.type as keyof typeof fileKinds]
		const url = attachment?.payload?.url
		if (!kind || typeof url !== 'string' || !URL.canParse(url)) return []
		const named = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
		return [{ kind, ref: url, filename: attachment.payload?.title || named || kind, contentType: null, size: null }]
	})
}

/** What a message says: its text; a file's is its own (its name stands in the list); anything else is named. */
function bodyOf(message: NonNullable<Messaging['message']>): string {
	if (message.text) return message.text
	const others = listOf(message.attachments).filter((attachment) => !fileKinds[attachment?.type as keyof typeof fileKinds] || !attachment?.payload?.url)
	if (others.length) return others.map((attachment) => `[${attachment?.type ?? 'attachment'}]`).join(' ')
	return attachmentsOf(message).length ? '' : '[message]'
}

/**
 * Meta's CDN, where a webhook's files are (lookaside.fbsbx.com, *.fbcdn.net, *.cdninstagram.com),
 * or the Graph API's own host (a proxy, a test's fake): nothing else is fetched on a webhook's word,
 * nor any redirect on the way to the file that leads elsewhere.
 */
function isMetaFile(url: URL, config: ProviderConfig): boolean {
	return url.host === new URL(config.META_GRAPH_URL).host || isMetaCdn(url)
}

export function pageMessagingProvider({ kind, object }: PageOptions): ChannelProvider {
	/** The account the webhooks are about: the page itself, or the Instagram account linked to it. */
	const accountOf = (channel: ProviderChannel) => String((kind === 'instagram' ? channel.settings.instagramAccountId : undefined) ?? channel.settings.pageId)

	return {
		kind,
		// Meta's standard messaging window: a free reply within 24 hours of the customer's last message (decision 011).
		replyWindowMs: hours24,

		async validateCredentials(channel, config) {
			const fields = kind === 'instagram' ? 'id,name,instagram_business_account{id,username}' : 'id,name'
			const page = await graphCall<{ id?: string; name?: string; instagram_business_account?: { id?: string; username?: string } }>(
				`${base(config)}/${encodeURIComponent(pageIdOf(channel))}?fields=${encodeURIComponent(fields)}`,
				channel.credentials.accessToken ?? '',
			)
			if (kind !== 'instagram') return { pageName: page.name ?? null }
			const account = page.instagram_business_account
			if (!account?.id)
				throw new ProviderError('refused', `The page ${page.name ?? pageIdOf(channel)} has no Instagram professional account linked to it.`, {
					code: 'instagram-not-linked',
				})
			return { pageName: page.name ?? null, instagramAccountId: account.id, instagramUsername: account.username ?? null }
		},

		// Messenger's User Profile API (first and last name), Instagram's user profile (name, else @username).
		async profileOf(channel, externalId, config) {
			const fields = kind === 'instagram' ? 'name,username' : 'first_name,last_name'
			const profile = await graphCall<{ first_name?: string; last_name?: string; name?: string; username?: string }>(
				`${base(config)}/${encodeURIComponent(externalId)}?fields=${fields}`,
				channel.credentials.accessToken ?? '',
			)
			const name =
				kind === 'instagram'
					? profile.name || (profile.username ? `@${profile.username}` : '')
					: [profile.first_name, profile.last_name].filter(Boolean).join(' ')
			return { name: name.trim() || null }
		},

		verifyWebhook: verifyMetaWebhook,

		parseWebhook(channel, body) {
			const webhook = body as PageWebhook
			if (webhook?.object !== object) return []
			const account = accountOf(channel)
			const events: InboundEvent[] = []
			for (const entry of listOf(webhook.entry)) {
				// One app may serve several pages: only this channel's.
				if (entry?.id !== account) continue
				for (const event of listOf(entry?.messaging)) {
					const sender = event?.sender?.id
					const at = timeOf(event?.timestamp) ?? timeOf(entry.time) ?? new Date()
					const { message, delivery, read } = event ?? {}
					if (message?.mid && message.is_echo) {
						const body =
							bodyOf(message) ||
							attachmentsOf(message)
								.map((file) => `[${file.kind}]`)
								.join(' ')
						if (event.recipient?.id) events.push({ type: 'echo', externalId: message.mid, to: event.recipient.id, body, sentAt: at })
					} else if (message?.mid && sender && sender !== account) {
						const attachments = attachmentsOf(message)
						events.push({
							type: 'message',
							externalId: message.mid,
							from: { externalId: sender, name: null },
							body: bodyOf(message),
							sentAt: at,
							...(attachments.length ? { attachments } : {}),
						})
					}
					for (const mid of listOf(delivery?.mids)) events.push({ type: 'status', externalId: mid, status: 'delivered', at })
					const deliveredUpTo = timeOf(delivery?.watermark)
					if (deliveredUpTo && sender) events.push({ type: 'watermark', contact: sender, status: 'delivered', upTo: deliveredUpTo })
					// Messenger reads name a watermark; Instagram's name the message seen.
					if (read?.mid) events.push({ type: 'status', externalId: read.mid, status: 'read', at })
					const readUpTo = timeOf(read?.watermark)
					if (readUpTo && sender) events.push({ type: 'watermark', contact: sender, status: 'read', upTo: readUpTo })
				}
			}
			return events
		},

		async fetchAttachment(_channel, ref, config) {
			return downloadFile(ref, {}, (hop) => isMetaFile(hop, config))
		},

		async send(channel, message, config) {
			const url = `${base(config)}/${encodeURIComponent(pageIdOf(channel))}/messages`
			const token = channel.credentials.accessToken ?? ''
			type Sent = { recipient_id?: string; message_id?: string }
			let sent: Sent = {}
			const { attachment } = message
			if (attachment) {
				// A file goes up with the message (multipart `filedata`); it carries no caption, so a text follows as its own message.
				const form = new FormData()
				form.set('recipient', JSON.stringify({ id: message.to }))
				form.set('messaging_type', 'RESPONSE')
				form.set('message', JSON.stringify({ attachment: { type: attachment.kind, payload: { is_reusable: false } } }))
				form.set('filedata', await attachment.read(), attachment.filename)
				sent = await graphCall<Sent>(url, token, { method: 'POST', form })
			}
			if (message.body || !attachment)
				sent = await graphCall<Sent>(url, token, {
					method: 'POST',
					body: { recipient: { id: message.to }, messaging_type: 'RESPONSE', message: { text: message.body } },
				})
			return { externalId: sent.message_id ?? null, status: 'sent' }
		},

		describeError(error) {
			const detail = error.detail
			const { code, subcode } = error.options
			if (error.kind === 'unauthorized') return { key: 'providerErrors.tokenInvalid', values: { detail } }
			if (code === 'instagram-not-linked') return { key: 'providerErrors.metaInstagramNotLinked', values: { detail } }
			// Outside the 24-hour window: Messenger's 2018278, Instagram's 2534022.
			if (code === 10 && (subcode === 2018278 || subcode === 2534022)) return { key: 'providerErrors.metaWindowClosed', values: { detail } }
			if (code === 551 || subcode === 1545041) return { key: 'providerErrors.metaRecipientUnavailable', values: { detail } }
			if (code === 100 && subcode === 2018001) return { key: 'providerErrors.metaRecipientUnknown', values: { detail } }
			if (code === 100 && subcode === 33) return { key: 'providerErrors.metaPageNotFound', values: { detail } }
			if (error.kind === 'rate-limited') return { key: 'providerErrors.rateLimited', values: { detail } }
			if (error.kind === 'unavailable') return { key: 'providerErrors.unavailable', values: { detail } }
			return { key: 'providerErrors.refused', values: { detail } }
		},
	}
}
