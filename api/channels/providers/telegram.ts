import crypto from 'node:crypto'
import { matchLocale } from '#locales/languages.ts'
import { downloadFile } from './download.ts'
import {
	type ChannelProvider,
	type Described,
	type InboundAttachment,
	type InboundEvent,
	type ProviderChannel,
	type ProviderConfig,
	ProviderError,
} from './provider.ts'

/**
 * Telegram's Bot API (https://core.telegram.org/bots/api): a bot token is the only credential;
 * `setWebhook` points the bot's updates at us with our secret, which Telegram sends back in the
 * `X-Telegram-Bot-Api-Secret-Token` header of every update. A private chat's id is the customer's
 * identity; a message's id is unique within its chat only, so ours is `{chat id}:{message id}`.
 */

type TelegramAnswer<T> = { ok: true; result: T } | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } }
type TelegramUser = { id: number; is_bot: boolean; first_name: string; last_name?: string; username?: string; language_code?: string }
type TelegramChat = { id: number; type: string; first_name?: string; last_name?: string; username?: string; title?: string }
type TelegramFile = { file_id: string; file_unique_id?: string; file_size?: number; file_name?: string; mime_type?: string }
type TelegramMessage = {
	message_id: number
	from?: TelegramUser
	chat: TelegramChat
	date: number
	text?: string
	caption?: string
	/** The same picture in several sizes, smallest first. */
	photo?: Array<TelegramFile & { width: number; height: number }>
	document?: TelegramFile
	voice?: TelegramFile
	audio?: TelegramFile
	video?: TelegramFile
	sticker?: unknown
	location?: unknown
}
export type TelegramUpdate = { update_id: number; message?: TelegramMessage; edited_message?: TelegramMessage }

/** Calls a Bot API method; a refusal becomes a ProviderError of the right kind. */
async function call<T>(config: ProviderConfig, token: string, method: string, params: Record<string, unknown> | FormData): Promise<T> {
	let response: Response
	const upload = params instanceof FormData
	try {
		response = await fetch(`${config.TELEGRAM_API_URL}/bot${token}/${method}`, {
			method: 'POST',
			// A file goes as multipart/form-data (fetch writes its boundary), everything else as JSON.
			...(upload ? { body: params } : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(params) }),
			signal: AbortSignal.timeout(upload ? 120_000 : 15_000),
		})
	} catch (error) {
		throw new ProviderError('unavailable', error instanceof Error ? error.message : String(error))
	}
	const answer = (await response.json().catch(() => null)) as TelegramAnswer<T> | null
	if (answer?.ok) return answer.result
	const status = answer?.error_code ?? response.status
	const detail = answer?.description ?? `HTTP ${response.status}`
	if (status === 429) {
		const seconds = answer?.parameters?.retry_after ?? Number(response.headers.get('retry-after'))
		throw new ProviderError('rate-limited', detail, { status, retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined })
	}
	if (status >= 500) throw new ProviderError('unavailable', detail, { status })
	// 401: the token is wrong or revoked; 404 is what Telegram answers for a malformed token.
	if (status === 401 || status === 404) throw new ProviderError('unauthorized', detail, { status })
	throw new ProviderError('refused', detail, { status })
}

const tokenOf = (channel: ProviderChannel) => channel.credentials.botToken ?? ''

/** The longest caption Telegram takes under a photo or a document. */
const captionLimit = 1024

/** The files of a customer's message (a photo at its largest size); Telegram's getFile fetches each by its file_id. */
function attachmentsOf(message: TelegramMessage): InboundAttachment[] {
	const photo = message.photo?.at(-1)
	if (photo) return [{ kind: 'image', ref: photo.file_id, filename: 'photo.jpg', contentType: 'image/jpeg', size: photo.file_size ?? null }]
	const file = (kind: InboundAttachment['kind'], given: TelegramFile, filename: string, contentType: string | null): InboundAttachment[] => [
		{ kind, ref: given.file_id, filename: given.file_name || filename, contentType: given.mime_type ?? contentType, size: given.file_size ?? null },
	]
	if (message.voice) return file('audio', message.voice, 'voice.ogg', 'audio/ogg')
	if (message.audio) return file('audio', message.audio, 'audio', null)
	if (message.video) return file('video', message.video, 'video.mp4', 'video/mp4')
	if (message.document) return file('file', message.document, 'document', null)
	return []
}

/** What a customer's message says: its text or a file's caption; a sticker or a location is named. */
function bodyOf(message: TelegramMessage, hasFiles: boolean): string | null {
	const text = message.text ?? message.caption
	if (text) return text
	if (hasFiles) return ''
	for (const kind of ['sticker', 'location'] as const) if (message[kind]) return `[${kind}]`
	return null
}

