import { sql } from 'kysely'
import { hoursOf, isOpen, nextOpening, type BusinessHours } from '#common/business-hours.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel } from '#api/db/schema.ts'

type Schedule = { hours: BusinessHours | null; timeZone: string }

/**
 * The hours a channel keeps (its own, else its workspace's) and the workspace's time zone. Read
 * through `to_jsonb` because the hours' columns come with migration 0034 (business hours): without
 * them, always open.
 */
async function scheduleOf(trx: DB, channel: Channel): Promise<Schedule> {
	const { rows } = await sql<{ timeZone: string; workspaceHours: BusinessHours | null; channelHours: BusinessHours | null }>`
		select workspaces.timezone as time_zone, to_jsonb(workspaces) -> 'business_hours' as workspace_hours, to_jsonb(channels) -> 'business_hours' as channel_hours
		from channels join workspaces on workspaces.id = channels.workspace_id
		where channels.id = ${channel.id}`.execute(trx)
	const row = rows[0]
	return { hours: hoursOf(row?.channelHours, row?.workspaceHours), timeZone: row?.timeZone ?? 'UTC' }
}

/** Whether the channel's business hours are open at a moment. */
export async function businessHoursOf(trx: DB, channel: Channel): Promise<{ isOpenAt: (at: Date) => boolean }> {
	const { hours, timeZone } = await scheduleOf(trx, channel)
	return { isOpenAt: (at) => isOpen(hours, timeZone, at) }
}

/** When the channel's business hours next open after `at`; null when they never close (or never open). */
export async function nextOpeningOf(trx: DB, channel: Channel, at: Date): Promise<Date | null> {
	const { hours, timeZone } = await scheduleOf(trx, channel)
	return nextOpening(hours, timeZone, at)
}
