import crypto from 'node:crypto'
import { sql } from 'kysely'
import { type WebhookEventType, type WebhookSubscriptionJson } from '#common/webhooks.ts'
import { openCredentials, sealCredentials } from '#api/channels/crypto.ts'
import { type DB } from '#api/db/database.ts'
import { type WebhookSubscription } from '#api/db/schema.ts'
import { queueDeliveries } from './fan-out.ts'

/** A new signing secret as Standard Webhooks writes one: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
	return `whsec_${crypto.randomBytes(24).toString('base64')}`
}

/** A webhook as the audit log names it: its host, never its path or query, which may carry a receiver's key. */
export const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : '?')

/** How long a rolled secret keeps signing beside the new one, so a receiver can switch without refusing a delivery. */
export const secretOverlapMs = 24 * 3600 * 1000

/** The subscription's whsec_… secret, opened with the key it was sealed under. */
export function secretOf(subscription: Pick<WebhookSubscription, 'secret'>, encryptionKey: string): string {
	return signingSecretsOf(subscription, encryptionKey)[0]!
}

/**
 * The secrets that sign a request now: the current one, then the one it replaced while its day of
 * overlap lasts (Standard Webhooks' header carries one signature per secret, and a receiver checks any).
 */
export function signingSecretsOf(subscription: Pick<WebhookSubscription, 'secret'>, encryptionKey: string, now = new Date()): string[] {
	const { secret, previousSecret, previousUntil } = openCredentials(subscription.secret, encryptionKey)
	if (!secret) throw new Error('webhook secret is not in a known format')
	const overlapping = previousSecret && previousUntil && Date.parse(previousUntil) > now.getTime()
	return overlapping ? [secret, previousSecret] : [secret]
}

/**
 * A new secret for the subscription, in the caller's transaction; the one it replaces keeps signing
 * beside it for `secretOverlapMs` (a secret that cannot be opened any more is simply replaced).
 * Undefined when the subscription is gone.
 */
export async function rollSubscriptionSecret(
	trx: DB,
	subscriptionId: string,
	encryptionKey: string,
): Promise<{ secret: string; previousUntil: Date | null } | undefined> {
	// Locked: two rolls at once would each keep the same old secret beside their own, losing the first one's new secret.
	const subscription = await trx.selectFrom('webhookSubscriptions').select(['id', 'secret']).where('id', '=', subscriptionId).forUpdate().executeTakeFirst()
	if (!subscription) return undefined
	const secret = newWebhookSecret()
	let current: string | undefined
	try {
		current = secretOf(subscription, encryptionKey)
	} catch {
		current = undefined
	}
	const previousUntil = current ? new Date(Date.now() + secretOverlapMs) : null
	const sealed: Record<string, string> = current && previousUntil ? { secret, previousSecret: current, previousUntil: previousUntil.toISOString() } : { secret }
	await trx
		.updateTable('webhookSubscriptions')
		.set({ secret: sealCredentials(sealed, encryptionKey), updatedAt: sql<Date>`now()` })
		.where('id', '=', subscription.id)
		.execute()
	return { secret, previousUntil }
}

export function subscriptionJson(row: WebhookSubscription): WebhookSubscriptionJson {
	return {
		id: row.id,
		url: row.url,
		events: row.events,
		enabled: row.enabled,
		failingSince: row.failingSince?.toISOString() ?? null,
		disabledAt: row.disabledAt?.toISOString() ?? null,
		createdAt: row.createdAt.toISOString(),
		updatedAt: row.updatedAt.toISOString(),
	}
}

/**
 * A subscription and its secret (shown once; kept sealed under `encryptionKey`), in the caller's
 * transaction. With `channelId`, it is that API channel's callback: never listed on the webhooks
 * page, and told only of that channel's conversations.
 */
export async function createSubscription(
	trx: DB,
	options: {
		workspaceId: string
		channelId?: string | null
		url: string
		events: readonly WebhookEventType[]
		createdBy: string | null
		encryptionKey: string
	},
): Promise<{ subscription: WebhookSubscription; secret: string }> {
	const secret = newWebhookSecret()
	const subscription = await trx
		.insertInto('webhookSubscriptions')
		.values({
			workspaceId: options.workspaceId,
			channelId: options.channelId ?? null,
			url: options.url,
			events: [...new Set(options.events)],
			secret: sealCredentials({ secret }, options.encryptionKey),
			createdBy: options.createdBy,
		})
		.returningAll()
		.executeTakeFirstOrThrow()
	return { subscription, secret }
}

/** A subscription's new address (an API channel's callback URL changed); checked by the caller with `checkOutboundUrl`. */
export async function setSubscriptionUrl(trx: DB, subscriptionId: string, url: string): Promise<void> {
	await trx
		.updateTable('webhookSubscriptions')
		.set({ url, updatedAt: sql<Date>`now()` })
		.where('id', '=', subscriptionId)
		.execute()
}

/** The workspace's own subscriptions (not its API channels' callbacks), oldest first. */
export async function listSubscriptions(db: DB, workspaceId: string): Promise<WebhookSubscriptionJson[]> {
	const rows = await db
		.selectFrom('webhookSubscriptions')
		.selectAll()
		.where('workspaceId', '=', workspaceId)
		.where('channelId', 'is', null)
		.orderBy('createdAt')
		.orderBy('id')
		.execute()
	return rows.map(subscriptionJson)
}

/** One of the workspace's own subscriptions; an API channel's callback is not one of them. */
export function findSubscription(db: DB, workspaceId: string, subscriptionId: string): Promise<WebhookSubscription | undefined> {
	return db
		.selectFrom('webhookSubscriptions')
		.selectAll()
		.where('workspaceId', '=', workspaceId)
		.where('id', '=', subscriptionId)
		.where('channelId', 'is', null)
		.executeTakeFirst()
}

/**
 * Turns a subscription on again (after a day of failures, or by hand): its failing stretch forgotten,
 * and every delivery that waited sent now, each conversation's in order. In the caller's transaction.
 */
export async function turnOnSubscription(trx: DB, subscriptionId: string): Promise<WebhookSubscription | undefined> {
	const subscription = await trx
		.updateTable('webhookSubscriptions')
		.set({ enabled: true, disabledAt: null, failingSince: null, updatedAt: sql<Date>`now()` })
		.where('id', '=', subscriptionId)
		.returningAll()
		.executeTakeFirst()
	if (!subscription) return undefined
	const waiting = await trx
		.updateTable('webhookDeliveries')
		.set({ nextAttemptAt: null })
		.where('subscriptionId', '=', subscriptionId)
		.where('status', '=', 'pending')
		.returning('orderingKey')
		.execute()
	for (const orderingKey of new Set(waiting.map((row) => row.orderingKey))) await queueDeliveries(trx, subscriptionId, orderingKey, { now: true })
	return subscription
}
