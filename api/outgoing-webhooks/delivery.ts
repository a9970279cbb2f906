import https from 'node:https'
import { sql, type QueryCreator } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { messageEvent, publishEvents } from '#api/conversations/events.ts'
import { type DB } from '#api/db/database.ts'
import { type Database, type WebhookDelivery, type WebhookSubscription } from '#api/db/schema.ts'
import { checkOutboundUrl, guardedAgent, OutboundAddressRefused } from '#api/http/outbound-address.ts'
import { addJob, type JobConfig } from '#api/jobs/queue.ts'
import { queueMail } from '#api/mail/jobs.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { retryAfterMs } from '#api/notifications/push.ts'
import { signingSecretsOf } from './subscriptions.ts'

export type WebhookConfig = Pick<JobConfig, 'ENCRYPTION_KEY' | 'WEBHOOK_ALLOW_PRIVATE' | 'outboundCa'>

/** Standard Webhooks' schedule: the waits after each failed try (the first try is at once), about a day in all. */
export const retrySchedule = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600].map((seconds) => seconds * 1000)
/** The longest wait a receiver's Retry-After gets. */
const longestWait = 10 * 3600 * 1000
export const sendTimeoutMs = 10_000
/** A subscription failing this long (since its first failed try of a stretch) is turned off at its next failed try. */
export const disableAfterMs = 24 * 3600 * 1000
/** What the log keeps of an answer. */
const keptAnswerBytes = 1024

/** One try's outcome: delivered (2xx), or failed and whether it is worth another try, with what the receiver said. */
export type Attempt = { delivered: boolean; retry: boolean; status: number | null; body: string | null; error: string | null; retryAfter?: number }

const agentFor = (config: Pick<WebhookConfig, 'WEBHOOK_ALLOW_PRIVATE' | 'outboundCa'>) =>
	guardedAgent({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, ca: config.outboundCa })

/**
 * One POST of a delivery's body to the subscription's address, signed with each of `secrets`, checked first and
 * pinned to the checked address (`guardedAgent`); at most `sendTimeoutMs`; a redirect is an answer, not followed.
 */
