/**
 * Durations (first response, resolution) are kept as counts per bucket, so that any range, channel,
 * agent and label sums them and reads a median or a 90th percentile without the raw values.
 * Bucket `i` holds durations from `bounds[i - 1]` (included) to `bounds[i]` (excluded), as
 * PostgreSQL's `width_bucket(seconds, bounds)` numbers them: bucket 0 is under 30 s, the last one
 * is 30 days or more. The bounds are the targets a team would set, so a share "within the target"
 * is exact when the target is one of them.
 */
export const durationBounds = [
	30, 60, 120, 180, 300, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800, 14400, 21600, 28800, 43200, 86400, 129600, 172800, 259200, 432000, 604800,
	1209600, 2592000,
] as const

export const bucketCount = durationBounds.length + 1

/** The first-response targets offered (seconds): every one a bound. */
export const targets = [300, 900, 1800, 3600, 7200, 14400, 28800, 86400] as const
export const defaultTarget = 3600

export function emptyBuckets(size = bucketCount): number[] {
	return new Array<number>(size).fill(0)
}

/** Adds `from` into `into`, element by element. */
export function addInto(into: number[], from: readonly number[]) {
	for (let index = 0; index < from.length; index++) into[index] = (into[index] ?? 0) + (from[index] ?? 0)
	return into
}

/**
 * The `q` quantile (0 to 1) of the durations counted in `buckets`, in seconds: found in its
 * bucket and placed inside it in proportion (geometrically, as the bounds grow), or null when
 * nothing was counted. Within a bucket, a value's place is an estimate; the bucket is exact.
 */
export function quantile(buckets: readonly number[], q: number): number | null {
	const total = buckets.reduce((sum, count) => sum + count, 0)
	if (total === 0) return null
	const rank = q * total
	let before = 0
	for (let index = 0; index < buckets.length; index++) {
		const count = buckets[index] ?? 0
		if (count > 0 && before + count >= rank) {
			const low = index === 0 ? 1 : durationBounds[index - 1]!
			const high = durationBounds[index] ?? low * 2
			const within = Math.min(1, Math.max(0, (rank - before) / count))
			return Math.round(low * (high / low) ** within)
		}
		before += count
	}
	return durationBounds[durationBounds.length - 1]!
}

/** The share (0 to 1) of durations under `target` seconds (a bound), or null when nothing was counted. */
export function shareUnder(buckets: readonly number[], target: number): number | null {
	const total = buckets.reduce((sum, count) => sum + count, 0)
	if (total === 0) return null
	// Bucket k holds durations under bounds[k]: the target's bucket and those before it.
	const last = durationBounds.findIndex((bound) => bound >= target)
	const within = buckets.slice(0, last === -1 ? buckets.length : last + 1).reduce((sum, count) => sum + count, 0)
	return within / total
}
