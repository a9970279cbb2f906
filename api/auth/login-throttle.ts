import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { tooManyRequests } from '#api/http/rate-limit.ts'
import { hashToken } from './tokens.ts'

const second = 1000
const minute = 60 * second
const hour = 60 * minute

/**
 * Failed sign-ins are slowed per (address, client IP), never locked per address alone, so a
 * stranger failing elsewhere cannot keep the owner out (ASVS 5.0 V6.3.1; decision 003).
 */
export const loginThrottleRules = {
	/** Failures of one address from one IP that cost nothing. */
	freeFailures: 5,
	/** After the free ones, the pair waits this long after a failure, doubling with each further one… */
	firstWaitMs: 30 * second,
	/** …up to this. */
	longestWaitMs: hour,
	/** A pair's failures are forgotten this long after its first one (and at once on success). */
	pairWindowMs: 24 * hour,
	/** Failures of one address from all IPs after which every further attempt is only delayed. */
	addressCeiling: 100,
	addressWindowMs: hour,
	/** The delay added to each attempt on an address over its ceiling: it slows, it never refuses. */
	addressDelayMs: 2 * second,
}

export type LoginThrottle = {
	/** Before checking the password: throws a 429 while the pair must wait, and delays an address over its ceiling. */
	attempt: (email: string, ip: string) => Promise<void>
	/** The password was wrong: counts it, and sets the pair's next wait. */
	failed: (email: string, ip: string) => Promise<void>
	/** The password was right: the pair starts afresh (the address's count stays, it only ever delays). */
	succeeded: (email: string, ip: string) => Promise<void>
}

// Keys are hashes: the table holds no address and no IP in clear.
const addressKey = (email: string) => `loginAddress:${hashToken(email.toLowerCase())}`
const pairKeys = (email: string, ip: string) => {
	const pair = hashToken(`${email.toLowerCase()}\n${ip}`)
	return { count: `loginPair:${pair}`, wait: `loginPairWait:${pair}` }
}

/** Adds one to a counter of the `rate_limits` table (migration 0003), restarting it once expired. */
async function increment(db: DB, key: string, windowMs: number, now: number): Promise<number> {
	const { rows } = await sql<{ points: number }>`
		insert into rate_limits (key, points, expire) values (${key}, 1, ${now + windowMs})
		on conflict (key) do update set
			points = case when rate_limits.expire <= ${now} then 1 else rate_limits.points + 1 end,
			expire = case when rate_limits.expire <= ${now} then ${now + windowMs} else rate_limits.expire end
		returning points`.execute(db)
	return Number(rows[0]?.points ?? 1)
}

async function decrement(db: DB, key: string) {
	await db
		.updateTable('rateLimits')
		.set({ points: sql`greatest(points - 1, 0)` })
		.where('key', '=', key)
		.execute()
}

/**
 * Takes the pair's turn when its wait is over: one row whose `expire` is the moment of the next
 * allowed attempt. Atomic, so parallel guesses cannot all slip through once the wait has begun.
 * Answers how long is left when the turn is not free.
 */
async function takeTurn(db: DB, key: string, holdMs: number, now: number): Promise<number> {
	const { rows } = await sql<{ expire: string }>`
		insert into rate_limits (key, points, expire) values (${key}, 1, ${now + holdMs})
		on conflict (key) do update set points = rate_limits.points + 1, expire = excluded.expire
			where rate_limits.expire <= ${now}
		returning expire`.execute(db)
	if (rows.length > 0) return 0
	const row = await db.selectFrom('rateLimits').select('expire').where('key', '=', key).executeTakeFirst()
	return Math.max(1, Number(row?.expire ?? now + 1) - now)
}

/** The wait after the `failures`-th consecutive failure of a pair. */
export function pairWaitMs(failures: number, rules = loginThrottleRules): number {
	if (failures < rules.freeFailures) return 0
	return Math.min(rules.longestWaitMs, rules.firstWaitMs * 2 ** (failures - rules.freeFailures))
}

export function createLoginThrottle(
	db: DB,
	rules = loginThrottleRules,
	sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): LoginThrottle {
	return {
		async attempt(email, ip) {
			const now = Date.now()
			const keys = pairKeys(email, ip)
			// Counted before checking the password, so that parallel guesses each get their own number.
			const attempts = await increment(db, keys.count, rules.pairWindowMs, now)
			if (attempts > rules.freeFailures) {
				// Held while this attempt runs; failed() sets the real wait, succeeded() clears it.
				const left = await takeTurn(db, keys.wait, rules.firstWaitMs, now)
				if (left > 0) {
					// A refused attempt is not a failure: the wait does not grow by hammering.
					await decrement(db, keys.count)
					throw tooManyRequests(left)
				}
			}
			const address = await db.selectFrom('rateLimits').select(['points', 'expire']).where('key', '=', addressKey(email)).executeTakeFirst()
			if (address && Number(address.expire) > now && address.points >= rules.addressCeiling) await sleep(rules.addressDelayMs)
		},
		async failed(email, ip) {
			const now = Date.now()
			const keys = pairKeys(email, ip)
			await increment(db, addressKey(email), rules.addressWindowMs, now)
			const row = await db.selectFrom('rateLimits').select('points').where('key', '=', keys.count).executeTakeFirst()
			const wait = pairWaitMs(row?.points ?? 0, rules)
			if (wait > 0) {
				await sql`
					insert into rate_limits (key, points, expire) values (${keys.wait}, 1, ${now + wait})
					on conflict (key) do update set expire = excluded.expire`.execute(db)
			}
		},
		async succeeded(email, ip) {
			const keys = pairKeys(email, ip)
			await db.deleteFrom('rateLimits').where('key', 'in', [keys.count, keys.wait]).execute()
		},
	}
}
