import { type RawData, type WebSocket } from 'ws'
import { type Adapter, type AdapterSocket } from './adapter.ts'
import { type App } from './apps.ts'
import {
	acceptsClientEvents,
	type ChannelKind,
	channelKind,
	isAllowedChannelName,
	isCacheChannel,
	isValidChannelName,
	parsePresenceMember,
	type PresenceMember,
	requiresAuth,
	userChannel,
} from './channels.ts'
import { type Logger } from './logger.ts'
import {
	byteLength,
	type ClientMessage,
	CloseCode,
	closeReason,
	connectionEstablished,
	dataObject,
	encode,
	ErrorCode,
	errorMessage,
	isRecord,
	parseClientMessage,
	type PusherMessage,
	type SubscriptionError,
	subscriptionError,
} from './protocol.ts'
import { TokenBucket } from './rate-limit.ts'
import { verifyChannelAuth, verifyUserAuth } from './signature.ts'
import { type WebhookSender } from './webhooks.ts'

export interface ConnectionSettings {
	activityTimeoutSeconds: number
	pongTimeoutSeconds: number
	maxMessageBytes: number
	cacheTtlSeconds: number
	channelNames: readonly RegExp[]
	maxChannels: number
	maxSubscriptionsPerSecond: number
}

export interface ConnectionContext {
	app: App
	adapter: Adapter
	logger: Logger
	settings: ConnectionSettings
	webhooks: WebhookSender
}

const MAX_EVENT_NAME_LENGTH = 200

export class Connection implements AdapterSocket {
	userId: string | undefined
	readonly closed: Promise<void>
	// Subscribed channel -> the presence user id this socket joined it as.
	private readonly channels = new Map<string, string | undefined>()
	private readonly clientEvents: TokenBucket
	private readonly subscriptions: TokenBucket
	private queue: Promise<void> = Promise.resolve()
	private state: 'open' | 'closing' | 'closed' = 'open'
	private timer: NodeJS.Timeout | undefined
	private awaitingPong = false
	private markClosed: () => void = () => undefined

	constructor(
		readonly id: string,
		private readonly ws: WebSocket,
		private readonly context: ConnectionContext,
	) {
		this.clientEvents = new TokenBucket(context.app.maxClientEventsPerSecond, context.app.maxClientEventsPerSecond)
		const { maxSubscriptionsPerSecond } = context.settings
		this.subscriptions = new TokenBucket(maxSubscriptionsPerSecond, maxSubscriptionsPerSecond)
		this.closed = new Promise((resolve) => {
			this.markClosed = resolve
		})
	}

	get appId(): string {
		return this.context.app.id
	}

	open(): void {
		this.ws.on('message', (data) => this.enqueue(() => this.onFrame(data)))
		this.ws.on('close', () => this.enqueue(() => this.cleanup()))
		this.ws.on('error', (error) => this.context.logger.debug({ err: error, socketId: this.id }, 'realtime socket error'))
		this.enqueue(() => this.establish())
	}

	send(payload: string): void {
		if (this.ws.readyState !== this.ws.OPEN) return
		this.ws.send(payload, (error) => {
			if (error) this.context.logger.debug({ err: error, socketId: this.id }, 'realtime send failed')
		})
	}

	terminate(code: number, message: string): void {
		if (this.state !== 'open') return
		this.state = 'closing'
		clearTimeout(this.timer)
		this.send(errorMessage(code, message))
		this.ws.close(code, closeReason(message))
	}

	// Drops the TCP connection without the closing handshake, for peers that never answer it.
	kill(): void {
		this.ws.terminate()
	}

	private enqueue(task: () => Promise<void> | void): void {
		this.queue = this.queue.then(task).catch((error: unknown) => {
			this.context.logger.error({ err: error, socketId: this.id }, 'realtime connection handler failed')
		})
	}

	private async establish(): Promise<void> {
		if (this.state !== 'open') return
		const { app, adapter, settings } = this.context
		await adapter.addSocket(app.id, this)
		if ((await adapter.connectionCount(app.id)) > app.maxConnections) {
			this.terminate(CloseCode.OverConnectionQuota, 'Application is over connection quota')
			return
		}
		this.send(connectionEstablished(this.id, settings.activityTimeoutSeconds))
		this.armActivityTimer()
	}

