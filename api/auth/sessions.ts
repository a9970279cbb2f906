import { type DB } from '#api/db/database.ts'
import { preparedQuery } from '#api/db/prepared.ts'
import { type Session, type User } from '#api/db/schema.ts'
import { type Membership } from '#api/workspaces/membership.ts'
import { hashToken, newToken } from './tokens.ts'
import { describeAgent } from './user-agent.ts'
import { splitWorkspace, workspaceColumns } from './workspace-columns.ts'
import { isUuid } from '#common/ids.ts'

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
	options: { secondFactor?: boolean } = {},
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
			secondFactorAt: options.secondFactor ? new Date() : null,
		})
		.execute()
	return token
}

// Every request of a signed-in user asks this, four tables joined: built once, planned once per connection.
const sessionRow = preparedQuery((db: DB, { tokenHash, workspaceId }: { tokenHash: string; workspaceId: string | null }) =>
	db
		.selectFrom('sessions')
		.innerJoin('users', 'users.id', 'sessions.userId')
		.leftJoin('members', (join) => join.onRef('members.userId', '=', 'users.id').on('members.workspaceId', '=', workspaceId))
		.leftJoin('workspaces', 'workspaces.id', 'members.workspaceId')
		.selectAll('users')
		.select([
			'sessions.id as sessionId',
			'sessions.tokenHash',
			'sessions.userAgent',
			'sessions.ip',
			'sessions.createdAt as sessionCreatedAt',
			'sessions.lastUsedAt',
			'sessions.expiresAt',
			'sessions.secondFactorAt',
			'members.role',
			...workspaceColumns,
		])
		.where('sessions.tokenHash', '=', tokenHash),
)

/**
 * The live session and user behind an access token, or undefined when it is unknown or expired.
 * Given a workspace id, the same query reads the user's membership there (`null`: not a member),
 * so that a workspace request authenticates in one round trip.
 */
export async function findSession(
	db: DB,
	token: string,
	workspaceId?: string,
): Promise<{ session: Session; user: User; membership?: Membership | null } | undefined> {
	// A malformed id matches no workspace; it must not reach PostgreSQL as a uuid.
	const memberOf = workspaceId !== undefined && isUuid(workspaceId) ? workspaceId : undefined
	const [row] = await sessionRow(db, { tokenHash: hashToken(token), workspaceId: memberOf ?? null })
	if (!row) return undefined
	const now = Date.now()
	if (row.expiresAt.getTime() <= now || row.lastUsedAt.getTime() + sessionIdleTimeout <= now) {
		await db.deleteFrom('sessions').where('id', '=', row.sessionId).execute()
		return undefined
	}
	if (now - row.lastUsedAt.getTime() > touchInterval) {
		await db
			.updateTable('sessions')
			.set({ lastUsedAt: new Date(now) })
			.where('id', '=', row.sessionId)
			.execute()
	}
	const { rest, workspace } = splitWorkspace(row)
	const { sessionId, tokenHash, userAgent, ip, sessionCreatedAt, lastUsedAt, expiresAt, secondFactorAt, role, ...user } = rest
	const session = { id: sessionId, userId: user.id, tokenHash, userAgent, ip, createdAt: sessionCreatedAt, lastUsedAt, expiresAt, secondFactorAt }
	if (memberOf === undefined) return { session, user }
	return { session, user, membership: role && workspace ? { role, workspace } : null }
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

/** A session as its user sees it in their list. */
export type SessionJson = {
	id: string
	browser: string | null
	system: string | null
	/** The raw agent, cut short, for what the parser does not recognise. */
	userAgent: string | null
	ip: string | null
	createdAt: string
	lastSeenAt: string
	current: boolean
}

/** The user's live sessions, the most recently used first. */
export async function listSessions(db: DB, userId: string, currentSessionId: string): Promise<SessionJson[]> {
	const now = Date.now()
	const rows = await db
		.selectFrom('sessions')
		.selectAll()
		.where('userId', '=', userId)
		.where('expiresAt', '>', new Date(now))
		.orderBy('lastUsedAt', 'desc')
		.orderBy('id')
		.execute()
	return rows
		.filter((row) => row.lastUsedAt.getTime() + sessionIdleTimeout > now)
		.map((row) => ({
			id: row.id,
			...describeAgent(row.userAgent),
			userAgent: row.userAgent && row.userAgent.length > 120 ? `${row.userAgent.slice(0, 119)}…` : row.userAgent,
			ip: row.ip,
			createdAt: row.createdAt.toISOString(),
			lastSeenAt: row.lastUsedAt.toISOString(),
			current: row.id === currentSessionId,
		}))
}

/** Ends one of the user's sessions; false when it is not theirs (or already over). */
export async function revokeOwnSession(db: DB, userId: string, sessionId: string): Promise<boolean> {
	const result = await db.deleteFrom('sessions').where('id', '=', sessionId).where('userId', '=', userId).executeTakeFirst()
	return Number(result.numDeletedRows) > 0
}
