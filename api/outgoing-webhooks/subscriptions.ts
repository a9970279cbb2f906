import crypto from 'node:crypto'
import { sql } from 'kysely'
import { type WebhookEventType, type WebhookSubscriptionJson } from '#common/webhooks.ts'
import { openCredentials, sealCredentials } from '#api/channels/crypto.ts'
import { type DB } from '#api/db/database.ts'
import { type WebhookSubscription } from '#api/db/schema.ts'

/** A new signing secret as Standard Webhooks writes one: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
	return `whsec_${crypto.randomBytes(24).toString('base64')}`
}

/** The subscription's whsec_… secret, opened with the key it was sealed under. */
export function secretOf(subscription: Pick<WebhookSubscription, 'secret'>, encryptionKey: string): string {
	const opened = openCredentials(subscription.secret, encryptionKey).secret
	if (!opened) throw new Error('webhook secret is not in a known format')
	return opened
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