	private async cleanup(): Promise<void> {
		if (this.state === 'closed') return
		this.state = 'closed'
		clearTimeout(this.timer)
		try {
			for (const channel of [...this.channels.keys()]) await this.leave(channel)
			await this.context.adapter.removeSocket(this.context.app.id, this.id)
		} finally {
			this.markClosed()
		}
	}

	private armActivityTimer(): void {
		clearTimeout(this.timer)
		this.awaitingPong = false
		this.timer = setTimeout(() => this.onIdle(), this.context.settings.activityTimeoutSeconds * 1000)
	}

	private onIdle(): void {
		if (this.state !== 'open') return
		this.awaitingPong = true
		this.send(encode({ event: 'pusher:ping', data: {} }))
		this.timer = setTimeout(() => this.terminate(CloseCode.PongNotReceived, 'Pong reply not received'), this.context.settings.pongTimeoutSeconds * 1000)
	}

	private sendError(code: number, message: string): void {
		this.send(errorMessage(code, message))
	}

	private rejectSubscription(channel: string, error: SubscriptionError): void {
		this.send(subscriptionError(channel, error))
	}

	private async onFrame(data: RawData): Promise<void> {
		if (this.state !== 'open') return
		if (this.awaitingPong || this.timer === undefined) this.armActivityTimer()
		else this.timer.refresh()
		const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)
		const limit = this.context.settings.maxMessageBytes
		if (buffer.length > limit) {
			this.sendError(ErrorCode.InvalidMessage, `Message rejected: larger than ${limit} bytes`)
			return
		}
		const message = parseClientMessage(buffer.toString('utf8'))
		if (message === undefined) {
			this.sendError(ErrorCode.InvalidMessage, 'Invalid message: expected a JSON object with an "event" string')
			return
		}
		await this.dispatch(message)
	}

	private async dispatch(message: ClientMessage): Promise<void> {
		switch (message.event) {
			case 'pusher:ping':
				this.send(encode({ event: 'pusher:pong', data: {} }))
				return
			case 'pusher:pong':
				return
			case 'pusher:subscribe':
				return this.subscribe(message.data)
			case 'pusher:unsubscribe':
				return this.unsubscribe(message.data)
			case 'pusher:signin':
				return this.signin(message.data)
		}
		if (message.event.startsWith('client-')) return this.clientEvent(message)
		if (message.event.startsWith('pusher:')) {
			this.context.logger.debug({ event: message.event, socketId: this.id }, 'realtime: ignoring unsupported pusher event')
			return
		}
		this.sendError(ErrorCode.InvalidMessage, `Unsupported event: ${message.event.slice(0, 64)}`)
	}

	private async subscribe(data: unknown): Promise<void> {
		const payload = dataObject(data)
		const channel = payload?.channel
		if (payload === undefined || typeof channel !== 'string') {
			this.sendError(ErrorCode.InvalidMessage, 'pusher:subscribe requires data.channel')
			return
		}
		const { settings } = this.context
		// Before anything else: a refused subscription costs a signature check too.
		if (!this.subscriptions.take()) {
			this.rejectSubscription(channel, {
				type: 'LimitReached',
				error: `More than ${settings.maxSubscriptionsPerSecond} subscriptions per second`,
				status: 429,
			})
			return
		}
		if (!isValidChannelName(channel)) {
			this.rejectSubscription(channel, { type: 'InvalidChannel', error: 'Invalid channel name', status: 400 })
			return
		}
		if (!isAllowedChannelName(channel, settings.channelNames)) {
			this.rejectSubscription(channel, { type: 'InvalidChannel', error: 'Channel name not allowed on this server', status: 403 })
			return
		}
		const kind = channelKind(channel)
		if (this.channels.has(channel)) return this.confirmSubscription(channel, kind)
		if (kind !== 'user' && this.subscriptionCount() >= settings.maxChannels) {
			this.rejectSubscription(channel, {
				type: 'LimitReached',
				error: `More than ${settings.maxChannels} channels on one connection`,
				// As a full presence channel: a limit of the server, which clients only display.
				status: 4100,
			})
			return
		}
		if (kind === 'user') {
			if (this.userId !== undefined && channel === userChannel(this.userId)) {
				await this.context.adapter.join(this.context.app.id, this, channel)
				this.channels.set(channel, undefined)
				return this.confirmSubscription(channel, kind)
			}
			this.rejectSubscription(channel, {
				type: 'AuthError',
				error: 'Server-to-user channels are joined by signing in',
				status: 403,
			})
			return
		}
		let member: PresenceMember | undefined
		if (requiresAuth(kind)) {
			let channelData: string | undefined
			if (kind === 'presence') {
				if (typeof payload.channel_data !== 'string') {
					this.rejectSubscription(channel, { type: 'AuthError', error: 'Presence channels require channel_data', status: 401 })
					return
				}
				channelData = payload.channel_data
			}
			if (!verifyChannelAuth(this.context.app, this.id, channel, payload.auth, channelData)) {
				this.rejectSubscription(channel, {
					type: 'AuthError',
					error: 'Invalid signature: auth does not match this socket and channel',
					status: 401,
				})
				return
			}
			if (typeof channelData === 'string') {
				member = this.presenceMember(channel, channelData)
				if (member === undefined) return
			}
		}
		const { app, adapter } = this.context
		const outcome = await adapter.join(app.id, this, channel, { member, maxPresenceMembers: app.maxPresenceMembers })
		if (!outcome.ok) {
			this.rejectSubscription(channel, {
				type: 'LimitReached',
				error: `Presence channel is full (${app.maxPresenceMembers} members)`,
				// Soketi reports a full presence channel with this status; clients only display it.
				status: 4100,
			})
			return
		}
		this.channels.set(channel, member?.user_id)
		await this.confirmSubscription(channel, kind)
		if (member !== undefined && outcome.memberAdded) {
			const added = encode({
				event: 'pusher_internal:member_added',
				channel,
				data: JSON.stringify({ user_id: member.user_id, user_info: member.user_info }),
			})
			await adapter.publish(app.id, channel, added, this.id)
			this.context.webhooks.send(app, { name: 'member_added', channel, user_id: member.user_id })
		}
		if (isCacheChannel(channel)) {
			const cached = await adapter.getCachedEvent(app.id, channel)
			this.send(cached ?? encode({ event: 'pusher:cache_miss', channel }))
		}
	}

	// Channels held, the user channel (joined by signing in, one at most) aside.
	private subscriptionCount(): number {
		return this.channels.size - (this.userId !== undefined && this.channels.has(userChannel(this.userId)) ? 1 : 0)
	}

	// Who sent a client event, as the app vouched for it: the socket's member of that presence channel (as
	// Pusher does), elsewhere the user it signed in as, or its presence member when it is one user everywhere.
	private sender(channel: string, kind: ChannelKind): string | undefined {
		if (kind === 'presence') return this.channels.get(channel)
		if (this.userId !== undefined) return this.userId
		const members = new Set<string>()
		for (const member of this.channels.values()) if (member !== undefined) members.add(member)
		return members.size === 1 ? [...members][0] : undefined
	}

	private presenceMember(channel: string, channelData: string): PresenceMember | undefined {
		const member = parsePresenceMember(channelData)
		if (member === undefined) {
			this.rejectSubscription(channel, {
				type: 'InvalidChannelData',
				error: 'channel_data must be a JSON object with a user_id',
				status: 400,
			})
			return undefined
		}
		const limit = this.context.app.maxPresenceMemberBytes
		if (byteLength(JSON.stringify(member.user_info ?? null)) > limit) {
			this.rejectSubscription(channel, {
				type: 'LimitReached',
				error: `Presence user_info is larger than ${limit} bytes`,
				status: 413,
			})
			return undefined
		}
		return member
	}

	private async confirmSubscription(channel: string, kind: ChannelKind): Promise<void> {
		if (kind !== 'presence') {
			this.send(encode({ event: 'pusher_internal:subscription_succeeded', channel, data: '{}' }))
			return
		}
		const members = await this.context.adapter.presenceMembers(this.context.app.id, channel)
		const presence = { ids: [...members.keys()], hash: Object.fromEntries(members), count: members.size }
		this.send(encode({ event: 'pusher_internal:subscription_succeeded', channel, data: JSON.stringify({ presence }) }))
	}

	private async unsubscribe(data: unknown): Promise<void> {
		const channel = dataObject(data)?.channel
		if (typeof channel !== 'string') {
			this.sendError(ErrorCode.InvalidMessage, 'pusher:unsubscribe requires data.channel')
			return
		}
		if (this.channels.has(channel)) await this.leave(channel)
	}

	private async leave(channel: string): Promise<void> {
		this.channels.delete(channel)
		const { app, adapter } = this.context
		const outcome = await adapter.leave(app.id, this.id, channel)
		if (outcome.memberRemoved !== undefined) {
			const removed = encode({
				event: 'pusher_internal:member_removed',
				channel,
				data: JSON.stringify({ user_id: outcome.memberRemoved.user_id }),
			})
			await adapter.publish(app.id, channel, removed)
			this.context.webhooks.send(app, { name: 'member_removed', channel, user_id: outcome.memberRemoved.user_id })
		}
	}

	private async signin(data: unknown): Promise<void> {
		const payload = dataObject(data)
		const userData = payload?.user_data
		if (typeof userData !== 'string' || !verifyUserAuth(this.context.app, this.id, userData, payload?.auth)) {
			this.terminate(CloseCode.Unauthorized, 'Invalid signin: auth does not match user_data')
			return
		}
		const userId = parseUserId(userData)
		if (userId === undefined) {
			this.terminate(CloseCode.Unauthorized, 'Invalid signin: user_data needs a non-empty string id')
			return
		}
		if (this.userId !== userId) {
			if (this.userId !== undefined) await this.leave(userChannel(this.userId))
			this.userId = userId
			const channel = userChannel(userId)
			await this.context.adapter.join(this.context.app.id, this, channel)
			this.channels.set(channel, undefined)
		}
		this.send(encode({ event: 'pusher:signin_success', data: { user_data: userData } }))
	}

	private async clientEvent(message: ClientMessage): Promise<void> {
		const { app, adapter } = this.context
		const channel = message.channel
		if (!app.clientEvents) {
			this.sendError(ErrorCode.InvalidMessage, 'Client events are disabled for this app')
			return
		}
		if (channel === undefined || !this.channels.has(channel)) {
			this.sendError(ErrorCode.InvalidMessage, 'Client event rejected: not subscribed to the channel')
			return
		}
		const kind = channelKind(channel)
		if (!acceptsClientEvents(kind)) {
			this.sendError(ErrorCode.InvalidMessage, 'Client events are only allowed on private and presence channels')
			return
		}
		if (message.event.length > MAX_EVENT_NAME_LENGTH) {
			this.sendError(ErrorCode.InvalidMessage, `Event name longer than ${MAX_EVENT_NAME_LENGTH} characters`)
			return
		}
		if (!this.clientEvents.take()) {
			this.sendError(ErrorCode.ClientEventRateLimit, `Client event rejected: more than ${app.maxClientEventsPerSecond} per second`)
			return
		}
		const size = byteLength(typeof message.data === 'string' ? message.data : (JSON.stringify(message.data) ?? ''))
		if (size > app.maxEventBytes) {
			this.sendError(ErrorCode.InvalidMessage, `Client event data larger than ${app.maxEventBytes} bytes`)
			return
		}
		// Whatever the sender wrote in its data, user_id says who it is: receivers trust that field only.
		const event: PusherMessage = { event: message.event, channel, data: message.data }
		const sender = this.sender(channel, kind)
		if (sender !== undefined) event.user_id = sender
		await adapter.publish(app.id, channel, encode(event), this.id)
	}
}

function parseUserId(userData: string): string | undefined {
	try {
		const parsed: unknown = JSON.parse(userData)
		return isRecord(parsed) && typeof parsed.id === 'string' && parsed.id !== '' ? parsed.id : undefined
	} catch {
		return undefined
	}
}
