import { type WebhookDeliveryJson } from '#common/webhooks.ts'
import { type DB } from '#api/db/database.ts'
import { type WebhookDelivery } from '#api/db/schema.ts'

/** Deliveries a page of the log shows. */
export const deliveriesPerPage = 50

export function deliveryJson(row: WebhookDelivery): WebhookDeliveryJson {
	return {
		id: String(row.id),
		webhookId: row.webhookId,
		eventType: row.eventType,
		status: row.status,
		attempts: row.attempts,
		nextAttemptAt: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
		lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
		responseStatus: row.responseStatus,
		responseBody: row.responseBody,
		error: row.error,
		payload: row.payload,
		createdAt: row.createdAt.toISOString(),
		deliveredAt: row.deliveredAt?.toISOString() ?? null,
	}
}

/** A subscription's log, newest first, by keyset: the page older than `cursor`. */
export async function deliveriesPage(
	db: DB,
	subscriptionId: string,
	cursor: string | undefined,
): Promise<{ deliveries: WebhookDeliveryJson[]; nextCursor: string | null }> {
	let query = db.selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId)
	if (cursor) query = query.where('id', '<', cursor)
	const rows = await query
		.orderBy('id', 'desc')
		.limit(deliveriesPerPage + 1)
		.execute()
	const deliveries = rows.slice(0, deliveriesPerPage).map(deliveryJson)
	return { deliveries, nextCursor: rows.length > deliveriesPerPage ? (deliveries.at(-1)?.id ?? null) : null }
}

export function findDelivery(db: DB, subscriptionId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
	return db.selectFrom('webhookDeliveries').selectAll().where('subscriptionId', '=', subscriptionId).where('id', '=', deliveryId).executeTakeFirst()
}
