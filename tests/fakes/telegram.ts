import { type Answer, type FakeServer, type Received, startFakeServer, type UploadedFile } from './fake-server.ts'

/**
 * A local Telegram Bot API (https://core.telegram.org/bots/api) for tests: `POST /bot{token}/{method}`
 * with a JSON body, answers `{ ok: true, result }` or `{ ok: false, error_code, description }` as
 * Telegram does. It knows the bots given to it by token, remembers each one's webhook, and posts
 * updates to that webhook with the secret token header, as Telegram does.
 */
export type TelegramFake = FakeServer & {
	/** A bot this fake accepts, by token: `{id}:{secret}` as Telegram's tokens are. */
	addBot: (options?: { username?: string }) => { token: string; id: number; username: string }
	/** The webhook a bot set (url and secret token), if any. */
	webhookOf: (token: string) => { url: string; secretToken: string | undefined } | undefined
	/** Chats that blocked the bot: sending to them answers 403, until unblocked. */
	blockChat: (chatId: number) => void
	unblockChat: (chatId: number) => void
	/**
	 * A file a customer sent the bot: its file_id for an update, served by `getFile` and then at
	 * `/file/bot{token}/{file_path}`. Files over 20 MB are refused by getFile, as Telegram does.
	 */
	addFile: (token: string, bytes: Buffer, options?: { path?: string }) => { fileId: string; fileUniqueId: string; size: number }
	/**
	 * Posts an update to the bot's webhook as Telegram would (or with another secret, to forge one).
	 * `origin` stands for the proxy in front of the product: the webhook's PUBLIC_URL reaches it there.
	 */
	postUpdate: (token: string, update: unknown, options?: { secretToken?: string | null; origin?: string }) => Promise<Response>
}

let nextBotId = 7_000_000_000
let nextMessageId = 1

const refusal = (status: number, description: string, parameters?: Record<string, unknown>): Answer => ({
	status,
	body: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) },
})

/** What Telegram lets bots download. */
const downloadLimit = 20 * 1024 * 1024

/** Telegram answers an unknown method or a malformed path with 404 `Not Found`. */
const notFound = (): Answer => refusal(404, 'Not Found')

