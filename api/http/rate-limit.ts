import { CompiledQuery } from 'kysely'
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import { type DB } from '#api/db/database.ts'
import { HttpError } from './errors.ts'

/** At most `points` attempts per key in a fixed window of `seconds`, counted from the first one. */
export type RateLimitRule = { points: number; seconds: number }

export type RateLimit = {
	readonly name: string
	readonly rule: RateLimitRule
	/** Counts one attempt; throws 429 (with Retry-After) when the key is over its limit. */
	consume: (key: string) => Promise<void>
	/** Gives one attempt back, e.g. when it turned out to be a success. */
	reward: (key: string) => Promise<void>
	/** Forgets the key's attempts. */
	reset: (key: string) => Promise<void>
}

// RateLimiterPostgres only needs pg's `query()`; this runs its SQL on Kysely's pool, which hides its pg.Pool.
function storeClientOf(db: DB) {
	return {
		async query(query: { text: string; values?: unknown[] }) {
			const result = await db.executeQuery(CompiledQuery.raw(query.text, query.values ?? []))
			return { rows: result.rows, rowCount: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows) }
		},
	}
}

/** The 429 answered for a refusal: the wait in seconds, in the message and in Retry-After. */
export function tooManyRequests(msBeforeNext: number): HttpError {
	const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000))
	return new HttpError(429, 'errors.tooManyRequests', {
		values: { seconds, count: seconds },
		details: { retryAfter: seconds },
		headers: { 'Retry-After': String(seconds) },
	})
}

/**
 * Named limits backed by the `rate_limits` table (migration 0003), so several app processes
 * share their counts. Keys are prefixed with the limit's name.
 */
export function createRateLimits<Name extends string>(db: DB, rules: Record<Name, RateLimitRule>): Record<Name, RateLimit> {
	const storeClient = storeClientOf(db)
	const entries = Object.entries<RateLimitRule>(rules).map(([name, rule], index) => {
		const limiter = new RateLimiterPostgres({
			storeClient,
			storeType: 'client',
			tableName: 'rate_limits',
			tableCreated: true,
			keyPrefix: name,
			points: rule.points,
			duration: rule.seconds,
			// One sweeper per table is enough: it deletes every expired counter, whatever its limit.
			clearExpiredByTimeout: index === 0,
		})
		const limit: RateLimit = {
			name,
			rule,
			async consume(key) {
				try {
					await limiter.consume(key)
				} catch (error) {
					if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext)
					throw error
				}
			},
			async reward(key) {
				await limiter.reward(key)
			},
			async reset(key) {
				await limiter.delete(key)
			},
		}
		return [name, limit] as const
	})
	return Object.fromEntries(entries) as Record<Name, RateLimit>
}

/**
 * Counts one attempt against each limit, all of them even when one refuses (so a blocked
 * address keeps its IP counting too), then throws the 429 with the longest wait.
 */
export async function consumeAll(attempts: Array<[RateLimit, string]>): Promise<void> {
	const results = await Promise.allSettled(attempts.map(([limit, key]) => limit.consume(key)))
	let refusal: HttpError | undefined
	for (const result of results) {
		if (result.status === 'fulfilled') continue
		if (!(result.reason instanceof HttpError) || result.reason.statusCode !== 429) throw result.reason
		const seconds = Number(result.reason.options.values?.seconds ?? 0)
		if (!refusal || seconds > Number(refusal.options.values?.seconds ?? 0)) refusal = result.reason
	}
	if (refusal) throw refusal
}
