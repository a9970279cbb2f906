import { type Request } from 'express'
import { type z } from 'zod'
import { type DB } from '#api/db/database.ts'
import { type Role, type Session, type User, type Workspace } from '#api/db/schema.ts'
import { readOncePerPage } from '#api/http/page-reads.ts'
import { HttpError } from '#api/http/errors.ts'
import { workspaceParams } from './schemas.ts'

export type Membership = { workspace: Workspace; role: Role }

/** What every role may do beyond reading: the table of PRODUCT.md, in common/roles.ts. */
export { managers } from '#common/roles.ts'
export const ownerOnly: readonly Role[] = ['owner']

export function workspaceNotFound() {
	return new HttpError(404, 'workspaces:errors.notFound')
}

/** Route parameters, where a malformed id is a thing that does not exist (404), not a bad request. */
export function parseParams<Schema extends z.ZodTypeAny>(req: Request, schema: Schema, notFound: () => HttpError): z.output<Schema> {
	const result = schema.safeParse(req.params)
	if (!result.success) throw notFound()
	return result.data
}

/** The workspace `id` with the user's role in it, if they are a member. */
export async function findMembership(db: DB, userId: string, workspaceId: string): Promise<Membership | undefined> {
	const row = await db
		.selectFrom('workspaces')
		.innerJoin('members', 'members.workspaceId', 'workspaces.id')
		.selectAll('workspaces')
		.select('members.role')
		.where('workspaces.id', '=', workspaceId)
		.where('members.userId', '=', userId)
		.executeTakeFirst()
	if (!row) return undefined
	const { role, ...workspace } = row
	return { workspace, role }
}

// Read with the session by `requireUser` when the router's path has the workspace `:id`: one query instead of two.
const preloaded = new WeakMap<Request, { workspaceId: string; membership: Membership | null }>()

/** Keeps the membership `findSession` read along with the session, for `requireMember`. */
export function rememberMembership(req: Request, workspaceId: string, membership: Membership | null) {
	preloaded.set(req, { workspaceId, membership })
}

/**
 * The 403 of a workspace whose owner requires two-step sign-in: to a member who has not turned it on,
 * or who has, but whose session was opened with a password alone (before they turned it on).
 */
export function twoFactorRequired(user: Pick<User, 'twoFactorEnabledAt'>) {
	return user.twoFactorEnabledAt
		? new HttpError(403, 'workspaces:errors.twoFactorSession', { details: { reason: 'twoFactorSession' } })
		: new HttpError(403, 'workspaces:errors.twoFactorRequired', { details: { reason: 'twoFactorRequired' } })
}

/**
 * Whether the caller may use the workspace: when its owner requires two-step sign-in, a user who has
 * it on, in a session that passed a second factor.
 */
export function meetsTwoFactorRule(
	caller: { user: Pick<User, 'twoFactorEnabledAt'>; session: Pick<Session, 'secondFactorAt'>; accessToken?: unknown },
	workspace: Pick<Workspace, 'requireTwoFactor'>,
): boolean {
	// A token was created from a session that met the rule; it has no second factor of its own.
	return !workspace.requireTwoFactor || caller.accessToken !== undefined || (caller.user.twoFactorEnabledAt !== null && caller.session.secondFactorAt !== null)
}

/**
 * The caller's membership in the workspace of `:id`. A non-member learns nothing (404, as for a
 * workspace that does not exist); a member without two-step sign-in where it is required gets 403
 * (except where `twoFactor: 'optional'`: reading the workspace itself, leaving it); a member whose
 * role is not in `roles` gets 403.
 */
export async function requireMember(db: DB, req: Request, roles?: readonly Role[], options: { twoFactor?: 'optional' } = {}): Promise<Membership> {
	const { id } = parseParams(req, workspaceParams, workspaceNotFound)
	// An access token never reaches another workspace, even one its person is a member of.
	if (req.accessToken && req.accessToken.workspaceId !== id) throw workspaceNotFound()
	const known = preloaded.get(req)
	const membership =
		known?.workspaceId === id ? known.membership : await readOncePerPage(req, `membership ${req.user.id} ${id}`, () => findMembership(db, req.user.id, id))
	if (!membership) throw workspaceNotFound()
	if (options.twoFactor !== 'optional' && !meetsTwoFactorRule(req, membership.workspace)) throw twoFactorRequired(req.user)
	if (roles && !roles.includes(membership.role)) throw new HttpError(403, 'errors.forbidden')
	return membership
}