function nameOf(chat: TelegramChat, from: TelegramUser | undefined): string | null {
	const full = [chat.first_name ?? from?.first_name, chat.last_name ?? from?.last_name].filter(Boolean).join(' ')
	return full || chat.username || from?.username || null
}

function equalSecrets(given: string, expected: string): boolean {
	const a = Buffer.from(given)
	const b = Buffer.from(expected)
	return a.length === b.length && crypto.timingSafeEqual(a, b)
}

export const telegramProvider: ChannelProvider = {
	kind: 'telegram',

	async validateCredentials(channel, config) {
		const bot = await call<TelegramUser>(config, tokenOf(channel), 'getMe', {})
		return { botUsername: bot.username ?? null, botName: bot.first_name }
	},

	async connect(channel, webhookUrl, config) {
		await call<boolean>(config, tokenOf(channel), 'setWebhook', {
			url: webhookUrl,
			secret_token: channel.webhookSecret,
			allowed_updates: ['message', 'edited_message'],
		})
	},

	async disconnect(channel, config) {
		await call<boolean>(config, tokenOf(channel), 'deleteWebhook', {})
	},

	verifyWebhook(channel, request) {
		const given = request.headers['x-telegram-bot-api-secret-token']
		if (request.method !== 'POST' || !given || !channel.webhookSecret || !equalSecrets(given, channel.webhookSecret)) return { verdict: 'refuse', status: 401 }
		return { verdict: 'accept' }
	},

	parseWebhook(_channel, body) {
		const update = body as TelegramUpdate
		const message = update?.message
		// Edits, group chats and bots' own messages are not customers' messages.
		if (!message || message.chat?.type !== 'private' || message.from?.is_bot) return []
		const attachments = attachmentsOf(message)
		const text = bodyOf(message, attachments.length > 0)
		if (text === null) return []
		const locale = message.from?.language_code ? matchLocale(message.from.language_code) : undefined
		const event: InboundEvent = {
			type: 'message',
			externalId: `${message.chat.id}:${message.message_id}`,
			from: { externalId: String(message.chat.id), name: nameOf(message.chat, message.from) },
			body: text,
			sentAt: new Date(message.date * 1000),
			...(locale ? { locale } : {}),
			...(attachments.length ? { attachments } : {}),
		}
		return [event]
	},

	async fetchAttachment(channel, ref, config) {
		// getFile gives a path valid for an hour; bots may download files up to 20 MB.
		const file = await call<{ file_id: string; file_path?: string; file_size?: number }>(config, tokenOf(channel), 'getFile', { file_id: ref })
		if (!file.file_path) throw new ProviderError('refused', 'Telegram gave no file_path for the file')
		const path = file.file_path.split('/').map(encodeURIComponent).join('/')
		return downloadFile(`${config.TELEGRAM_API_URL}/file/bot${tokenOf(channel)}/${path}`)
	},

	async send(channel, message, config) {
		const token = tokenOf(channel)
		const { attachment } = message
		if (attachment) {
			// A picture Telegram shows as one (sendPhoto: JPEG, PNG, WebP up to 10 MB); anything else as a document.
			const photo = attachment.kind === 'image' && attachment.contentType !== 'image/gif' && attachment.size <= 10 * 1024 * 1024
			const form = new FormData()
			form.set('chat_id', message.to)
			const captioned = message.body.length > 0 && message.body.length <= captionLimit
			if (captioned) form.set('caption', message.body)
			form.set(photo ? 'photo' : 'document', await attachment.read(), attachment.filename)
			const sent = await call<TelegramMessage>(config, token, photo ? 'sendPhoto' : 'sendDocument', form)
			// A text longer than a caption follows the file as its own message.
			if (captioned || !message.body) return { externalId: `${sent.chat.id}:${sent.message_id}`, status: 'sent' }
		}
		const sent = await call<TelegramMessage>(config, token, 'sendMessage', { chat_id: message.to, text: message.body })
		return { externalId: `${sent.chat.id}:${sent.message_id}`, status: 'sent' }
	},

	describeError(error): Described {
		const detail = error.detail
		if (error.kind === 'unauthorized') return { key: 'providerErrors.tokenInvalid', values: { detail } }
		if (/bot was blocked by the user/i.test(detail)) return { key: 'providerErrors.telegramBlocked', values: { detail } }
		if (/chat not found/i.test(detail)) return { key: 'providerErrors.telegramChatNotFound', values: { detail } }
		if (error.kind === 'rate-limited') return { key: 'providerErrors.rateLimited', values: { detail } }
		if (error.kind === 'unavailable') return { key: 'providerErrors.unavailable', values: { detail } }
		return { key: 'providerErrors.refused', values: { detail } }
	},
}
