/** Whether `error` is PostgreSQL refusing a duplicate (on `constraint`, when given). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
	if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== '23505') return false
	return constraint === undefined || ('constraint' in error && error.constraint === constraint)
}

/** Whether `error` is PostgreSQL refusing a row whose key names nothing (on `constraint`, when given). */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
	if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== '23503') return false
	return constraint === undefined || ('constraint' in error && error.constraint === constraint)
}

// How node-postgres says the database cannot be reached: the socket's errors, PostgreSQL's
// "connection exception" (08…) and "operator intervention" (57P01 to 57P03: shutting down,
// starting up) classes, too many connections, and the pool's own words for a lost or slow connection.
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300'])
const unreachableMessages =
	/Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i

/** Whether `error` says the database cannot be reached for now (an API request answers 503, api/http/errors.ts). */
export function isDatabaseUnavailable(error: unknown): boolean {
	if (!(error instanceof Error)) return false
	const code = 'code' in error && typeof error.code === 'string' ? error.code : ''
	return unreachableCodes.has(code) || code.startsWith('08') || unreachableMessages.test(error.message)
}

/**
 * Runs `work` until the database answers it, waiting between tries (1 s, then up to 5 s), for at
 * most `forMs`: for what must be written once something outside has happened (a provider took a
 * message), which failing would have it done twice when the job runs again. Other errors, and the
 * last one after `forMs`, are thrown.
 */
export async function whenDatabaseAnswers<T>(work: () => Promise<T>, options: { forMs?: number; onWait?: (error: Error) => void } = {}): Promise<T> {
	const deadline = Date.now() + (options.forMs ?? 10 * 60_000)
	for (let delay = 1000; ; delay = Math.min(delay * 1.5, 5000)) {
		try {
			return await work()
		} catch (error) {
			if (!isDatabaseUnavailable(error) || Date.now() + delay > deadline) throw error
			options.onWait?.(error as Error)
			await new Promise((resolve) => setTimeout(resolve, delay))
		}
	}
}
