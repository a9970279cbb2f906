import crypto from 'node:crypto'
import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { preparedQuery } from '#api/db/prepared.ts'
import { tooManyRequests } from '#api/http/rate-limit.ts'
import { splitWorkspace, workspaceColumns } from '#api/auth/workspace-columns.ts'
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

/** A new name for the token; a bot's user takes it too, so its threads and audit lines say it from now on. */
export async function renameToken(trx: DB, token: Pick<AccessToken, 'id' | 'kind' | 'userId'>, name: string) {
	const row = await trx.updateTable('accessTokens').set({ name }).where('id', '=', token.id).returningAll().executeTakeFirstOrThrow()
	if (token.kind === 'bot') await trx.updateTable('users').set({ name, updatedAt: new Date() }).where('id', '=', token.userId).where('bot', '=', true).execute()
	return row
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

/** Requests one access token may make in a minute. */
export const tokenRequestsPerMinute = 600

// Every request made with a token asks this: built once, planned once per connection.
const tokenRow = preparedQuery((db: DB, { tokenHash }: { tokenHash: string }) =>
	db
		.with('used', (db) =>
			db
				.updateTable('accessTokens')
				// Counts the request in the token's minute (a new minute starts at 1); when it was last used, to the minute.
				.set({
					windowRequests: sql<number>`case when window_started_at > now() - interval '1 minute' then window_requests + 1 else 1 end`,
					windowStartedAt: sql<Date>`case when window_started_at > now() - interval '1 minute' then window_started_at else now() end`,
					lastUsedAt: sql<Date>`case when last_used_at > now() - interval '1 minute' then last_used_at else now() end`,
				})
				.where('tokenHash', '=', tokenHash)
				.where('revokedAt', 'is', null)
				.where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
				.returning(['id', 'kind', 'workspaceId', 'userId', 'scopes', 'name', 'windowRequests', 'windowStartedAt']),
		)
		.selectFrom('used')
		.innerJoin('users', 'users.id', 'used.userId')
		.innerJoin('workspaces', 'workspaces.id', 'used.workspaceId')
		.leftJoin('members', (join) => join.onRef('members.userId', '=', 'used.userId').onRef('members.workspaceId', '=', 'used.workspaceId'))
		.selectAll('users')
		.select([
			'used.id as tokenId',
			'used.kind as tokenKind',
			'used.workspaceId as tokenWorkspaceId',
			'used.scopes as tokenScopes',
			'used.name as tokenName',
			'used.windowRequests',
			'used.windowStartedAt',
			'members.role',
			...workspaceColumns,
		]),
)

/**
 * The live token behind `secret`, with its user and, in its workspace, the role it acts with (a bot: admin;
 * a personal token: its member's current role, none once they left), in one statement that also counts
 * the request against the token's limit: a 429 past `tokenRequestsPerMinute`. Undefined: unknown, revoked or expired.
 */
export async function findAccessToken(db: DB, secret: string): Promise<{ caller: TokenCaller; user: User; membership: Membership | null } | undefined> {
	const [row] = await tokenRow(db, { tokenHash: hashToken(secret) })
	if (!row) return undefined
	const { rest, workspace } = splitWorkspace(row)
	const { tokenId, tokenKind, tokenWorkspaceId, tokenScopes, tokenName, windowRequests, windowStartedAt, role, ...user } = rest
	if (windowRequests > tokenRequestsPerMinute && windowStartedAt) throw tooManyRequests(windowStartedAt.getTime() + 60_000 - Date.now())
	const acting: Role | null = tokenKind === 'bot' ? 'admin' : role
	return {
		caller: { id: tokenId, kind: tokenKind, workspaceId: tokenWorkspaceId, scopes: tokenScopes, name: tokenName },
		user,
		membership: acting && workspace ? { workspace, role: acting } : null,
	}
}