export async function sendOnce(
	config: WebhookConfig,
	url: string,
	secrets: readonly string[],
	delivery: Pick<WebhookDelivery, 'webhookId' | 'payload'>,
): Promise<Attempt> {
	try {
		await checkOutboundUrl(url, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
	} catch (error) {
		if (!(error instanceof OutboundAddressRefused)) throw error
		// A name that does not resolve may again; a private address or another scheme is refused for good.
		return { delivered: false, retry: error.reason === 'unresolved', status: null, body: null, error: error.message }
	}
	const now = new Date()
	const signature = secrets.map((secret) => new Webhook(secret).sign(delivery.webhookId, now, delivery.payload)).join(' ')
	const body = Buffer.from(delivery.payload, 'utf8')
	return new Promise<Attempt>((resolve) => {
		const request = https.request(url, {
			method: 'POST',
			agent: agentFor(config),
			headers: {
				'Content-Type': 'application/json',
				'Content-Length': String(body.length),
				'User-Agent': 'crm-webhooks/1',
				'webhook-id': delivery.webhookId,
				'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
				'webhook-signature': signature,
			},
		})
		const timer = setTimeout(() => request.destroy(new Error(`no answer within ${sendTimeoutMs / 1000} s`)), sendTimeoutMs)
		request.on('error', (error) => {
			clearTimeout(timer)
			resolve({ delivered: false, retry: true, status: null, body: null, error: error.message })
		})
		request.on('response', (response) => {
			const chunks: Buffer[] = []
			let kept = 0
			response.on('data', (chunk: Buffer) => {
				if (kept < keptAnswerBytes) chunks.push(chunk)
				kept += chunk.length
			})
			response.on('error', () => undefined)
			response.on('end', () => {
				clearTimeout(timer)
				const status = response.statusCode ?? 0
				const text = Buffer.concat(chunks).subarray(0, keptAnswerBytes).toString('utf8')
				const delivered = status >= 200 && status < 300
				const retry = status === 429 || status >= 500
				resolve({
					delivered,
					retry,
					status,
					body: text,
					error: delivered ? null : `HTTP ${status}`,
					retryAfter: retry ? retryAfterMs(response.headers['retry-after']) : undefined,
				})
			})
		})
		request.end(body)
	})
}

/** The wait after failed try number `attempts` (1 for the first), or undefined when the schedule is spent. */
export function waitAfter(attempts: number, retryAfter: number | undefined): number | undefined {
	const scheduled = retrySchedule[attempts - 1]
	if (scheduled === undefined) return undefined
	return retryAfter === undefined ? scheduled : Math.min(Math.max(retryAfter, 1000), longestWait)
}

/** The pending deliveries a delivery job reads at once. */
const dueBatch = 20

/**
 * The `deliver-webhooks` task of one subscription and ordering key: sends its pending deliveries
 * one after another, oldest first, read `dueBatch` at a time with the subscription. A try that
 * failed and may be retried holds the later ones back until its next try, for which the job adds
 * itself again; a delivery given up lets them go, once the subscription is read again.
 */
export async function deliverWebhooks(db: DB, realtime: Realtime, config: WebhookConfig, job: { subscriptionId: string; orderingKey: string }): Promise<void> {
	let subscription: WebhookSubscription | undefined
	let due: WebhookDelivery[] = []
	// A short read was the key's last: a delivery added since came with a job of its own (this one runs, so its key went to a new one).
	let more = true
	for (;;) {
		if (due.length === 0 && more) {
			;[subscription, due] = await Promise.all([
				db.selectFrom('webhookSubscriptions').selectAll().where('id', '=', job.subscriptionId).executeTakeFirst(),
				db
					.selectFrom('webhookDeliveries')
					.selectAll()
					.where('subscriptionId', '=', job.subscriptionId)
					.where('orderingKey', '=', job.orderingKey)
					.where('status', '=', 'pending')
					.orderBy('id')
					.limit(dueBatch)
					.execute(),
			])
			more = due.length === dueBatch
		}
		const delivery = due.shift()
		if (!subscription?.enabled || !delivery) return
		if (delivery.nextAttemptAt && delivery.nextAttemptAt.getTime() > Date.now()) {
			await again(db, job, delivery.nextAttemptAt)
			return
		}
		const secrets = openedSecrets(subscription, config.ENCRYPTION_KEY)
		const attempt = secrets ? await sendOnce(config, subscription.url, secrets, delivery) : unsignable
		const next = await recordAttempt(db, realtime, subscription, delivery, attempt)
		if (next) {
			await again(db, job, next)
			return
		}
		// A failure may have turned the subscription off.
		if (!attempt.delivered) [due, more] = [[], true]
	}
}

/** A secret sealed under another ENCRYPTION_KEY (changed since) cannot sign: the log says so rather than the job failing again and again. */
const unsignable: Attempt = {
	delivered: false,
	retry: false,
	status: null,
	body: null,
	error: 'the signing secret cannot be opened: was ENCRYPTION_KEY changed?',
}

function openedSecrets(subscription: WebhookSubscription, encryptionKey: string): string[] | undefined {
	try {
		return signingSecretsOf(subscription, encryptionKey)
	} catch {
		return undefined
	}
}

function again(db: DB, job: { subscriptionId: string; orderingKey: string }, runAt: Date) {
	const key = `webhook:${job.subscriptionId}:${job.orderingKey}`
	return addJob(db, 'deliver-webhooks', job, { key, queueName: key, runAt })
}

/**
 * Writes a try's outcome: the delivery's status and answer, the subscription's failing stretch (and
 * its end after a day), and for an API channel's reply that message's delivery status. Returns the
 * time of the next try, when there is one.
 */
async function recordAttempt(
	db: DB,
	realtime: Realtime,
	subscription: WebhookSubscription,
	delivery: WebhookDelivery,
	attempt: Attempt,
): Promise<Date | undefined> {
	const attempts = delivery.attempts + 1
	const wait = attempt.delivered || !attempt.retry ? undefined : waitAfter(attempts, attempt.retryAfter)
	const next = wait === undefined ? undefined : new Date(Date.now() + wait)
	const status = attempt.delivered ? 'delivered' : next ? 'pending' : 'failed'
	const recorded = (creator: QueryCreator<Database>) =>
		creator
			.updateTable('webhookDeliveries')
			.set({
				status,
				attempts,
				lastAttemptAt: sql<Date>`now()`,
				nextAttemptAt: next ?? null,
				responseStatus: attempt.status,
				responseBody: attempt.body,
				error: attempt.error,
				deliveredAt: attempt.delivered ? sql<Date>`now()` : null,
			})
			.where('id', '=', delivery.id)
	// Delivered: the try recorded and the subscription's failing stretch ended, in one statement.
	const recordedDelivered = (executor: DB) =>
		executor
			.with('recorded', recorded)
			.updateTable('webhookSubscriptions')
			.set({ failingSince: null })
			.where('id', '=', subscription.id)
			.where('failingSince', 'is not', null)
			.execute()
	if (attempt.delivered && !delivery.messageId) {
		// Most tries: that statement alone rather than a transaction's round trips.
		await recordedDelivered(db)
		return undefined
	}
	const { events } = await db.transaction().execute(async (trx) => {
		if (attempt.delivered) {
			await recordedDelivered(trx)
		} else {
			await recorded(trx).execute()
			const failing = await trx
				.updateTable('webhookSubscriptions')
				.set({ failingSince: sql<Date>`coalesce(failing_since, now())` })
				.where('id', '=', subscription.id)
				.returning(['failingSince', 'enabled'])
				.executeTakeFirst()
			if (failing?.enabled && failing.failingSince && failing.failingSince.getTime() < Date.now() - disableAfterMs) {
				await disableSubscription(trx, subscription)
			}
		}
		if (!delivery.messageId || status === 'pending') return { events: [] }
		return { events: await settleMessage(trx, delivery.messageId, attempt) }
	})
	if (events.length > 0) await publishEvents(db, realtime, events)
	return status === 'pending' ? next : undefined
}

/** Turns a subscription off after a day of failures, and mails its workspace's owners and admins. */
async function disableSubscription(trx: DB, subscription: WebhookSubscription) {
	await trx
		.updateTable('webhookSubscriptions')
		.set({ enabled: false, disabledAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
		.where('id', '=', subscription.id)
		.execute()
	const managers = await trx
		.selectFrom('members')
		.select('userId')
		.where('workspaceId', '=', subscription.workspaceId)
		.where('role', 'in', ['owner', 'admin'])
		.execute()
	for (const { userId } of managers) await queueMail(trx, { kind: 'webhookDisabled', userId, subscriptionId: subscription.id })
}

/** An API channel's reply whose delivery to the callback ended: `sent`, or `failed` with why; members see it change. */
async function settleMessage(trx: DB, messageId: string, attempt: Attempt) {
	const message = await trx
		.updateTable('messages')
		.set({ status: attempt.delivered ? 'sent' : 'failed', error: attempt.delivered ? null : attempt.error, updatedAt: sql<Date>`now()` })
		.where('id', '=', messageId)
		.where('status', '=', 'pending')
		.returning(['id', 'conversationId', 'workspaceId', 'kind', 'direction'])
		.executeTakeFirst()
	if (!message) return []
	const conversation = await trx
		.selectFrom('conversations')
		.select(['id', 'workspaceId', 'number'])
		.where('id', '=', message.conversationId)
		.executeTakeFirstOrThrow()
	return [messageEvent('message.updated', conversation, { id: message.id, kind: message.kind, direction: message.direction })]
}
