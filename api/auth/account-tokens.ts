import { type Kysely } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { type Database, type TokenPurpose } from '#api/db/schema.ts'
import { hashToken, newToken } from './tokens.ts'

const hour = 60 * 60 * 1000

/** How long a mailed link works. The mails say so in words: change `mail.json` with these. */
export const tokenLifetimes: Record<TokenPurpose, number> = {
	verify_email: 24 * hour,
	reset_password: hour,
}

/**
 * A fresh single-use token for a mailed link, replacing the user's unused ones for the same
 * purpose (only the newest link works). Returns the token; the database keeps its hash.
 */
export async function issueAccountToken(db: DB, userId: string, purpose: TokenPurpose): Promise<string> {
	const token = newToken()
	await db.transaction().execute(async (trx) => {
		await trx.deleteFrom('accountTokens').where('userId', '=', userId).where('purpose', '=', purpose).where('usedAt', 'is', null).execute()
		await trx
			.insertInto('accountTokens')
			.values({ userId, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + tokenLifetimes[purpose]) })
			.execute()
	})
	return token
}

/** The user behind a live token (unused, unexpired), without using it up. */
export async function peekAccountToken(db: DB, token: string, purpose: TokenPurpose): Promise<string | undefined> {
	const row = await db
		.selectFrom('accountTokens')
		.select('userId')
		.where('tokenHash', '=', hashToken(token))
		.where('purpose', '=', purpose)
		.where('usedAt', 'is', null)
		.where('expiresAt', '>', new Date())
		.executeTakeFirst()
	return row?.userId
}

/**
 * Uses up a live token in one statement, so two requests racing with the same link cannot both
 * succeed. Resolves to its user, or undefined when the token is unknown, used or expired.
 */
export async function useAccountToken(db: Kysely<Database>, token: string, purpose: TokenPurpose): Promise<string | undefined> {
	const now = new Date()
	const row = await db
		.updateTable('accountTokens')
		.set({ usedAt: now })
		.where('tokenHash', '=', hashToken(token))
		.where('purpose', '=', purpose)
		.where('usedAt', 'is', null)
		.where('expiresAt', '>', now)
		.returning('userId')
		.executeTakeFirst()
	return row?.userId
}
