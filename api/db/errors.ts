/** Whether `error` is PostgreSQL refusing a duplicate (on `constraint`, when given). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
	if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== '23505') return false
	return constraint === undefined || ('constraint' in error && error.constraint === constraint)
}

// How node-postgres says the database cannot be reached: the socket's errors, PostgreSQL's
// "connection exception" (08…) and "operator intervention" (57P01 to 57P03: shutting down,
// starting up) classes, too many connections, and the pool's own words for a lost or slow connection.
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300'])
const unreachableMessages = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i

/** Whether `error` says the database cannot be reached for now (an API request answers 503, api/http/errors.ts). */
export function isDatabaseUnavailable(error: unknown): boolean {
	if (!(error instanceof Error)) return false
	const code = 'code' in error && typeof error.code === 'string' ? error.code : ''
	return unreachableCodes.has(code) || code.startsWith('08') || unreachableMessages.test(error.message)
}
