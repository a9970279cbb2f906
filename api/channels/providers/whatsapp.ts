import { downloadFile } from './download.ts'
import { graphCall, isMetaCdn, verifyMetaWebhook } from './graph.ts'
import {
	type ChannelProvider,
	type Described,
	type InboundAttachment,
	type InboundEvent,
	type ProviderConfig,
	ProviderError,
	type TappedChoice,
} from './provider.ts'

/**
 * The WhatsApp Cloud API (Meta's Graph API for one business phone number): the number's id and
 * its business account's id are public settings; the access token, the app secret (which signs
 * webhooks, `X-Hub-Signature-256`) and the verify token (Meta's GET handshake) are credentials.
 * A customer is their `wa_id`; a message is its `wamid`.
 */

type WhatsAppValue = {
	metadata?: { phone_number_id?: string }
	contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>
	messages?: Array<WhatsAppMessage>
	statuses?: Array<{
		id?: string
		status?: string
		timestamp?: string
		errors?: Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }>
	}>
}
type WhatsAppMedia = { id?: string; mime_type?: string; sha256?: string; caption?: string; filename?: string }
type WhatsAppChoice = { id?: string; title?: string }
type WhatsAppMessage = {
	id?: string
	from?: string
	timestamp?: string
	type?: string
	text?: { body?: string }
	/** A tap on a row of our list (`list_reply`) or a button of ours (`button_reply`). */
	interactive?: { type?: string; list_reply?: WhatsAppChoice; button_reply?: WhatsAppChoice }
} & Partial<Record<MediaType, WhatsAppMedia>>
type MediaType = 'image' | 'document' | 'audio' | 'video' | 'sticker'
export type WhatsAppWebhook = { object?: string; entry?: Array<{ id?: string; changes?: Array<{ field?: string; value?: WhatsAppValue }> }> }

/** The longest caption the Cloud API takes under an image, a video or a document. */
const captionLimit = 1024

/** How the Cloud API takes a file of this type: images (JPEG, PNG), audio and video (MP4, 3GPP) as such, anything else as a document. */
function mediaTypeFor(contentType: string): 'image' | 'audio' | 'video' | 'document' {
	if (/^image\/(jpeg|png)$/.test(contentType)) return 'image'
	if (/^audio\/(aac|amr|mpeg|mp4|ogg)$/.test(contentType)) return 'audio'
	if (/^video\/(mp4|3gpp)$/.test(contentType)) return 'video'
	return 'document'
}

const base = (config: ProviderConfig) => `${config.WHATSAPP_API_URL}/${config.WHATSAPP_API_VERSION}`
const deliveryStatuses = new Set(['sent', 'delivered', 'read', 'failed'])

// A media message's type, our kind of attachment, and the name a file without one gets.
const mediaTypes: Record<MediaType, { kind: InboundAttachment['kind']; filename: string }> = {
	image: { kind: 'image', filename: 'image' },
	sticker: { kind: 'image', filename: 'sticker.webp' },
	document: { kind: 'file', filename: 'document' },
	audio: { kind: 'audio', filename: 'audio' },
	video: { kind: 'video', filename: 'video' },
}
const isMediaType = (type: string | undefined): type is MediaType => type !== undefined && Object.hasOwn(mediaTypes, type)

/** The file of a media message, fetched later by its media id. */
function attachmentOf(message: WhatsAppMessage): InboundAttachment | null {
	const media = isMediaType(message.type) ? message[message.type] : undefined
	if (!isMediaType(message.type) || !media?.id) return null
	const { kind, filename } = mediaTypes[message.type]
	return { kind, ref: media.id, filename: media.filename || filename, contentType: media.mime_type ?? null, size: null }
}

/** The row or button of ours a customer tapped, with the title they saw. */
function choiceOf(message: WhatsAppMessage): TappedChoice | null {
	const tapped = message.type === 'interactive' ? (message.interactive?.list_reply ?? message.interactive?.button_reply) : undefined
	return tapped?.id ? { id: tapped.id, title: tapped.title ?? '' } : null
}

/** What a customer's message says: its text, a file's caption, or the title they tapped; other kinds (a location, contacts) are named. */
function bodyOf(message: WhatsAppMessage): string {
	if (message.type === 'text') return message.text?.body ?? ''
	if (isMediaType(message.type)) return message[message.type]?.caption ?? ''
	const choice = choiceOf(message)
	if (choice) return choice.title
	return `[${message.type ?? 'message'}]`
}

