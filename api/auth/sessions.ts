import { type DB } from '#api/db/database.ts'
import { type Session, type User } from '#api/db/schema.ts'
import { hashToken, newToken } from './tokens.ts'

const day = 24 * 60 * 60 * 1000
/** A session unused for this long ends. */
export const sessionIdleTimeout = 14 * day
/** A session ends this long after sign-in, however active. */
export const sessionLifetime = 30 * day
// Touching last_used_at on every request would write on every read; once a minute is enough.
const touchInterval = 60 * 1000

/** Signs a user in on one device: returns the access token, which is never stored. */
export async function createSession(
	db: DB,
	userId: string,
	device: { userAgent?: string | null; ip?: string | null } = {},
): Promise<string> {
	const token = newToken()
	await db
		.insertInto('sessions')
		.values({
			userId,
			tokenHash: hashToken(token),
			userAgent: device.userAgent?.slice(0, 400) ?? null,
			ip: device.ip ?? null,
			expiresAt: new Date(Date.now() + sessionLifetime),
		})
		.execute()
	return token
}

/** The live session and user behind an access token, or undefined when it is unknown or expired. */
export async function findSession(db: DB, token: string): Promise<{ session: Session; user: User } | undefined> {
	const row = await db
		.selectFrom('sessions')
		.innerJoin('users', 'users.id', 'sessions.userId')
		.selectAll('users')
		.select([
			'sessions.id as sessionId',
			'sessions.tokenHash',
			'sessions.userAgent',
			'sessions.ip',
			'sessions.createdAt as sessionCreatedAt',
			'sessions.lastUsedAt',
			'sessions.expiresAt',
		])
		.where('sessions.tokenHash', '=', hashToken(token))
		.executeTakeFirst()
	if (!row) return undefined
	const now = Date.now()
	if (row.expiresAt.getTime() <= now || row.lastUsedAt.getTime() + sessionIdleTimeout <= now) {
		await db.deleteFrom('sessions').where('id', '=', row.sessionId).execute()
		return undefined
	}
	if (now - row.lastUsedAt.getTime() > touchInterval) {
		await db.updateTable('sessions').set({ lastUsedAt: new Date(now) }).where('id', '=', row.sessionId).execute()
	}
	const { sessionId, tokenHash, userAgent, ip, sessionCreatedAt, lastUsedAt, expiresAt, ...user } = row
	return {
		session: { id: sessionId, userId: user.id, tokenHash, userAgent, ip, createdAt: sessionCreatedAt, lastUsedAt, expiresAt },
		user,
	}
}

export async function revokeSession(db: DB, sessionId: string) {
	await db.deleteFrom('sessions').where('id', '=', sessionId).execute()
}

/** Signs a user out everywhere (after a password reset). */
export async function revokeAllSessions(db: DB, userId: string) {
	await db.deleteFrom('sessions').where('userId', '=', userId).execute()
}

/** Signs a user out on every device but this one (after a password change). */
export async function revokeOtherSessions(db: DB, userId: string, keepSessionId: string) {
	await db.deleteFrom('sessions').where('userId', '=', userId).where('id', '!=', keepSessionId).execute()
}
