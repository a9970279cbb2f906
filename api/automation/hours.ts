import { hoursOf, isOpen, nextOpening, type BusinessHours } from '#common/business-hours.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel } from '#api/db/schema.ts'

type Schedule = { hours: BusinessHours | null; timeZone: string }

/** The hours a channel keeps (its own, else its workspace's) and the workspace's time zone. */
async function scheduleOf(trx: DB, channel: Channel): Promise<Schedule> {
	const workspace = await trx.selectFrom('workspaces').select(['timezone', 'businessHours']).where('id', '=', channel.workspaceId).executeTakeFirstOrThrow()
	return { hours: hoursOf(channel.businessHours, workspace.businessHours), timeZone: workspace.timezone }
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
