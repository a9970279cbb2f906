import { sql } from 'kysely'
import {
	chosenPreference,
	kindsForRole,
	notificationDefault,
	notificationMedia,
	type NotificationJson,
	type NotificationKind,
	type NotificationPage,
	type NotificationPreferences,
} from '#common/notifications.ts'
import { type Role } from '#common/roles.ts'
import { type DB } from '#api/db/database.ts'

/** How long notifications are kept (the nightly `prune` job). */
export const keptDays = 90
const pruneBatch = 10_000

/** Deletes notifications older than `keptDays`, a batch at a time (short locks, however many there are); returns how many. */
export async function pruneNotifications(db: DB): Promise<number> {
	let total = 0
	for (;;) {
		const result = await sql`
			delete from notifications where id in (
				select id from notifications where created_at < now() - make_interval(days => ${keptDays}) limit ${pruneBatch}
			)
		`.execute(db)
		const deleted = Number(result.numAffectedRows ?? 0)
		total += deleted
		if (deleted < pruneBatch) return total
	}
}

const columns = [
	'notifications.id',
	'notifications.workspaceId',
	'notifications.userId',
	'notifications.kind',
	'notifications.values',
	'notifications.campaignId',
	'notifications.channelId',
	'notifications.createdAt',
	'notifications.readAt',
	'conversations.number',
] as const

function rows(db: DB) {
	return db.selectFrom('notifications').leftJoin('conversations', 'conversations.id', 'notifications.conversationId').select(columns)
}

type Row = Awaited<ReturnType<ReturnType<typeof rows>['execute']>>[number]

export function notificationJson(row: Row): NotificationJson {
	return {
		id: String(row.id),
		kind: row.kind,
		values: row.values,
		conversationNumber: row.number,
		campaignId: row.campaignId,
		channelId: row.channelId,
		createdAt: row.createdAt.toISOString(),
		readAt: row.readAt?.toISOString() ?? null,
	}
}

/**
 * The bell counts up to this many unread ("99+"): counting stops there, so that a member who never
 * reads costs the same as one who does (decision 025 has the figures).
 */
export const unreadCountLimit = 100

const unreadOf = (db: DB, userId: string, workspaceId: string) =>
	db
		.selectFrom('notifications')
		.select(sql`1`.as('one'))
		.where('userId', '=', userId)
		.where('workspaceId', '=', workspaceId)
		.where('readAt', 'is', null)
		.where('inApp', '=', true)
		.limit(unreadCountLimit)

/** A member's unread notifications in a workspace (the bell's count), at most `unreadCountLimit`. */
export async function unreadCount(db: DB, userId: string, workspaceId: string): Promise<number> {
	const { count } = await db
		.selectFrom(unreadOf(db, userId, workspaceId).as('unread'))
		.select((eb) => eb.fn.countAll<string>().as('count'))
		.executeTakeFirstOrThrow()
	return Number(count)
}

/** A page of a member's notifications in a workspace, newest first, after `cursor` (an id of the last page). */
export async function listNotifications(db: DB, userId: string, workspaceId: string, options: { cursor?: string; limit: number }): Promise<NotificationPage> {
	let query = rows(db)
		.where('notifications.userId', '=', userId)
		.where('notifications.workspaceId', '=', workspaceId)
		.where('notifications.inApp', '=', true)
		.orderBy('notifications.id', 'desc')
		.limit(options.limit + 1)
	if (options.cursor) query = query.where('notifications.id', '<', options.cursor)
	const [found, unread] = await Promise.all([query.execute(), unreadCount(db, userId, workspaceId)])
	const page = found.slice(0, options.limit)
	return { notifications: page.map(notificationJson), unread, nextCursor: found.length > options.limit ? String(page.at(-1)!.id) : null }
}

/** One of the user's own notifications, in whichever of their workspaces. */
export async function findNotification(db: DB, userId: string, id: string): Promise<{ workspaceId: string; notification: NotificationJson } | undefined> {
	const row = await rows(db).where('notifications.userId', '=', userId).where('notifications.id', '=', id).executeTakeFirst()
	return row && { workspaceId: row.workspaceId, notification: notificationJson(row) }
}

/** The rows behind published events, with each member's unread count in that workspace. */
export async function notificationsForEvents(db: DB, ids: string[]): Promise<Map<string, { row: Row; unread: number }>> {
	if (ids.length === 0) return new Map()
	const found = await rows(db).where('notifications.id', 'in', ids).execute()
	const counts = new Map<string, number>()
	for (const row of found) {
		const key = `${row.userId} ${row.workspaceId}`
		if (!counts.has(key)) counts.set(key, await unreadCount(db, row.userId, row.workspaceId))
	}
	return new Map(found.map((row) => [String(row.id), { row, unread: counts.get(`${row.userId} ${row.workspaceId}`)! }]))
}

/** Marks some of a member's notifications read: by id, or all of a conversation's. Returns whether any changed. */
export async function markRead(db: DB, userId: string, workspaceId: string, which: { ids: string[] } | { conversationId: string } | 'all'): Promise<boolean> {
	let query = db
		.updateTable('notifications')
		.set({ readAt: sql<Date>`now()` })
		.where('userId', '=', userId)
		.where('workspaceId', '=', workspaceId)
		.where('readAt', 'is', null)
	if (which !== 'all') query = 'ids' in which ? query.where('id', 'in', which.ids) : query.where('conversationId', '=', which.conversationId)
	const result = await query.executeTakeFirst()
	return Number(result.numUpdatedRows) > 0
}

/** A member's preferences: the defaults with their choices over them, for the kinds of their role. */
export async function preferencesOf(
	db: DB,
	userId: string,
	workspaceId: string,
	role: Role,
): Promise<{ preferences: NotificationPreferences; sound: boolean; kinds: NotificationKind[] }> {
	const [chosen, user] = await Promise.all([
		db.selectFrom('notificationPreferences').selectAll().where('userId', '=', userId).where('workspaceId', '=', workspaceId).execute(),
		db.selectFrom('users').select('notificationSound').where('id', '=', userId).executeTakeFirstOrThrow(),
	])
	const kinds = [...kindsForRole(role)]
	const preferences = Object.fromEntries(
		kinds.map((kind) => [kind, Object.fromEntries(notificationMedia.map((medium) => [medium, chosenPreference(chosen, kind, medium)]))]),
	) as NotificationPreferences
	return { preferences, sound: user.notificationSound, kinds }
}

/** Writes a member's choices; only those unlike the default are kept. */
export async function setPreferences(
	db: DB,
	userId: string,
	workspaceId: string,
	preferences: Partial<Record<NotificationKind, Partial<Record<string, boolean>>>>,
) {
	const cells = Object.entries(preferences).flatMap(([kind, media]) =>
		notificationMedia.flatMap((medium) => (media?.[medium] === undefined ? [] : [{ kind: kind as NotificationKind, medium, enabled: media[medium] }])),
	)
	if (cells.length === 0) return
	await db
		.deleteFrom('notificationPreferences')
		.where('userId', '=', userId)
		.where('workspaceId', '=', workspaceId)
		.where(sql<boolean>`(kind, medium) in (values ${sql.join(cells.map((cell) => sql`(${cell.kind}, ${cell.medium})`))})`)
		.execute()
	const differing = cells.filter((cell) => cell.enabled !== notificationDefault(cell.kind, cell.medium))
	if (differing.length > 0)
		await db
			.insertInto('notificationPreferences')
			.values(differing.map((cell) => ({ ...cell, userId, workspaceId })))
			.execute()
}
