/**
 * Who a conversation goes to (issue 30): the pure rules, without the database, so that they are
 * tested on every sequence of events. The database's part (locking the team's members, counting
 * their open conversations) hands these functions a snapshot and applies what they answer.
 */

/** A member of an auto-assigning team who is available (online, with a connection open). */
export type Candidate = {
	userId: string
	/** Their open conversations now; pending and snoozed ones do not count. */
	open: number
	/** At most this many open conversations; null: no limit. */
	capacity: number | null
	/** When they were last given a conversation (ms since the epoch); null: never. */
	lastAssignedAt: number | null
	/** The auto-assigning teams they are in: they take those teams' conversations only. */
	teamIds: readonly string[]
}

/** A conversation waiting in its team's queue, since `queuedAt` (ms since the epoch). */
export type Queued = { conversationId: string; teamId: string; queuedAt: number }

export type Assignment = { conversationId: string; userId: string }

const hasRoom = (candidate: Candidate) => candidate.capacity === null || candidate.open < candidate.capacity

/** Fewest open first; then who waited longest since their last assignment (never assigned first); then by id, so that the answer is the same everywhere. */
function before(a: Candidate, b: Candidate): number {
	if (a.open !== b.open) return a.open - b.open
	const waitedA = a.lastAssignedAt ?? Number.NEGATIVE_INFINITY
	const waitedB = b.lastAssignedAt ?? Number.NEGATIVE_INFINITY
	if (waitedA !== waitedB) return waitedA < waitedB ? -1 : 1
	return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0
}

/** The member a new conversation goes to, or null when nobody has room (it then waits in the queue). */
export function pickAgent(candidates: readonly Candidate[]): string | null {
	let best: Candidate | null = null
	for (const candidate of candidates) if (hasRoom(candidate) && (best === null || before(candidate, best) < 0)) best = candidate
	return best?.userId ?? null
}

/**
 * Serves a workspace's queues oldest first: each conversation goes where `pickAgent` says among
 * its team's members, with the loads as the earlier ones of this drain left them (capacity is an
 * agent's across all their teams). `now` stamps the assignments. Returns them in order; what is
 * left waits: nobody of its team has room.
 */
export function drainQueue(queue: readonly Queued[], candidates: readonly Candidate[], now: number): Assignment[] {
	const loads = candidates.map((candidate) => ({ ...candidate }))
	const waiting = [...queue].sort((a, b) => a.queuedAt - b.queuedAt || (a.conversationId < b.conversationId ? -1 : 1))
	const assignments: Assignment[] = []
	for (const conversation of waiting) {
		const userId = pickAgent(loads.filter((candidate) => candidate.teamIds.includes(conversation.teamId)))
		if (userId === null) continue
		const chosen = loads.find((candidate) => candidate.userId === userId)!
		chosen.open += 1
		// Later in the same drain than any earlier pick, so ties rotate.
		chosen.lastAssignedAt = now + assignments.length
		assignments.push({ conversationId: conversation.conversationId, userId })
	}
	return assignments
}
