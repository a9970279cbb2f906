import { hoursOf, type BusinessHours } from '#common/business-hours.ts'
import { type DB } from '#api/db/database.ts'
import { type Channel } from '#api/db/schema.ts'

/** What a channel's hours are read with: its own hours, else its workspace's, in the workspace's time zone; and the workspace's default language. */
export type Schedule = { hours: BusinessHours | null; timeZone: string; defaultLocale: string }

/** A channel's schedule (the one reader of it: the rules' conditions and snoozes, the auto-replies). */
export async function scheduleOf(trx: DB, channel: Pick<Channel, 'workspaceId' | 'businessHours'>): Promise<Schedule> {
	const workspace = await trx
		.selectFrom('workspaces')
		.select(['timezone', 'businessHours', 'defaultLocale'])
		.where('id', '=', channel.workspaceId)
		.executeTakeFirstOrThrow()
	return { hours: hoursOf(channel.businessHours, workspace.businessHours), timeZone: workspace.timezone, defaultLocale: workspace.defaultLocale }
}
