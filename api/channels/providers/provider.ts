import { type Locale } from '#locales/languages.ts'
import { type AttachmentKind, type ChannelKind, type DeliveryStatus } from '#api/db/schema.ts'
import { type Config } from '#config/config.ts'

/**
 * What every channel kind does, one module per provider (PRODUCT.md, "channels"): check its
 * credentials, set itself up, verify and parse webhooks, send, and explain its errors. The link
 * channel only sends: its visitors read their thread on our own page.
 */

/** The providers' base URLs and versions, from configuration (a test points them at its fakes). */
export type ProviderConfig = Pick<Config, 'WHATSAPP_API_URL' | 'WHATSAPP_API_VERSION' | 'META_GRAPH_URL' | 'META_GRAPH_VERSION' | 'TELEGRAM_API_URL'>

/**
 * A channel as its provider sees it: public `settings` (ids such as WhatsApp's phone number id) and
 * its `credentials`, already decrypted (tokens, app secret, verify token). Never sent to a browser.
 */
export type ProviderChannel = {
	id: string
	workspaceId: string
	kind: ChannelKind
	settings: Record<string, unknown>
	credentials: Record<string, string>
	/** Ours, given to the provider on connect and checked on every webhook (Telegram's secret_token). */
	webhookSecret: string | null
}

/** A translated message: a key of the `channels` namespace (e.g. `providerErrors.tokenInvalid`) and its values. */
export type Described = { key: string; values: Record<string, string | number> }

/** What a webhook said, normalised. Handled in the `process-webhook` job, in order. */
export type InboundEvent =
	| {
			/** A customer's message. `from.externalId` is the identity on the channel (wa_id, Telegram chat id, PSID/IGSID). */
			type: 'message'
			externalId: string
			from: { externalId: string; name: string | null; phone?: string | null }
			/** The text, or a file's caption ('' when a file came without one). */
			body: string
			sentAt: Date
			/** The customer's language when the provider says it (Telegram's `language_code`) and it is one of ours. */
			locale?: Locale
			/** Files that came with it, fetched in the job through the provider's `fetchAttachment`. */
			attachments?: InboundAttachment[]
			/** The row the customer tapped in a list of ours (WhatsApp's `list_reply`): `body` is its title. */
			choice?: TappedChoice
	  }
	| {
			/** The fate of one of our outgoing messages (by the provider's id of it). A status never goes backwards (read stays read). */
			type: 'status'
			externalId: string
			status: Exclude<DeliveryStatus, 'pending'>
			error?: Described
			at: Date
	  }
	| {
			/**
			 * Every one of our messages to `contact` sent up to `upTo` reached `status` (Messenger's delivery and
			 * read watermarks, which name no message).
			 */
			type: 'watermark'
			contact: string
			status: 'delivered' | 'read'
			upTo: Date
	  }
	| {
			/** A message the business sent from elsewhere (the provider's own app): recorded as outgoing, once. */
			type: 'echo'
			externalId: string
			to: string
			body: string
			sentAt: Date
	  }

/**
 * A file of a customer's message as the provider describes it. `ref` is the provider's own handle
 * (a Telegram file_id, a WhatsApp media id), given back to `fetchAttachment`; `size` when it says.
 */
export type InboundAttachment = { kind: AttachmentKind; ref: string; filename: string; contentType: string | null; size: number | null }

/** A file's bytes as the provider serves them. */
export type FetchedAttachment = { body: ReadableStream<Uint8Array>; contentType: string | null; size: number | null }

/** A webhook request as it arrived: the raw body is what signatures are computed over. */
export type WebhookRequest = {
	method: 'GET' | 'POST'
	headers: Record<string, string | undefined>
	query: Record<string, string | undefined>
	rawBody: Buffer
}

/**
 * `accept`: a genuine event, to be parsed and processed in a job. `respond`: answered now and nothing
 * stored (Meta's `hub.challenge` handshake). `refuse`: a bad signature or token, 401 or 403.
 */
export type WebhookVerdict = { verdict: 'accept' } | { verdict: 'respond'; status: number; body: string } | { verdict: 'refuse'; status: 401 | 403 }

/**
 * An outgoing message: text (with a file: its caption), or (WhatsApp) an approved template with its body parameters,
 * or the text with `choices` to tap (where the provider `sendsChoices`).
 */
export type OutgoingMessage = {
	to: string
	body: string
	template?: { name: string; language: string; parameters: string[] }
	attachment?: OutgoingAttachment
	choices?: OutgoingChoices
}

