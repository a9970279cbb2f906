import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { notify, type NotificationDraft, type NotificationEvent } from './notify.ts'

/**
 * How long after its threshold a wait is still news: a process down for less than this misses
 * none, and a conversation left waiting for days is not announced every minute.
 */
const windowMinutes = 60
const batch = 500

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
				sql<string>`'queue:' || conversations.id || ':' || extract(epoch from conversations.queued_at)`.as('onceKey'),
				'teams.name as team',
				'teamMembers.userId',
				sql<number>`floor(extract(epoch from now() - conversations.queued_at) / 60)::int`.as('minutes'),
			])
			.where('conversations.status', '=', 'open')
			.where('conversations.assigneeId', 'is', null)
			.where('conversations.queuedAt', 'is not', null)
			.where(sql<boolean>`conversations.queued_at <= now() - make_interval(mins => teams.notify_after)`)
			.where(sql<boolean>`conversations.queued_at > now() - make_interval(mins => teams.notify_after + ${windowMinutes})`)
			.where((eb) =>
				eb.not(
					eb.exists(
						eb
							.selectFrom('notifications')
							.select(sql`1`.as('one'))
							.whereRef('notifications.conversationId', '=', 'conversations.id')
							.where('notifications.kind', '=', 'queueWaiting')
							.where(sql<boolean>`notifications.once_key = 'queue:' || conversations.id || ':' || extract(epoch from conversations.queued_at)`),
					),
				),
			)
			.limit(batch)
			.execute()
		const replies = await trx
			.selectFrom('conversations')
			.innerJoin('workspaces', 'workspaces.id', 'conversations.workspaceId')
			.select([
				'conversations.id',
				'conversations.workspaceId',
				'conversations.assigneeId',
				'conversations.lastMessageId',
				sql<number>`floor(extract(epoch from now() - conversations.last_activity_at) / 60)::int`.as('minutes'),
			])
			.where('conversations.status', '=', 'open')
			.where('conversations.assigneeId', 'is not', null)
			.where('conversations.lastMessageDirection', '=', 'incoming')
			.where(sql<boolean>`conversations.last_activity_at <= now() - make_interval(mins => workspaces.reply_waiting_after)`)
			.where(sql<boolean>`conversations.last_activity_at > now() - make_interval(mins => workspaces.reply_waiting_after + ${windowMinutes})`)
			.where((eb) =>
				eb.not(
					eb.exists(
						eb
							.selectFrom('notifications')
							.select(sql`1`.as('one'))
							.whereRef('notifications.conversationId', '=', 'conversations.id')
							.where('notifications.kind', '=', 'replyWaiting')
							.where(sql<boolean>`notifications.once_key = 'reply:' || conversations.last_message_id`),
					),
				),
			)
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
				onceKey: `reply:${row.lastMessageId}`,
			})),
		]
		return notify(trx, drafts)
	})
}
