import { sql } from 'kysely'
import { workspaceChannel } from '#common/realtime.ts'
import { type DB } from '#api/db/database.ts'
import { type Realtime } from './publisher.ts'

export type WorkspaceEvent = { event: string; data: Record<string, unknown> }

// Pusher's limits: 10 events a request, 10 kB an event. A bigger event goes without what changed,
// and the page reloads for it (app/realtime/event-sequence.ts).
const batchSize = 10
const maxEventBytes = 9_000

/**
 * Reserves `count` numbers of the workspace's channel, in PostgreSQL so that every app process
 * numbers one sequence: the first of them, or undefined when the database cannot give them (the
 * workspace was just deleted, the database is away). The events then go unnumbered, which a page
 * takes as a gap.
 */
async function reserveNumbers(db: DB, workspaceId: string, count: number): Promise<number | undefined> {
	try {
		const { lastNumber } = await db
			.insertInto('workspaceEventNumbers')
			.values({ workspaceId, lastNumber: count })
			.onConflict((oc) => oc.column('workspaceId').doUpdateSet({ lastNumber: sql<number>`workspace_event_numbers.last_number + ${count}` }))
			.returning('lastNumber')
			.executeTakeFirstOrThrow()
		return lastNumber - count + 1
	} catch {
		return undefined
	}
}

/** The number of the workspace channel's last event, 0 before its first. */
export async function lastEventNumber(db: DB, workspaceId: string): Promise<number> {
	const row = await db.selectFrom('workspaceEventNumbers').select('lastNumber').where('workspaceId', '=', workspaceId).executeTakeFirst()
	return row?.lastNumber ?? 0
}

/** An event too big for the channel keeps its ids and says it was cut (`cut: true`): the page reloads for it. */
function withinLimit(data: Record<string, unknown>): Record<string, unknown> {
	if (Buffer.byteLength(JSON.stringify(data)) <= maxEventBytes) return data
	const ids = Object.fromEntries(Object.entries(data).filter(([, value]) => value === null || typeof value !== 'object'))
	return { ...ids, cut: true }
}

/**
 * Publishes events on the workspace's channel, each with its number (`seq`, one more than the
 * last event of that workspace): a page that sees a number missing reloads once. The events of a
 * call go in as few requests as Pusher allows, one after another, in their order. Never rejects;
 * routes do not await it.
 */
export async function publishToWorkspace(db: DB, realtime: Realtime, workspaceId: string, events: WorkspaceEvent[]): Promise<void> {
	if (events.length === 0) return
	const first = await reserveNumbers(db, workspaceId, events.length)
	const channel = workspaceChannel(workspaceId)
	const numbered = events.map(({ event, data }, index) => ({
		channel,
		event,
		data: { ...withinLimit(data), workspaceId, ...(first === undefined ? {} : { seq: first + index }) },
	}))
	for (let start = 0; start < numbered.length; start += batchSize) await realtime.publishBatch(numbered.slice(start, start + batchSize))
}

/** One event of the workspace's channel, numbered like every other. */
export function publishWorkspaceEvent(db: DB, realtime: Realtime, workspaceId: string, event: string, data: Record<string, unknown> = {}): Promise<void> {
	return publishToWorkspace(db, realtime, workspaceId, [{ event, data }])
}
