/** Whether `error` is PostgreSQL refusing a duplicate (on `constraint`, when given). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
	if (typeof error !== 'object' || error === null || !('code' in error) || error.code !== '23505') return false
	return constraint === undefined || ('constraint' in error && error.constraint === constraint)
}
