import { type DB } from '#api/db/database.ts'
import { type Channel } from '#api/db/schema.ts'

/** The channel's business hours (else the workspace's); until common/business-hours.ts arrives, always open. */
export async function businessHoursOf(_trx: DB, _channel: Channel): Promise<{ isOpenAt: (at: Date) => boolean }> {
	return { isOpenAt: () => true }
}

/** When the channel's business hours next open after `at`; null when they never close. */
export async function nextOpeningOf(_trx: DB, _channel: Channel, _at: Date): Promise<Date | null> {
	return null
}
