import crypto from 'node:crypto'
import { sql } from 'kysely'
import webpush, { WebPushError } from 'web-push'
import { type DB } from '#api/db/database.ts'
import { type PushSubscription } from '#api/db/schema.ts'
import { checkOutboundUrl, guardedAgent, OutboundAddressRefused } from '#api/http/outbound-address.ts'
import { addJob, type JobConfig, type JobPayloads } from '#api/jobs/queue.ts'
import { type NotificationKind } from '#common/notifications.ts'
import { defaultLocale, isLocale, type Locale } from '#locales/languages.ts'
import { notificationAddress, notificationLine } from './words.ts'

/**
 * Browser push (Web Push with VAPID, RFC 8030/8291/8292; docs/decisions/025-notifications.md): a
 * notification whose member has push on goes, as a `send-push` job, to each of the user's devices,
 * unless it was read or the member is looking at a tab of its workspace by the time it runs.
 */

/** What the push keys and the guard of push addresses need from the configuration. */
export type PushConfig = Pick<JobConfig, 'PUBLIC_URL' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'WEBHOOK_ALLOW_PRIVATE' | 'outboundCa'>

/** What the service worker (public/push-worker.js) shows: already in the member's language. */
export type PushPayload = { title: string; body: string; url: string; tag: string }

/** How a device answered a push. */
export type PushResult = 'sent' | 'removed' | 'refused' | 'failed'

export type SendPushJob = JobPayloads['send-push']

/** Attempts per device for a push the service could not take now (429, 5xx, unreachable), then it is dropped. */
export const pushAttempts = 5
/** How long a push service keeps a message for a device that is offline: a notification older than a shift is news no more. */
export const pushTtlSeconds = 12 * 60 * 60
// A job throws only when the database fails (a device's refusal is an answer): a few tries, as a device may get it twice.
const jobAttempts = 3
// A notification's line is short; an excerpt is cut so the payload stays far under the 4096 bytes a service takes.
const maxBodyLength = 600

/**
 * Queues the push of notifications (`notify` calls it in the change's transaction, for the rows
 * whose member has push on): one job per notification of a user who has a device.
 */
export async function queuePush(trx: DB, rows: ReadonlyArray<{ id: string; userId: string; workspaceId: string }>): Promise<void> {
	if (rows.length === 0) return
	const withDevices = await trx
		.selectFrom('pushSubscriptions')
		.select('userId')
		.distinct()
		.where(
			'userId',
			'in',
			rows.map((row) => row.userId),
		)
		.execute()
	const users = new Set(withDevices.map((row) => row.userId))
	for (const row of rows) if (users.has(row.userId)) await addJob(trx, 'send-push', { notificationId: row.id }, { maxAttempts: jobAttempts })
}

/** The ids a notification's push tells the service worker and the push service, so a newer one of the same conversation replaces it. */
function tagOf(notification: { id: string; workspaceId: string; conversationNumber: number | null }) {
	return notification.conversationNumber === null
		? `notification-${notification.id}`
		: `conversation-${notification.workspaceId}-${notification.conversationNumber}`
}

/** RFC 8030 §5.4: at most 32 characters of the URL-safe base64 alphabet. */
const topicOf = (tag: string) => crypto.createHash('sha256').update(tag).digest('base64url').slice(0, 32)

const urgencyOf = (kind: NotificationKind): webpush.Urgency => (kind === 'assigned' || kind === 'mentioned' || kind === 'message' ? 'high' : 'normal')

/** The push of one notification, in its member's language; undefined when it is gone, read, or its member is looking. */
async function pushOfNotification(db: DB, config: PushConfig, notificationId: string) {
	const row = await db
		.selectFrom('notifications')
		.innerJoin('members', (join) => join.onRef('members.workspaceId', '=', 'notifications.workspaceId').onRef('members.userId', '=', 'notifications.userId'))
		.innerJoin('users', 'users.id', 'notifications.userId')
		.innerJoin('workspaces', 'workspaces.id', 'notifications.workspaceId')
		.select([
			'notifications.id',
			'notifications.kind',
			'notifications.values',
			'notifications.userId',
			'notifications.workspaceId',
			'notifications.readAt',
			'users.locale',
			'workspaces.name as workspaceName',
			sql<boolean>`coalesce(members.focused_until > now(), false)`.as('focused'),
		])
		.select((eb) =>
			eb.selectFrom('conversations').select('conversations.number').whereRef('conversations.id', '=', 'notifications.conversationId').as('conversationNumber'),
		)
		.where('notifications.id', '=', notificationId)
		.executeTakeFirst()
	if (!row || row.readAt || row.focused) return undefined
	const locale: Locale = isLocale(row.locale) ? row.locale : defaultLocale
	const line = await notificationLine(locale, { id: row.id, kind: row.kind, values: row.values })
	const payload: PushPayload = {
		title: row.workspaceName,
		body: line.length > maxBodyLength ? `${line.slice(0, maxBodyLength - 1)}…` : line,
		url: notificationAddress(config.PUBLIC_URL, locale, row),
		tag: tagOf({ id: row.id, workspaceId: row.workspaceId, conversationNumber: row.conversationNumber ?? null }),
	}
	return { userId: row.userId, kind: row.kind, payload }
}

