import crypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { isUniqueViolation } from '#api/db/errors.ts'
import { type Database, type Workspace } from '#api/db/schema.ts'
import { containsPattern, offsetOf, type Pagination } from '#api/http/pagination.ts'
import { firstFreeSlug, randomSlugBase, randomSuffixed, slugBase } from './slug.ts'

type Executor = Kysely<Database>

/** Logo colours that read well on light and dark themes, with white initials on top. */
export const logoColors = ['#6366f1', '#8b5cf6', '#d946ef', '#ec4899', '#f43f5e', '#f97316', '#d97706', '#16a34a', '#0d9488', '#0891b2', '#2563eb', '#475569']

export function randomLogoColor(): string {
	return logoColors[crypto.randomInt(logoColors.length)] ?? '#6366f1'
}

/** `unaccent(column) ILIKE unaccent('%search%')`: case- and accent-insensitive substring match. */
export function matches(column: string, search: string) {
	return sql<boolean>`unaccent(${sql.ref(column)}) ilike unaccent(${containsPattern(search)})`
}

/** A name as it sorts for people: without case or accents. */
export function sortableName(column: string) {
	return sql`lower(unaccent(${sql.ref(column)}))`
}

/** The workspaces of a user, with their role in each, sorted by name. */
export async function listUserWorkspaces(db: DB, userId: string, query: Pagination & { search?: string }) {
	let base = db.selectFrom('workspaces').innerJoin('members', 'members.workspaceId', 'workspaces.id').where('members.userId', '=', userId)
	if (query.search) base = base.where(matches('workspaces.name', query.search))
	const [rows, count] = await Promise.all([
		base
			.selectAll('workspaces')
			.select('members.role')
			.orderBy(sortableName('workspaces.name'))
			.orderBy('workspaces.id')
			.limit(query.limit)
			.offset(offsetOf(query))
			.execute(),
		base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
	])
	return { rows: rows.map(({ role, ...workspace }) => ({ workspace, role })), total: count.total }
}

async function freeSlug(db: DB, base: string): Promise<string> {
	const rows = await db
		.selectFrom('workspaces')
		.select('slug')
		.where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
		.execute()
	return firstFreeSlug(base, new Set(rows.map((row) => row.slug)))
}

/**
 * Creates a workspace owned by `userId` and makes it their current one. The slug comes from the
 * name; two people creating the same name at once collide on the unique index, and the loser retries.
 */
export async function createWorkspace(db: DB, userId: string, values: { name: string; timezone: string; defaultLocale: string }): Promise<Workspace> {
	const base = slugBase(values.name) ?? randomSlugBase()
	for (let attempt = 0; ; attempt++) {
		const slug = attempt === 0 ? await freeSlug(db, base) : randomSuffixed(base)
		try {
			return await db.transaction().execute(async (trx) => {
				const workspace = await trx
					.insertInto('workspaces')
					.values({ ...values, slug, logoColor: randomLogoColor() })
					.returningAll()
					.executeTakeFirstOrThrow()
				await trx.insertInto('members').values({ workspaceId: workspace.id, userId, role: 'owner' }).execute()
				await trx.updateTable('users').set({ currentWorkspaceId: workspace.id, updatedAt: new Date() }).where('id', '=', userId).execute()
				return workspace
			})
		} catch (error) {
			if (attempt < 3 && isUniqueViolation(error, 'workspaces_slug_key')) continue
			throw error
		}
	}
}

/**
 * Gives users another of their workspaces as current (the one they joined last), or none:
 * called once they are no longer members of `workspaceId`.
 */
export async function moveCurrentWorkspaceAway(trx: Executor, workspaceId: string, userIds: string[]) {
	if (userIds.length === 0) return
	await trx
		.updateTable('users')
		.set((eb) => ({
			currentWorkspaceId: eb
				.selectFrom('members')
				.select('members.workspaceId')
				.whereRef('members.userId', '=', 'users.id')
				.where('members.workspaceId', '!=', workspaceId)
				.orderBy('members.createdAt', 'desc')
				.limit(1),
			updatedAt: new Date(),
		}))
		.where('id', 'in', userIds)
		.where((eb) => eb.or([eb('currentWorkspaceId', '=', workspaceId), eb('currentWorkspaceId', 'is', null)]))
		.execute()
}

/** Deletes a workspace (members and invitations go with it); those who were in it move elsewhere. */
export async function deleteWorkspace(db: DB, workspaceId: string) {
	await db.transaction().execute(async (trx) => {
		const current = await trx.selectFrom('users').select('id').where('currentWorkspaceId', '=', workspaceId).execute()
		await trx.deleteFrom('workspaces').where('id', '=', workspaceId).execute()
		await moveCurrentWorkspaceAway(
			trx,
			workspaceId,
			current.map((user) => user.id),
		)
	})
}

/** Ends a membership; if it was the user's current workspace, another becomes current. */
export async function removeMember(db: DB, workspaceId: string, userId: string, alongside?: (trx: DB) => Promise<void>) {
	await db.transaction().execute(async (trx) => {
		await alongside?.(trx)
		await trx.deleteFrom('members').where('workspaceId', '=', workspaceId).where('userId', '=', userId).execute()
		const user = await trx.selectFrom('users').select('currentWorkspaceId').where('id', '=', userId).executeTakeFirst()
		if (user?.currentWorkspaceId === workspaceId) await moveCurrentWorkspaceAway(trx, workspaceId, [userId])
	})
}

export async function setCurrentWorkspace(db: Executor, userId: string, workspaceId: string) {
	return db
		.updateTable('users')
		.set({ currentWorkspaceId: workspaceId, updatedAt: new Date() })
		.where('id', '=', userId)
		.returningAll()
		.executeTakeFirstOrThrow()
}

/** Counts for the dashboard's getting-started checklist. */
/** What the home page counts (`/workspaces/{id}/overview`). */
export type OverviewJson = { members: number; pendingInvitations: number; contacts: number; channels: number }

export async function workspaceOverview(db: DB, workspaceId: string): Promise<OverviewJson> {
	const [members, invitations, contacts, channels] = await Promise.all([
		db
			.selectFrom('members')
			.select((eb) => eb.fn.countAll<number>().as('count'))
			.where('workspaceId', '=', workspaceId)
			.executeTakeFirstOrThrow(),
		db
			.selectFrom('invitations')
			.select((eb) => eb.fn.countAll<number>().as('count'))
			.where('workspaceId', '=', workspaceId)
			.where('revokedAt', 'is', null)
			.where('expiresAt', '>', new Date())
			.where((eb) => eb.or([eb('maxUses', 'is', null), eb('uses', '<', eb.ref('maxUses'))]))
			.executeTakeFirstOrThrow(),
		// Kept by triggers (migration 0007): no count over 100 000 contacts on every dashboard visit.
		db.selectFrom('workspaces').select('contactCount as count').where('id', '=', workspaceId).executeTakeFirstOrThrow(),
		db
			.selectFrom('channels')
			.select((eb) => eb.fn.countAll<number>().as('count'))
			.where('workspaceId', '=', workspaceId)
			.executeTakeFirstOrThrow(),
	])
	return { members: members.count, pendingInvitations: invitations.count, contacts: contacts.count, channels: channels.count }
}