/** `port` 0 takes any free one; the browser tests give the one the e2e server was told. */
export async function startTelegramFake(port = 0): Promise<TelegramFake> {
	const bots = new Map<string, { id: number; username: string; webhook?: { url: string; secretToken: string | undefined } }>()
	const blocked = new Set<number>()
	const files = new Map<string, { token: string; bytes: Buffer; path: string; uniqueId: string }>()

	const route = (request: Received): Answer | undefined => {
		const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(request.path)
		if (download && request.method === 'GET') {
			const [, token = '', filePath = ''] = download
			const file = [...files.values()].find((entry) => entry.token === token && entry.path === decodeURIComponent(filePath))
			return file ? { status: 200, body: file.bytes } : notFound()
		}
		const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.path)
		if (!match || request.method !== 'POST') return undefined
		const [, token = '', method] = match
		const bot = bots.get(token)
		if (!bot) return refusal(401, 'Unauthorized')
		const params = (request.body ?? {}) as Record<string, unknown>
		switch (method) {
			case 'getMe':
				return {
					status: 200,
					body: {
						ok: true,
						result: {
							id: bot.id,
							is_bot: true,
							first_name: 'Support',
							username: bot.username,
							can_join_groups: true,
							can_read_all_group_messages: false,
							supports_inline_queries: false,
						},
					},
				}
			case 'setWebhook': {
				if (typeof params.url !== 'string' || !params.url.startsWith('http'))
					return refusal(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook')
				if (params.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(String(params.secret_token)))
					return refusal(400, 'Bad Request: secret token contains unallowed characters')
				bot.webhook = { url: params.url, secretToken: params.secret_token as string | undefined }
				return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } }
			}
			case 'sendPhoto':
			case 'sendDocument': {
				// Uploads come as multipart/form-data: the file under `photo` or `document`, an optional caption.
				const field = method === 'sendPhoto' ? 'photo' : 'document'
				const file = params[field] as UploadedFile | string | undefined
				const chatId = Number(params.chat_id)
				if (!Number.isInteger(chatId)) return refusal(400, 'Bad Request: chat not found')
				if (!file || typeof file === 'string' || file.bytes.length === 0) return refusal(400, `Bad Request: there is no ${field} in the request`)
				if (blocked.has(chatId)) return refusal(403, 'Forbidden: bot was blocked by the user')
				const fileId = `BQACAgQAAxkDAAI${Math.random().toString(36).slice(2, 14)}`
				const sent =
					method === 'sendPhoto'
						? { photo: [{ file_id: fileId, file_unique_id: fileId.slice(-8), file_size: file.bytes.length, width: 800, height: 600 }] }
						: {
								document: {
									file_id: fileId,
									file_unique_id: fileId.slice(-8),
									file_name: file.filename,
									mime_type: file.contentType,
									file_size: file.bytes.length,
								},
							}
				const result = {
					message_id: nextMessageId++,
					from: { id: bot.id, is_bot: true, first_name: 'Support', username: bot.username },
					chat: { id: chatId, type: 'private' },
					date: Math.floor(Date.now() / 1000),
					...sent,
					...(typeof params.caption === 'string' ? { caption: params.caption } : {}),
				}
				return { status: 200, body: { ok: true, result } }
			}
			case 'getFile': {
				const file = files.get(String(params.file_id))
				if (!file || file.token !== token) return refusal(400, 'Bad Request: invalid file_id')
				if (file.bytes.length > downloadLimit) return refusal(400, 'Bad Request: file is too big')
				return {
					status: 200,
					body: { ok: true, result: { file_id: params.file_id, file_unique_id: file.uniqueId, file_size: file.bytes.length, file_path: file.path } },
				}
			}
			case 'deleteWebhook':
				bot.webhook = undefined
				return { status: 200, body: { ok: true, result: true, description: 'Webhook was deleted' } }
			case 'getWebhookInfo':
				return { status: 200, body: { ok: true, result: { url: bot.webhook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 } } }
			case 'sendMessage': {
				const chatId = Number(params.chat_id)
				if (!Number.isInteger(chatId)) return refusal(400, 'Bad Request: chat not found')
				if (typeof params.text !== 'string' || params.text.trim() === '') return refusal(400, 'Bad Request: message text is empty')
				if (blocked.has(chatId)) return refusal(403, 'Forbidden: bot was blocked by the user')
				const result = {
					message_id: nextMessageId++,
					from: { id: bot.id, is_bot: true, first_name: 'Support', username: bot.username },
					chat: { id: chatId, type: 'private' },
					date: Math.floor(Date.now() / 1000),
					text: params.text,
				}
				return { status: 200, body: { ok: true, result } }
			}
			default:
				return notFound()
		}
	}

	const server = await startFakeServer(route, notFound, port)
	return {
		...server,
		addBot(options = {}) {
			const id = nextBotId++
			const token = `${id}:AAH${Math.random().toString(36).slice(2, 14)}${Math.random().toString(36).slice(2, 14)}`
			const username = options.username ?? `support_${id}_bot`
			bots.set(token, { id, username })
			return { token, id, username }
		},
		webhookOf: (token) => bots.get(token)?.webhook,
		addFile(token, bytes, options = {}) {
			const fileId = `AgACAgQAAxkBAAI${Math.random().toString(36).slice(2, 14)}${Math.random().toString(36).slice(2, 14)}`
			const uniqueId = `AQAD${Math.random().toString(36).slice(2, 10)}`
			files.set(fileId, { token, bytes, uniqueId, path: options.path ?? `photos/file_${files.size}.jpg` })
			return { fileId, fileUniqueId: uniqueId, size: bytes.length }
		},
		blockChat: (chatId) => void blocked.add(chatId),
		unblockChat: (chatId) => void blocked.delete(chatId),
		async postUpdate(token, update, options = {}) {
			const webhook = bots.get(token)?.webhook
			if (!webhook) throw new Error('the bot has no webhook set')
			const secret = options.secretToken === undefined ? webhook.secretToken : options.secretToken
			const url = new URL(webhook.url)
			const target = options.origin ? new URL(`${url.pathname}${url.search}`, options.origin) : url
			return fetch(target, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...(secret ? { 'X-Telegram-Bot-Api-Secret-Token': secret } : {}) },
				body: JSON.stringify(update),
			})
		},
	}
}

let nextUpdateId = 100_000

/** A private chat's text message as Telegram sends it in an Update. */
export function textUpdate(chat: { id: number; firstName: string; lastName?: string; username?: string }, text: string, messageId = nextMessageId++) {
	const person = {
		id: chat.id,
		first_name: chat.firstName,
		...(chat.lastName ? { last_name: chat.lastName } : {}),
		...(chat.username ? { username: chat.username } : {}),
	}
	return {
		update_id: nextUpdateId++,
		message: {
			message_id: messageId,
			from: { ...person, is_bot: false, language_code: 'ar' },
			chat: { ...person, type: 'private' },
			date: Math.floor(Date.now() / 1000),
			text,
		},
	}
}

/** A private chat's photo (Telegram sends the same picture in several sizes, smallest first), with an optional caption. */
export function photoUpdate(chat: { id: number; firstName: string }, photo: { fileId: string; fileUniqueId: string; size: number }, caption?: string) {
	const update = textUpdate(chat, '')
	const { text: _text, ...message } = update.message
	const thumbnail = { file_id: `${photo.fileId}-thumb`, file_unique_id: `${photo.fileUniqueId}-t`, file_size: 1_000, width: 90, height: 67 }
	return {
		update_id: update.update_id,
		message: {
			...message,
			photo: [thumbnail, { file_id: photo.fileId, file_unique_id: photo.fileUniqueId, file_size: photo.size, width: 1280, height: 960 }],
			...(caption ? { caption } : {}),
		},
	}
}

/** A private chat's document: its name and type as the customer's app gave them. */
export function documentUpdate(
	chat: { id: number; firstName: string },
	file: { fileId: string; fileUniqueId: string; size: number },
	document: { name: string; mimeType: string },
	caption?: string,
) {
	const update = textUpdate(chat, '')
	const { text: _text, ...message } = update.message
	return {
		update_id: update.update_id,
		message: {
			...message,
			document: { file_id: file.fileId, file_unique_id: file.fileUniqueId, file_name: document.name, mime_type: document.mimeType, file_size: file.size },
			...(caption ? { caption } : {}),
		},
	}
}