export const whatsappProvider: ChannelProvider = {
	kind: 'whatsapp',
	replyWindowMs: 24 * 60 * 60 * 1000,
	sendsChoices: true,

	async validateCredentials(channel, config) {
		const number = await graphCall<{ display_phone_number?: string; verified_name?: string }>(
			`${base(config)}/${encodeURIComponent(String(channel.settings.phoneNumberId))}?fields=display_phone_number,verified_name`,
			channel.credentials.accessToken ?? '',
		)
		return { displayPhoneNumber: number.display_phone_number ?? null, verifiedName: number.verified_name ?? null }
	},

	async listTemplates(channel, config) {
		type GraphTemplate = { name: string; language: string; status: string; category: string; components?: Array<{ type: string; text?: string }> }
		const answer = await graphCall<{ data?: GraphTemplate[] }>(
			`${base(config)}/${encodeURIComponent(String(channel.settings.businessAccountId))}/message_templates?fields=name,language,status,category,components&limit=250`,
			channel.credentials.accessToken ?? '',
		)
		return (answer.data ?? [])
			.filter((template) => template.status === 'APPROVED')
			.map((template) => {
				const body = template.components?.find((component) => component.type === 'BODY')?.text ?? ''
				return {
					name: template.name,
					language: template.language,
					category: template.category,
					body,
					parameterCount: new Set(body.match(/\{\{\d+\}\}/g) ?? []).size,
				}
			})
	},

	verifyWebhook: verifyMetaWebhook,

	parseWebhook(channel, body) {
		const events: InboundEvent[] = []
		for (const entry of (body as WhatsAppWebhook)?.entry ?? []) {
			for (const change of entry.changes ?? []) {
				const value = change.value
				// One app may serve several numbers: only this channel's.
				if (change.field !== 'messages' || !value || value.metadata?.phone_number_id !== String(channel.settings.phoneNumberId)) continue
				for (const message of value.messages ?? []) {
					if (!message.id || !message.from) continue
					const name = value.contacts?.find((contact) => contact.wa_id === message.from)?.profile?.name ?? null
					const attachment = attachmentOf(message)
					const choice = choiceOf(message)
					events.push({
						type: 'message',
						externalId: message.id,
						from: { externalId: message.from, name, phone: `+${message.from}` },
						body: bodyOf(message),
						sentAt: new Date(Number(message.timestamp) * 1000),
						...(attachment ? { attachments: [attachment] } : {}),
						...(choice ? { choice } : {}),
					})
				}
				for (const status of value.statuses ?? []) {
					if (!status.id || !status.status || !deliveryStatuses.has(status.status)) continue
					const [problem] = status.errors ?? []
					const error: Described | undefined = problem
						? { key: 'providerErrors.refused', values: { detail: [problem.title ?? problem.message, problem.error_data?.details].filter(Boolean).join(': ') } }
						: undefined
					events.push({
						type: 'status',
						externalId: status.id,
						status: status.status as 'sent' | 'delivered' | 'read' | 'failed',
						error,
						at: new Date(Number(status.timestamp) * 1000),
					})
				}
			}
		}
		return events
	},

	async fetchAttachment(channel, ref, config) {
		// The media id gives a short-lived URL (5 minutes), fetched with the same token.
		const token = channel.credentials.accessToken ?? ''
		const media = await graphCall<{ url?: string; mime_type?: string; file_size?: number | string }>(`${base(config)}/${encodeURIComponent(ref)}`, token)
		const address = media.url
		if (!address) throw new ProviderError('refused', 'Meta gave no URL for the media')
		// Meta's answer names the file's address; a redirect from there may lead to its CDN only (and gets no token).
		const file = await downloadFile(address, { Authorization: `Bearer ${token}` }, (hop) => hop.origin === new URL(address).origin || isMetaCdn(hop))
		const size = Number(media.file_size)
		return { ...file, contentType: media.mime_type ?? file.contentType, size: file.size ?? (Number.isInteger(size) && size > 0 ? size : null) }
	},

	async send(channel, message, config) {
		const token = channel.credentials.accessToken ?? ''
		const number = `${base(config)}/${encodeURIComponent(String(channel.settings.phoneNumberId))}`
		const post = (payload: Record<string, unknown>) =>
			graphCall<{ messages?: Array<{ id?: string }> }>(`${number}/messages`, token, {
				method: 'POST',
				body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to, ...payload },
			})
		const { attachment } = message
		if (attachment && !message.template) {
			// The file is uploaded to the number first, then sent by the media id Meta gives back.
			const form = new FormData()
			form.set('messaging_product', 'whatsapp')
			form.set('type', attachment.contentType)
			form.set('file', await attachment.read(), attachment.filename)
			const uploaded = await graphCall<{ id?: string }>(`${number}/media`, token, { method: 'POST', form })
			if (!uploaded.id) throw new ProviderError('refused', 'Meta gave no id for the uploaded media')
			const type = mediaTypeFor(attachment.contentType)
			const captioned = type !== 'audio' && message.body.length > 0 && message.body.length <= captionLimit
			const sent = await post({
				type,
				[type]: { id: uploaded.id, ...(captioned ? { caption: message.body } : {}), ...(type === 'document' ? { filename: attachment.filename } : {}) },
			})
			// A text the file could not carry (audio has no caption, a caption has 1 024 characters) follows as its own message.
			if (captioned || !message.body) return { externalId: sent.messages?.[0]?.id ?? null, status: 'sent' }
		}
		const payload = message.template
			? {
					type: 'template',
					template: {
						name: message.template.name,
						language: { code: message.template.language },
						components: [{ type: 'body', parameters: message.template.parameters.map((text) => ({ type: 'text', text })) }],
					},
				}
			: message.choices
				? {
						type: 'interactive',
						interactive: { type: 'list', body: { text: message.body }, action: { button: message.choices.button, sections: [{ rows: message.choices.rows }] } },
					}
				: { type: 'text', text: { preview_url: false, body: message.body } }
		const sent = await post(payload)
		return { externalId: sent.messages?.[0]?.id ?? null, status: 'sent' }
	},

	describeError(error) {
		const detail = error.detail
		if (error.kind === 'unauthorized') return { key: 'providerErrors.tokenInvalid', values: { detail } }
		if (error.options.code === 131047) return { key: 'providerErrors.whatsappWindowClosed', values: { detail } }
		if (error.options.code === 131026) return { key: 'providerErrors.whatsappUndeliverable', values: { detail } }
		if (error.options.code === 100 || error.options.code === 803) return { key: 'providerErrors.whatsappNumberNotFound', values: { detail } }
		if (error.kind === 'rate-limited') return { key: 'providerErrors.rateLimited', values: { detail } }
		if (error.kind === 'unavailable') return { key: 'providerErrors.unavailable', values: { detail } }
		return { key: 'providerErrors.refused', values: { detail } }
	},
}
