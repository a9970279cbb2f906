import { sql } from 'kysely'
import { chosenPreference, notificationMedia, type NotificationKind, type NotificationMedium, type NotificationValues } from '#common/notifications.ts'
import { type DB } from '#api/db/database.ts'
import { queueNotificationMail } from './mail-queue.ts'
import { queuePush } from './push.ts'

/** A notification to write: for whom, of what kind, about what. `number` and `contact` are read from the conversation. */
export type NotificationDraft = {
	workspaceId: string
	userId: string
	kind: NotificationKind
	conversationId?: string
	campaignId?: string
	channelId?: string
	values?: NotificationValues
	/** Once only: a second draft of the same key for the same member writes nothing. */
	onceKey?: string
}

/** What to publish once the change committed: the member's personal channel hears the new row. */
export type NotificationEvent = { event: 'notification'; userId: string; workspaceId: string; notificationId: string }

type Written = { id: string; userId: string; workspaceId: string; kind: NotificationKind }

/**
 * The one writer of notifications (docs/decisions/025-notifications.md), in the transaction of the
 * change that causes them: no notification without its change, no change without its
 * notifications. Drops what the members turned off in every medium and everything about a muted
 * conversation; gathers a conversation's unread new-message notifications into one; queues the
 * mail and the push of those who want them. Returns the events to publish after the commit.
 */
export async function notify(trx: DB, drafts: NotificationDraft[]): Promise<NotificationEvent[]> {
	if (drafts.length === 0) return []
	const conversationIds = [...new Set(drafts.flatMap((draft) => (draft.conversationId ? [draft.conversationId] : [])))]
	const [conversations, preferences] = await Promise.all([
		conversationIds.length === 0
			? []
			: trx
					.selectFrom('conversations')
					.innerJoin('contacts', 'contacts.id', 'conversations.contactId')
					.select(['conversations.id', 'conversations.number', 'conversations.mutedAt', 'contacts.name', 'contacts.phone'])
					.where('conversations.id', 'in', conversationIds)
					.execute(),
		trx
			.selectFrom('notificationPreferences')
			.selectAll()
			.where(sql<boolean>`(workspace_id, user_id) in (values ${sql.join(drafts.map((draft) => sql`(${draft.workspaceId}::uuid, ${draft.userId}::uuid)`))})`)
			.execute(),
	])
	const conversationOf = new Map(conversations.map((conversation) => [conversation.id, conversation]))
	const wants = (draft: NotificationDraft, medium: NotificationMedium) =>
		chosenPreference(
			preferences.filter((row) => row.workspaceId === draft.workspaceId && row.userId === draft.userId),
			draft.kind,
			medium,
		)

	const kept = drafts.flatMap((draft) => {
		const conversation = draft.conversationId ? conversationOf.get(draft.conversationId) : undefined
		if (draft.conversationId && (!conversation || conversation.mutedAt)) return []
		const media = notificationMedia.filter((medium) => wants(draft, medium))
		if (media.length === 0) return []
		const values: NotificationValues = { ...draft.values }
		if (conversation) {
			values.number = conversation.number
			values.contact ??= conversation.name || conversation.phone || undefined
		}
		return [{ draft, values, media }]
	})
	if (kept.length === 0) return []

	// A conversation's new messages make one unread notification: the older one goes, its count carries on.
	const gathering = kept.filter(({ draft, media }) => draft.kind === 'message' && media.includes('app'))
	if (gathering.length > 0) {
		const gathered = await trx
			.deleteFrom('notifications')
			.where('kind', '=', 'message')
			.where('readAt', 'is', null)
			.where('inApp', '=', true)
			.where(
				sql<boolean>`(user_id, conversation_id) in (values ${sql.join(gathering.map(({ draft }) => sql`(${draft.userId}::uuid, ${draft.conversationId!}::uuid)`))})`,
			)
			.returning(['userId', 'conversationId', 'values'])
			.execute()
		for (const entry of gathering) {
			const earlier = gathered.filter((row) => row.userId === entry.draft.userId && row.conversationId === entry.draft.conversationId)
			entry.values.count = earlier.reduce((count, row) => count + (row.values.count ?? 1), 1)
		}
	}

	const written: Written[] = await trx
		.insertInto('notifications')
		.values(
			kept.map(({ draft, values, media }) => ({
				workspaceId: draft.workspaceId,
				userId: draft.userId,
				kind: draft.kind,
				conversationId: draft.conversationId ?? null,
				campaignId: draft.campaignId ?? null,
				channelId: draft.channelId ?? null,
				values,
				onceKey: draft.onceKey ?? null,
				inApp: media.includes('app'),
			})),
		)
		.onConflict((conflict) => conflict.columns(['userId', 'onceKey']).where('onceKey', 'is not', null).doNothing())
		.returning(['id', 'userId', 'workspaceId', 'kind'])
		.execute()
	// A kind's media are the member's choice for that kind in that workspace: the same for every draft of it.
	const mediaOf = (row: Written) =>
		kept.find(({ draft }) => draft.userId === row.userId && draft.workspaceId === row.workspaceId && draft.kind === row.kind)?.media ?? []
	await queueNotificationMail(
		trx,
		written.filter((row) => mediaOf(row).includes('email')),
	)
	await queuePush(
		trx,
		written.filter((row) => mediaOf(row).includes('push')),
	)
	return written
		.filter((row) => mediaOf(row).includes('app'))
		.map((row) => ({ event: 'notification', userId: row.userId, workspaceId: row.workspaceId, notificationId: String(row.id) }))
}