const agentFor = (config: Pick<PushConfig, 'WEBHOOK_ALLOW_PRIVATE' | 'outboundCa'>) =>
	guardedAgent({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, ca: config.outboundCa })

/** A device's answer, and how long the service asked to wait before the next try (429, 503). */
type Delivery = { result: PushResult; status: number | null; retryAfterMs?: number; retry: boolean }

/**
 * Sends one message to one device, checking its address first (an endpoint that now resolves to a
 * private address is refused, and the connection itself goes only where the check allowed). A 404
 * or 410 removes the device; 429, 5xx and a network failure may be retried.
 */
export async function pushToDevice(
	db: DB,
	config: PushConfig,
	device: Pick<PushSubscription, 'id' | 'endpoint' | 'p256dh' | 'auth'>,
	payload: PushPayload,
	options: { urgency?: webpush.Urgency; topic?: string; ttl?: number } = {},
): Promise<Delivery> {
	try {
		await checkOutboundUrl(device.endpoint, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
		const answer = await webpush.sendNotification({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }, JSON.stringify(payload), {
			vapidDetails: { subject: config.VAPID_SUBJECT, publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY },
			TTL: options.ttl ?? pushTtlSeconds,
			urgency: options.urgency ?? 'normal',
			...(options.topic ? { topic: options.topic } : {}),
			contentEncoding: 'aes128gcm',
			agent: agentFor(config),
			timeout: 10_000,
		})
		await db.updateTable('pushSubscriptions').set({ lastSuccessAt: new Date() }).where('id', '=', device.id).execute()
		return { result: 'sent', status: answer.statusCode, retry: false }
	} catch (error) {
		if (error instanceof OutboundAddressRefused) {
			// A name that no longer resolves may again; an address that is private is refused for good.
			return { result: 'refused', status: null, retry: error.reason === 'unresolved' }
		}
		if (error instanceof WebPushError) {
			if (error.statusCode === 404 || error.statusCode === 410) {
				await db.deleteFrom('pushSubscriptions').where('id', '=', device.id).execute()
				return { result: 'removed', status: error.statusCode, retry: false }
			}
			const retry = error.statusCode === 429 || error.statusCode >= 500
			return { result: 'failed', status: error.statusCode, retry, retryAfterMs: retryAfterMs(error.headers['retry-after']) }
		}
		// The service unreachable, a reset, a timeout: worth another try.
		return { result: 'failed', status: null, retry: true }
	}
}

/** `Retry-After` (RFC 9110 §10.2.3): seconds, or an HTTP date. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
	const value = Array.isArray(header) ? header[0] : header
	if (!value) return undefined
	if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
	const date = Date.parse(value)
	return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The wait before attempt `attempt + 1`: what the service asked for (at most 6 hours), else 10 s, 40 s, 160 s… at most an hour. */
export function retryDelayMs(attempt: number, retryAfter: number | undefined): number {
	if (retryAfter !== undefined) return Math.min(retryAfter, 6 * 60 * 60 * 1000)
	return Math.min(10_000 * 4 ** (attempt - 1), 60 * 60 * 1000)
}

/**
 * The `send-push` task: the notification to each of its user's devices (or, on a retry, those that
 * did not take it yet), unless it was read or its member looks at the workspace now. Devices the
 * service could not take it from now are tried again by a new job at the time it asked for, so a
 * device that took it never gets it twice.
 */
export async function sendPush(db: DB, config: PushConfig, job: SendPushJob): Promise<void> {
	const push = await pushOfNotification(db, config, job.notificationId)
	if (!push) return
	let query = db.selectFrom('pushSubscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('userId', '=', push.userId)
	if (job.deviceIds) query = query.where('id', 'in', job.deviceIds.length > 0 ? job.deviceIds : ['00000000-0000-0000-0000-000000000000'])
	const devices = await query.execute()
	const attempt = job.attempt ?? 1
	const options = { urgency: urgencyOf(push.kind), topic: topicOf(push.payload.tag) }
	const deliveries = await Promise.all(devices.map(async (device) => ({ device, delivery: await pushToDevice(db, config, device, push.payload, options) })))
	if (deliveries.some(({ delivery }) => delivery.result === 'sent')) {
		await db.updateTable('notifications').set({ pushedAt: new Date() }).where('id', '=', job.notificationId).where('pushedAt', 'is', null).execute()
	}
	const again = deliveries.filter(({ delivery }) => delivery.retry)
	if (again.length === 0 || attempt >= pushAttempts) return
	const asked = again.flatMap(({ delivery }) => (delivery.retryAfterMs === undefined ? [] : [delivery.retryAfterMs]))
	const wait = retryDelayMs(attempt, asked.length > 0 ? Math.max(...asked) : undefined)
	await addJob(
		db,
		'send-push',
		{ notificationId: job.notificationId, deviceIds: again.map(({ device }) => device.id), attempt: attempt + 1 },
		{ runAt: new Date(Date.now() + wait), maxAttempts: jobAttempts },
	)
}
