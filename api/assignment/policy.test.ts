import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { drainQueue, pickAgent, type Candidate, type Queued } from './policy.ts'

const agent = (userId: string, open: number, capacity: number | null = null, lastAssignedAt: number | null = null, teamIds = ['t']): Candidate => ({
	userId,
	open,
	capacity,
	lastAssignedAt,
	teamIds,
})

describe('who a new conversation goes to', () => {
	test('the available member with the fewest open conversations', () => {
		expect(pickAgent([agent('layla', 3), agent('omar', 1), agent('sam', 2)])).toBe('omar')
	})

	test('a tie goes to who waited longest since their last assignment, one never assigned first', () => {
		expect(pickAgent([agent('layla', 1, null, 2_000), agent('omar', 1, null, 1_000)])).toBe('omar')
		expect(pickAgent([agent('layla', 1, null, 1_000), agent('omar', 1, null, null)])).toBe('omar')
	})

	test('a member at capacity is passed over; nobody with room: it waits', () => {
		expect(pickAgent([agent('layla', 2, 2), agent('omar', 5, 6)])).toBe('omar')
		expect(pickAgent([agent('layla', 2, 2), agent('omar', 6, 6)])).toBeNull()
		expect(pickAgent([])).toBeNull()
	})
})

describe('the queue', () => {
	test('is served oldest first while someone has room; the rest waits', () => {
		const queue: Queued[] = [
			{ conversationId: 'c3', teamId: 't', queuedAt: 30 },
			{ conversationId: 'c1', teamId: 't', queuedAt: 10 },
			{ conversationId: 'c2', teamId: 't', queuedAt: 20 },
		]
		expect(drainQueue(queue, [agent('layla', 0, 1), agent('omar', 1, 2)], 1_000)).toEqual([
			{ conversationId: 'c1', userId: 'layla' },
			{ conversationId: 'c2', userId: 'omar' },
		])
	})

	test("a team's conversation goes to a member of that team only, and waits while only others have room", () => {
		const queue: Queued[] = [
			{ conversationId: 'sales-1', teamId: 'sales', queuedAt: 10 },
			{ conversationId: 'support-1', teamId: 'support', queuedAt: 20 },
		]
		const members = [agent('layla', 0, 1, null, ['support']), agent('omar', 0, null, null, ['support', 'billing'])]
		expect(drainQueue(queue, members, 1_000)).toEqual([{ conversationId: 'support-1', userId: 'layla' }])
	})

	const teams = ['sales', 'support', 'billing']
	const candidates = fc.uniqueArray(
		fc.record({
			userId: fc.string({ minLength: 1, maxLength: 4 }),
			open: fc.nat(20),
			capacity: fc.option(fc.integer({ min: 0, max: 25 }), { nil: null }),
			lastAssignedAt: fc.option(fc.nat(1_000), { nil: null }),
			teamIds: fc.subarray(teams, { minLength: 1 }),
		}),
		{ selector: (candidate) => candidate.userId, maxLength: 12 },
	)
	const queue = fc.uniqueArray(fc.record({ conversationId: fc.uuid(), teamId: fc.constantFrom(...teams), queuedAt: fc.nat(10_000) }), {
		selector: (queued) => queued.conversationId,
		maxLength: 60,
	})

	test("no drain puts anyone over capacity or gives them another team's conversation, and none leaves a conversation waiting while someone of its team has room", () => {
		fc.assert(
			fc.property(candidates, queue, (members, waiting) => {
				const assignments = drainQueue(waiting, members, 5_000)
				const given = new Map<string, number>()
				for (const { userId } of assignments) given.set(userId, (given.get(userId) ?? 0) + 1)
				const after = members.map((member) => ({ ...member, open: member.open + (given.get(member.userId) ?? 0) }))
				for (const member of after)
					if (member.capacity !== null)
						expect(member.open).toBeLessThanOrEqual(Math.max(member.capacity, members.find((m) => m.userId === member.userId)!.open))
				const teamOf = new Map(waiting.map((queued) => [queued.conversationId, queued.teamId]))
				for (const { conversationId, userId } of assignments)
					expect(members.find((member) => member.userId === userId)!.teamIds).toContain(teamOf.get(conversationId))
				const assigned = new Set(assignments.map((assignment) => assignment.conversationId))
				expect(assigned.size).toBe(assignments.length)
				for (const left of waiting.filter((queued) => !assigned.has(queued.conversationId)))
					expect(pickAgent(after.filter((member) => member.teamIds.includes(left.teamId)))).toBeNull()
			}),
		)
	})

	test('with equal capacities and equal loads, the loads end at most one apart', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 1_000 }), fc.nat(5), (agents, conversations, start) => {
				const members = Array.from({ length: agents }, (_, index) => agent(`a${index}`, start, null))
				const waiting = Array.from({ length: conversations }, (_, index) => ({ conversationId: `c${index}`, teamId: 't', queuedAt: index }))
				const given = new Map<string, number>()
				for (const { userId } of drainQueue(waiting, members, 0)) given.set(userId, (given.get(userId) ?? 0) + 1)
				const loads = members.map((member) => start + (given.get(member.userId) ?? 0))
				expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1)
			}),
			{ numRuns: 50 },
		)
	})
})
