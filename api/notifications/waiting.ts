import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Database } from '#api/db/schema.ts'
import { notify, type NotificationDraft, type NotificationEvent } from './notify.ts'

/**
 * How long after its threshold a wait is still news: a process down for less than this misses
 * none, and a conversation left waiting for days is not announced every minute.
 */
const windowMinutes = 60
const batch = 500

// Once per stay in a queue, once per customer message: the notification's once_key.
const queueKey = sql<string>`'queue:' || conversations.id || ':' || extract(epoch from conversations.queued_at)`
const replyKey = sql<string>`'reply:' || conversations.last_message_id`

/** No notification of `kind` with this once-key was written for the conversation yet (by anyone). */
const notYetNotified = (kind: 'queueWaiting' | 'replyWaiting', onceKey: RawBuilder<string>) => (eb: ExpressionBuilder<Database, 'conversations'>) =>
	eb.not(
		eb.exists(
			eb
				.selectFrom('notifications')
				.select(sql`1`.as('one'))
				.whereRef('notifications.conversationId', '=', 'conversations.id')
				.where('notifications.kind', '=', kind)
				.where(sql<boolean>`notifications.once_key = ${onceKey}`),
		),
	)

/**
 * The `notify-waiting` job, every minute: a conversation waiting unassigned in its team's queue
 * longer than the team's threshold (its members hear of it, once per stay in the queue), and a
 * customer's message unanswered longer than the workspace's threshold (the assignee hears of it,
 * once per message).
 */
export async function notifyWaiting(db: DB): Promise<NotificationEvent[]> {
	return db.transaction().execute(async (trx) => {
		const queued = await trx
			.selectFrom('conversations')
			.innerJoin('teams', 'teams.id', 'conversations.teamId')
			.innerJoin('teamMembers', 'teamMembers.teamId', 'teams.id')
			.select([
				'conversations.id',
				'conversations.workspaceId',
				queueKey.as('onceKey'),
				'teams.name as team',
				'teamMembers.userId',
				sql<number>`floor(extract(epoch from now() - conversations.queued_at) / 60)::int`.as('minutes'),
			])
			.where('conversations.status', '=', 'open')
			.where('conversations.assigneeId', 'is', null)
			.where('conversations.queuedAt', 'is not', null)
			.where(sql<boolean>`conversations.queued_at <= now() - make_interval(mins => teams.notify_after)`)
			.where(sql<boolean>`conversations.queued_at > now() - make_interval(mins => teams.notify_after + ${windowMinutes})`)
			.where(notYetNotified('queueWaiting', queueKey))
			.limit(batch)
			.execute()
		const replies = await trx
			.selectFrom('conversations')
			.innerJoin('workspaces', 'workspaces.id', 'conversations.workspaceId')
			.select([
				'conversations.id',
				'conversations.workspaceId',
				'conversations.assigneeId',
				replyKey.as('onceKey'),
				sql<number>`floor(extract(epoch from now() - conversations.last_activity_at) / 60)::int`.as('minutes'),
			])
			.where('conversations.status', '=', 'open')
			.where('conversations.assigneeId', 'is not', null)
			.where('conversations.lastMessageDirection', '=', 'incoming')
			.where(sql<boolean>`conversations.last_activity_at <= now() - make_interval(mins => workspaces.reply_waiting_after)`)
			.where(sql<boolean>`conversations.last_activity_at > now() - make_interval(mins => workspaces.reply_waiting_after + ${windowMinutes})`)
			.where(notYetNotified('replyWaiting', replyKey))
			.limit(batch)
			.execute()
		const drafts: NotificationDraft[] = [
			...queued.map((row) => ({
				workspaceId: row.workspaceId,
				userId: row.userId,
				kind: 'queueWaiting' as const,
				conversationId: row.id,
				values: { team: row.team, minutes: row.minutes },
				onceKey: row.onceKey,
			})),
			...replies.map((row) => ({
				workspaceId: row.workspaceId,
				userId: row.assigneeId!,
				kind: 'replyWaiting' as const,
				conversationId: row.id,
				values: { minutes: row.minutes },
				onceKey: row.onceKey,
			})),
		]
		return notify(trx, drafts)
	})
}
