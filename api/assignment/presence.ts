import { type DB } from '#api/db/database.ts'
import { addJob, removeJob } from '#api/jobs/queue.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { channelSubject, workspacePresenceChannel } from '#common/realtime.ts'
import { requestDrainIfWaiting } from './queue.ts'

/**
 * Who has a connection open (issue 30), from the realtime server's presence webhooks on each
 * workspace's presence channel (every dashboard page joins it): a member's first connection
 * (`member_added`) and their last one closing (`member_removed`). A member is available to
 * auto-assignment while online by choice and connected; a while after their last connection closed
 * (PRESENCE_OFFLINE_AFTER) they turn offline by themselves, and online again when they come back,
 * unless they chose offline.
 */
export type PresenceEvent = { name: 'member_added' | 'member_removed'; channel: string; userId: string; at: Date }

const offlineJobKey = (workspaceId: string, userId: string) => `presence-offline:${workspaceId}:${userId}`

/** Applies presence events in order; one older than what a member's row already took changes nothing. */
export async function applyPresence(db: DB, realtime: Realtime, events: readonly PresenceEvent[], offlineAfterSeconds: number) {
	for (const event of events) {
		const subject = channelSubject(event.channel)
		if (subject?.kind !== 'workspace-presence') continue
		const workspaceId = subject.id
		const changed = await db.transaction().execute(async (trx) => {
			const member = await trx
				.selectFrom('members')
				.select(['availability', 'offlineByPresence', 'presenceAt'])
				.where('workspaceId', '=', workspaceId)
				.where('userId', '=', event.userId)
				.forUpdate()
				.executeTakeFirst()
			if (!member || (member.presenceAt && member.presenceAt > event.at)) return false
			if (event.name === 'member_added') {
				const comesBack = member.offlineByPresence
				await trx
					.updateTable('members')
					.set({ connectedAt: event.at, presenceAt: event.at, offlineByPresence: false, ...(comesBack ? { availability: 'online' as const } : {}) })
					.where('workspaceId', '=', workspaceId)
					.where('userId', '=', event.userId)
					.execute()
				await removeJob(trx, offlineJobKey(workspaceId, event.userId))
				if (comesBack || member.availability === 'online') await requestDrainIfWaiting(trx, workspaceId)
				return comesBack
			}
			await trx
				.updateTable('members')
				.set({ connectedAt: null, presenceAt: event.at })
				.where('workspaceId', '=', workspaceId)
				.where('userId', '=', event.userId)
				.execute()
			if (member.availability === 'online')
				await addJob(
					trx,
					'presence-offline',
					{ workspaceId, userId: event.userId, leftAt: event.at.toISOString() },
					{ runAt: new Date(event.at.getTime() + offlineAfterSeconds * 1000), key: offlineJobKey(workspaceId, event.userId) },
				)
			return false
		})
		if (changed) void publishWorkspaceEvent(db, realtime, workspaceId, 'member.updated', { userId: event.userId })
	}
}

/** The `presence-offline` job: the member left at `leftAt` and has not come back since, so an online member turns offline by themselves. */
export async function turnOfflineAfterLeaving(db: DB, realtime: Realtime, job: { workspaceId: string; userId: string; leftAt: string }) {
	const turned = await db
		.updateTable('members')
		.set({ availability: 'offline', offlineByPresence: true })
		.where('workspaceId', '=', job.workspaceId)
		.where('userId', '=', job.userId)
		.where('availability', '=', 'online')
		.where('connectedAt', 'is', null)
		.where('presenceAt', '=', new Date(job.leftAt))
		.returning('userId')
		.executeTakeFirst()
	if (turned) void publishWorkspaceEvent(db, realtime, job.workspaceId, 'member.updated', { userId: job.userId })
}

/**
 * At the start of the process that serves realtime itself (the embedded server): nobody is
 * connected to it yet, whatever the rows say (the last process stopped, or died), so every member
 * marked connected leaves now; whoever reconnects comes back by their `member_added`.
 */
