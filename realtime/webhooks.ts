import { createHmac } from 'node:crypto'
import { type App } from './apps.ts'
import { type Logger } from './logger.ts'

/** The webhook events this server sends: a presence channel's first socket of a user, and their last one leaving. */
export type WebhookEventName = 'member_added' | 'member_removed'

/**
 * Where an app's webhooks go, as Pusher Channels and Soketi configure them: a URL (a function when
 * it is known only once the host listens) and the events it takes.
 */
export interface WebhookConfig {
	url: string | (() => string)
	eventTypes: readonly WebhookEventName[]
}

export type WebhookEvent = { name: WebhookEventName; channel: string; user_id: string }

export interface WebhookSenderOptions {
	logger: Logger
	/**
	 * How long a `member_removed` waits before it is sent (Pusher waits too): a `member_added` of the
	 * same user on the same channel in that time cancels both, so that a page reload is not a leave
	 * and a return.
	 */
	memberRemovedDelayMs?: number
	/** Tries per batch before it is dropped (and logged), with a doubling pause from `retryDelayMs`. */
	attempts?: number
	retryDelayMs?: number
	timeoutMs?: number
	closeTimeoutMs?: number
}

export interface WebhookSender {
	send(app: App, event: WebhookEvent): void
	/** Sends what waits (a leave still in its delay included) and resolves once every batch is settled, or after `closeTimeoutMs`. */
	close(): Promise<void>
}

/**
 * Pusher's webhooks: a POST of `{ time_ms, events }` signed with the app's secret
 * (`X-Pusher-Key`, `X-Pusher-Signature`: HMAC-SHA256 of the body, hex), which the `pusher` SDK's
 * `webhook()` verifies. Per app and URL, one request at a time, in order: what comes while one is
 * under way goes in the next batch.
 */
export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
	const { logger } = options
	const delayMs = options.memberRemovedDelayMs ?? 3000
	const attempts = options.attempts ?? 3
	const retryDelayMs = options.retryDelayMs ?? 1000
	const timeoutMs = options.timeoutMs ?? 5000
	const closeTimeoutMs = options.closeTimeoutMs ?? 2000
	type Target = { app: App; webhook: WebhookConfig; waiting: WebhookEvent[]; sending?: Promise<void> }
	const targets = new Map<string, Target>()
	// A leave in its delay, by app, channel and user.
	const leaving = new Map<string, { timer: NodeJS.Timeout; app: App; event: WebhookEvent }>()
	const settling = new Set<Promise<void>>()

	const leaveKey = (app: App, event: WebhookEvent) => JSON.stringify([app.id, event.channel, event.user_id])

	function enqueue(app: App, event: WebhookEvent) {
		for (const [index, webhook] of (app.webhooks ?? []).entries()) {
			if (!webhook.eventTypes.includes(event.name)) continue
			const key = `${app.id}\n${index}`
			let target = targets.get(key)
			if (!target) targets.set(key, (target = { app, webhook, waiting: [] }))
			target.waiting.push(event)
			if (!target.sending) drain(target)
		}
	}

	function drain(target: Target) {
		const run = (async () => {
			while (target.waiting.length > 0) {
				const events = target.waiting.splice(0)
				await deliver(target, events)
			}
		})().finally(() => {
			target.sending = undefined
			settling.delete(run)
		})
		target.sending = run
		settling.add(run)
	}

	async function deliver({ app, webhook }: Target, events: WebhookEvent[]) {
		const body = JSON.stringify({ time_ms: Date.now(), events })
		const signature = createHmac('sha256', app.secret).update(body).digest('hex')
		const url = typeof webhook.url === 'function' ? webhook.url() : webhook.url
		for (let attempt = 1; attempt <= attempts; attempt++) {
			try {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', 'X-Pusher-Key': app.key, 'X-Pusher-Signature': signature },
					body,
					signal: AbortSignal.timeout(timeoutMs),
				})
				await response.arrayBuffer()
				if (response.ok) return
				// A refusal will not change on a retry.
				if (response.status < 500) {
					logger.warn({ appId: app.id, status: response.status, events: events.length }, 'realtime webhook refused')
					return
				}
				throw new Error(`status ${response.status}`)
			} catch (error) {
				if (attempt === attempts) {
					logger.warn({ appId: app.id, err: error, events: events.length }, 'realtime webhook failed, dropped')
					return
				}
				await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempt - 1)))
			}
		}
	}

	return {
		send(app, event) {
			if (!app.webhooks?.some((webhook) => webhook.eventTypes.includes(event.name))) return
			const key = leaveKey(app, event)
			if (event.name === 'member_removed') {
				if (delayMs <= 0) return enqueue(app, event)
				clearTimeout(leaving.get(key)?.timer)
				const timer = setTimeout(() => {
					leaving.delete(key)
					enqueue(app, event)
				}, delayMs)
				leaving.set(key, { timer, app, event })
				return
			}
			const left = leaving.get(key)
			if (left) {
				// Back before the leave was told: neither is.
				clearTimeout(left.timer)
				leaving.delete(key)
				return
			}
			enqueue(app, event)
		},
		async close() {
			for (const [key, left] of leaving) {
				clearTimeout(left.timer)
				leaving.delete(key)
				enqueue(left.app, left.event)
			}
			const settled = (async () => {
				while (settling.size > 0) await Promise.all(settling)
			})()
			let timer: NodeJS.Timeout | undefined
			await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, closeTimeoutMs)))])
			clearTimeout(timer)
		},
	}
}
