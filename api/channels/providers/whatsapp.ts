import { graphCall, verifyMetaWebhook } from './graph.ts'
import { type ChannelProvider, type Described, type InboundEvent, type ProviderConfig } from './provider.ts'

/**
 * The WhatsApp Cloud API (Meta's Graph API for one business phone number): the number's id and
 * its business account's id are public settings; the access token, the app secret (which signs
 * webhooks, `X-Hub-Signature-256`) and the verify token (Meta's GET handshake) are credentials.
 * A customer is their `wa_id`; a message is its `wamid`.
 */

type WhatsAppValue = {
	metadata?: { phone_number_id?: string }
	contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>
	messages?: Array<{ id?: string; from?: string; timestamp?: string; type?: string; text?: { body?: string }; image?: { caption?: string }; document?: { caption?: string; filename?: string } }>
	statuses?: Array<{ id?: string; status?: string; timestamp?: string; errors?: Array<{ code?: number; title?: string; message?: string; error_data?: { details?: string } }> }>
}
export type WhatsAppWebhook = { object?: string; entry?: Array<{ id?: string; changes?: Array<{ field?: string; value?: WhatsAppValue }> }> }

const base = (config: ProviderConfig) => `${config.WHATSAPP_API_URL}/${config.WHATSAPP_API_VERSION}`
const deliveryStatuses = new Set(['sent', 'delivered', 'read', 'failed'])

/** What a customer's message says; media is named until attachments are kept. */
function bodyOf(message: NonNullable<WhatsAppValue['messages']>[number]): string {
	if (message.type === 'text') return message.text?.body ?? ''
	const caption = message.image?.caption ?? message.document?.caption ?? message.document?.filename
	return caption ? `[${message.type}] ${caption}` : `[${message.type ?? 'message'}]`
}

export const whatsappProvider: ChannelProvider = {
	kind: 'whatsapp',
	replyWindowMs: 24 * 60 * 60 * 1000,

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
				return { name: template.name, language: template.language, category: template.category, body, parameterCount: new Set(body.match(/\{\{\d+\}\}/g) ?? []).size }
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
					events.push({ type: 'message', externalId: message.id, from: { externalId: message.from, name, phone: `+${message.from}` }, body: bodyOf(message), sentAt: new Date(Number(message.timestamp) * 1000) })
				}
				for (const status of value.statuses ?? []) {
					if (!status.id || !status.status || !deliveryStatuses.has(status.status)) continue
					const [problem] = status.errors ?? []
					const error: Described | undefined = problem ? { key: 'providerErrors.refused', values: { detail: [problem.title ?? problem.message, problem.error_data?.details].filter(Boolean).join(': ') } } : undefined
					events.push({ type: 'status', externalId: status.id, status: status.status as 'sent' | 'delivered' | 'read' | 'failed', error, at: new Date(Number(status.timestamp) * 1000) })
				}
			}
		}
		return events
	},

	async send(channel, message, config) {
		const payload = message.template
			? { type: 'template', template: { name: message.template.name, language: { code: message.template.language }, components: [{ type: 'body', parameters: message.template.parameters.map((text) => ({ type: 'text', text })) }] } }
			: { type: 'text', text: { preview_url: false, body: message.body } }
		const sent = await graphCall<{ messages?: Array<{ id?: string }> }>(`${base(config)}/${encodeURIComponent(String(channel.settings.phoneNumberId))}/messages`, channel.credentials.accessToken ?? '', {
			method: 'POST',
			body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: message.to, ...payload },
		})
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
