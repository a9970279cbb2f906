import crypto from 'node:crypto'
import { type DB } from '#api/db/database.ts'
import { type AccessToken, type Role, type User } from '#api/db/schema.ts'
import { hashToken, newToken } from '#api/auth/tokens.ts'
import { type Membership } from '#api/workspaces/membership.ts'
import { tokenPrefixes, type TokenKind, type TokenScope } from '#common/access-tokens.ts'
import { type CreateTokenBody } from './schemas.ts'

/** What a request made with a token carries besides its user (`req.accessToken`). */
export type TokenCaller = { id: string; kind: TokenKind; workspaceId: string; scopes: TokenScope[]; name: string }

/** A token as its lists show it: never its secret, only the last characters of it. */
export type AccessTokenJson = {
	id: string
	kind: TokenKind
	name: string
	hint: string
	scopes: TokenScope[]
	userId: string
	createdBy: string | null
	createdByName: string | null
	expiresAt: string | null
	lastUsedAt: string | null
	createdAt: string
}

const day = 24 * 60 * 60 * 1000

export function tokenJson(row: AccessToken & { createdByName: string | null }): AccessTokenJson {
	return {
		id: row.id,
		kind: row.kind,
		name: row.name,
		hint: row.hint,
		scopes: row.scopes,
		userId: row.userId,
		createdBy: row.createdBy,
		createdByName: row.createdByName,
		expiresAt: row.expiresAt?.toISOString() ?? null,
		lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
		createdAt: row.createdAt.toISOString(),
	}
}

function liveTokens(db: DB, workspaceId: string) {
	return db
		.selectFrom('accessTokens')
		.leftJoin('users as creator', 'creator.id', 'accessTokens.createdBy')
		.selectAll('accessTokens')
		.select('creator.name as createdByName')
		.where('accessTokens.workspaceId', '=', workspaceId)
		.where('accessTokens.revokedAt', 'is', null)
		.where((eb) => eb.or([eb('accessTokens.expiresAt', 'is', null), eb('accessTokens.expiresAt', '>', new Date())]))
}

/** The live tokens a member sees: their own personal ones, and every bot token when they manage the workspace. */
export async function listTokens(db: DB, workspaceId: string, userId: string, seesBots: boolean): Promise<AccessTokenJson[]> {
	const rows = await liveTokens(db, workspaceId)
		.where((eb) =>
			eb.or([
				eb.and([eb('accessTokens.kind', '=', 'personal'), eb('accessTokens.userId', '=', userId)]),
				...(seesBots ? [eb('accessTokens.kind', '=', 'bot')] : []),
			]),
		)
		.orderBy('accessTokens.createdAt', 'desc')
		.orderBy('accessTokens.id')
		.execute()
	return rows.map(tokenJson)
}

export async function findLiveToken(db: DB, workspaceId: string, tokenId: string) {
	return liveTokens(db, workspaceId).where('accessTokens.id', '=', tokenId).executeTakeFirst()
}

/**
 * Creates a token and, for a bot, its own user (never a member, never signing in: its password hash
 * matches no password). Returns the row and the secret, which is kept only as a hash.
 */
export async function createToken(trx: DB, workspaceId: string, creator: Pick<User, 'id'>, body: CreateTokenBody) {
	const secret = `${tokenPrefixes[body.kind]}${newToken()}`
	let userId = creator.id
	if (body.kind === 'bot') {
		const bot = await trx
			.insertInto('users')
			.values({ email: `bot-${crypto.randomUUID()}@bots.invalid`, name: body.name, passwordHash: '!', bot: true, emailVerifiedAt: null })
			.returning('id')
			.executeTakeFirstOrThrow()
		userId = bot.id
	}
	const row = await trx
		.insertInto('accessTokens')
		.values({
			workspaceId,
			kind: body.kind,
			userId,
			createdBy: creator.id,
			name: body.name,
			tokenHash: hashToken(secret),
			hint: secret.slice(-4),
			scopes: [...new Set(body.scopes)],
			expiresAt: body.expiresInDays === undefined ? null : new Date(Date.now() + body.expiresInDays * day),
		})
		.returningAll()
		.executeTakeFirstOrThrow()
	return { row, secret }
}

export async function revokeToken(db: DB, tokenId: string) {
	await db.updateTable('accessTokens').set({ revokedAt: new Date() }).where('id', '=', tokenId).where('revokedAt', 'is', null).execute()
}

/** A member who leaves or is removed takes their personal tokens of the workspace with them. */
export async function revokePersonalTokens(trx: DB, workspaceId: string, userId: string) {
	await trx
		.updateTable('accessTokens')
		.set({ revokedAt: new Date() })
		.where('workspaceId', '=', workspaceId)
		.where('userId', '=', userId)
		.where('kind', '=', 'personal')
		.where('revokedAt', 'is', null)
		.execute()
}

// Touching last_used_at on every request would write on every read; once a minute is enough.
const touchInterval = 60 * 1000

/**
 * The live token behind `secret`, with its user and, in its workspace, the role it acts with (a bot: admin;
 * a personal token: its member's current role, none once they left). Undefined: unknown, revoked or expired.
 */
export async function findAccessToken(db: DB, secret: string): Promise<{ caller: TokenCaller; user: User; membership: Membership | null } | undefined> {
	const token = await db
		.selectFrom('accessTokens')
		.leftJoin('members', (join) => join.onRef('members.userId', '=', 'accessTokens.userId').onRef('members.workspaceId', '=', 'accessTokens.workspaceId'))
		.selectAll('accessTokens')
		.select('members.role')
		.where('accessTokens.tokenHash', '=', hashToken(secret))
		.executeTakeFirst()
	const now = Date.now()
	if (!token || token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt.getTime() <= now)) return undefined
	const [user, workspace] = await Promise.all([
		db.selectFrom('users').selectAll().where('id', '=', token.userId).executeTakeFirst(),
		db.selectFrom('workspaces').selectAll().where('id', '=', token.workspaceId).executeTakeFirst(),
	])
	if (!user || !workspace) return undefined
	if (token.lastUsedAt === null || now - token.lastUsedAt.getTime() > touchInterval) {
		await db
			.updateTable('accessTokens')
			.set({ lastUsedAt: new Date(now) })
			.where('id', '=', token.id)
			.execute()
	}
	const role: Role | null = token.kind === 'bot' ? 'admin' : token.role
	return {
		caller: { id: token.id, kind: token.kind, workspaceId: token.workspaceId, scopes: token.scopes, name: token.name },
		user,
		membership: role ? { workspace, role } : null,
	}
}