export async function forgetConnections(db: DB, realtime: Realtime, offlineAfterSeconds: number) {
	const connected = await db.selectFrom('members').select(['workspaceId', 'userId']).where('connectedAt', 'is not', null).execute()
	const at = new Date()
	await applyPresence(
		db,
		realtime,
		connected.map(({ workspaceId, userId }) => ({ name: 'member_removed' as const, channel: workspacePresenceChannel(workspaceId), userId, at })),
		offlineAfterSeconds,
	)
}

/** PRESENCE_OFFLINE_AFTER's default, for a job runner given no configuration of it (config/config.ts). */
export const defaultPresenceOfflineAfter = 600

/** Longer than the realtime server waits before it tells a leave (3 s, realtime/webhooks.ts): a page reload is no leave. */
const leaveGraceMs = 5000

/**
 * The `reconcile-presence` job, every minute: a lost webhook (the app down, the realtime server's
 * outage) would leave a member marked connected for ever, or never. For each workspace where
 * someone is marked connected, online, or offline by presence (whom a return would bring back), the
 * realtime server is asked who is on its presence channel, and the differences are applied as its
 * webhooks would have been, stamped when it was asked: a late webhook older than that changes
 * nothing, a newer one wins. Someone marked connected but not listed is asked about again after
 * `leaveGraceMs` (a page being reloaded is off the list for a moment). When the server cannot be
 * asked, nothing changes (the realtime publisher warns) and the round stops until the next minute.
 */
export async function reconcilePresence(db: DB, realtime: Realtime, offlineAfterSeconds: number, options: { leaveGraceMs?: number } = {}) {
	const marked = await db
		.selectFrom('members')
		.select(['workspaceId', 'userId', 'connectedAt'])
		.where((eb) => eb.or([eb('connectedAt', 'is not', null), eb('availability', '=', 'online'), eb('offlineByPresence', '=', true)]))
		.execute()
	const connectedOf = new Map<string, Set<string>>()
	for (const member of marked) {
		const connected = connectedOf.get(member.workspaceId) ?? new Set<string>()
		if (member.connectedAt) connected.add(member.userId)
		connectedOf.set(member.workspaceId, connected)
	}
	const leaving: Array<{ workspaceId: string; userIds: string[] }> = []
	for (const [workspaceId, connected] of connectedOf) {
		const channel = workspacePresenceChannel(workspaceId)
		const at = new Date()
		const listed = await realtime.channelUsers(channel)
		if (!listed) return
		const added = listed.filter((userId) => !connected.has(userId))
		await applyPresence(
			db,
			realtime,
			added.map((userId) => ({ name: 'member_added' as const, channel, userId, at })),
			offlineAfterSeconds,
		)
		const absent = [...connected].filter((userId) => !listed.includes(userId))
		if (absent.length > 0) leaving.push({ workspaceId, userIds: absent })
	}
	if (leaving.length === 0) return
	await new Promise((resolve) => setTimeout(resolve, options.leaveGraceMs ?? leaveGraceMs))
	for (const { workspaceId, userIds } of leaving) {
		const channel = workspacePresenceChannel(workspaceId)
		const at = new Date()
		const listed = await realtime.channelUsers(channel)
		if (!listed) return
		// Who a webhook said left meanwhile keeps the time of their leave (their offline timer runs from it).
		const stillMarked = await db
			.selectFrom('members')
			.select('userId')
			.where('workspaceId', '=', workspaceId)
			.where('userId', 'in', userIds)
			.where('connectedAt', 'is not', null)
			.execute()
		const removed = stillMarked.map((member) => member.userId).filter((userId) => !listed.includes(userId))
		await applyPresence(
			db,
			realtime,
			removed.map((userId) => ({ name: 'member_removed' as const, channel, userId, at })),
			offlineAfterSeconds,
		)
	}
}