/** A list the customer opens with `button` and taps one row of; a row's `id` comes back with the tap. */
export type OutgoingChoices = { button: string; rows: Array<{ id: string; title: string; description?: string }> }

/** A row of our list the customer tapped: its id and the title they saw. */
export type TappedChoice = { id: string; title: string }

/** A file an agent sends: what it is, and its bytes, read when the provider uploads them. */
export type OutgoingAttachment = { kind: AttachmentKind; filename: string; contentType: string; size: number; read: () => Promise<Blob> }

/** An approved template: its body text with `{{1}}`-style parameters. */
export type MessageTemplate = { name: string; language: string; category: string; body: string; parameterCount: number }

export type ChannelProvider = {
	kind: ChannelKind
	/**
	 * A real call that proves the credentials (Telegram `getMe`, WhatsApp the phone number, Meta the
	 * page). Resolves with settings learnt from the provider (a bot's username, a number's display
	 * phone); throws a `ProviderError` whose description says what to fix.
	 */
	validateCredentials?: (channel: ProviderChannel, config: ProviderConfig) => Promise<Record<string, unknown>>
	/** After the channel is saved: e.g. Telegram's `setWebhook` with the channel's secret token. */
	connect?: (channel: ProviderChannel, webhookUrl: string, config: ProviderConfig) => Promise<void>
	/** Before the channel is deleted: e.g. Telegram's `deleteWebhook`. Failures are logged, never block the delete. */
	disconnect?: (channel: ProviderChannel, config: ProviderConfig) => Promise<void>
	verifyWebhook?: (channel: ProviderChannel, request: WebhookRequest) => WebhookVerdict
	parseWebhook?: (channel: ProviderChannel, body: unknown) => InboundEvent[]
	/**
	 * Delivers an outgoing message to `to` (the contact's identity on this channel). Resolves with
	 * the provider's id of the message and its state; throws a `ProviderError` (or a `DeliveryError`).
	 */
	send: (channel: ProviderChannel, message: OutgoingMessage, config: ProviderConfig) => Promise<{ externalId: string | null; status: DeliveryStatus }>
	/**
	 * How long after the customer's last message a free reply may be sent (WhatsApp: 24 hours); outside
	 * it only a template may (`listTemplates`). Undefined: no window.
	 */
	replyWindowMs?: number
	/** Sends a message's `choices` as a list to tap (WhatsApp's interactive list): a session message, inside the reply window only. */
	sendsChoices?: boolean
	/** The approved message templates (WhatsApp), for replies outside the window and for campaigns. */
	listTemplates?: (channel: ProviderChannel, config: ProviderConfig) => Promise<MessageTemplate[]>
	/** Who a customer is, for a provider whose webhooks name nobody (Meta's User Profile API): asked once, when they first write. */
	profileOf?: (channel: ProviderChannel, externalId: string, config: ProviderConfig) => Promise<{ name: string | null }>
	/** Downloads an inbound attachment by its `ref`; throws a `ProviderError` (a retryable one is tried again with the job). */
	fetchAttachment?: (channel: ProviderChannel, ref: string, config: ProviderConfig) => Promise<FetchedAttachment>
	/** A provider's error, turned into a translated and actionable message (e.g. WhatsApp 131047: outside the 24-hour window). */
	describeError?: (error: ProviderError) => Described
}

/**
 * How a provider call failed. `refused` (a 4xx): retrying changes nothing, the message fails at once.
 * `unauthorized` (401/403, an invalid token): fails too, and marks the channel failing. `rate-limited`
 * (429): retried after `retryAfterMs` when the provider says so. `unavailable` (5xx, a network error):
 * retried with exponential backoff.
 */
export type ProviderErrorKind = 'refused' | 'unauthorized' | 'rate-limited' | 'unavailable'

export class ProviderError extends Error {
	constructor(
		readonly kind: ProviderErrorKind,
		/** The provider's own words, kept for the log and shown after the translated reason. */
		readonly detail: string,
		readonly options: { status?: number; code?: string | number; subcode?: number; retryAfterMs?: number } = {},
	) {
		super(detail)
		this.name = 'ProviderError'
	}

	get retryable() {
		return this.kind === 'rate-limited' || this.kind === 'unavailable'
	}
}

/** A refusal that retrying will not change (no identity on the channel, a kind not built): the message fails with this detail. */
export class DeliveryError extends Error {}
