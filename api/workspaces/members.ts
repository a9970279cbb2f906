import { Router, type Request } from 'express'
import { sql } from 'kysely'
import { revokePersonalTokens } from '#api/access-tokens/queries.ts'
import { recordAudit } from '#api/audit/record.ts'
import { revokeAllSessions } from '#api/auth/sessions.ts'
import { clearTwoFactor } from '#api/auth/two-factor.ts'
import { type ApiContext } from '#api/context.ts'
import { workspaceJson } from '#api/auth/profile.ts'
import { type DB } from '#api/db/database.ts'
import { type Availability, type Role } from '#api/db/schema.ts'
import { HttpError } from '#api/http/errors.ts'
import { listQuery, offsetOf, type Pagination } from '#api/http/pagination.ts'
import { parseRequest } from '#api/http/validate.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { handler } from '#api/http/handler.ts'
import { requestDrainIfWaiting } from '#api/assignment/queue.ts'
import { releaseConversations } from '#api/assignment/release.ts'
import { publishEvents, type InboxEvent } from '#api/conversations/events.ts'
import { queueMail } from '#api/mail/jobs.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { managers, ownerOnly, parseParams, requireMember, type Membership } from './membership.ts'
import { matches, removeMember, sortableName } from './queries.ts'
import { availabilityBody, changeMemberBody, memberParams, transferOwnershipBody } from './schemas.ts'

/**
 * `twoFactorEnabled`: whether the member signs in with two-step sign-in, which owners and admins may reset for them.
 * `capacity`: the open conversations auto-assignment gives them at most; null: the workspace's default.
 */
export type MemberJson = {
	userId: string
	name: string
	email: string
	role: Role
	availability: Availability
	capacity: number | null
	twoFactorEnabled: boolean
	joinedAt: string
}

function memberNotFound() {
	return new HttpError(404, 'workspaces:errors.memberNotFound')
}

function ownerProtected() {
	return new HttpError(403, 'workspaces:errors.ownerProtected')
}

function membersOf(db: DB, workspaceId: string) {
	return db.selectFrom('members').innerJoin('users', 'users.id', 'members.userId').where('members.workspaceId', '=', workspaceId)
}

const memberColumns = [
	'users.id as userId',
	'users.name',
	'users.email',
	'members.role',
	'members.availability',
	'members.capacity',
	'users.twoFactorEnabledAt',
	'members.createdAt as joinedAt',
] as const

function memberJson({
	twoFactorEnabledAt,
	joinedAt,
	...row
}: Omit<MemberJson, 'twoFactorEnabled' | 'joinedAt'> & { twoFactorEnabledAt: Date | null; joinedAt: Date }): MemberJson {
	return { ...row, twoFactorEnabled: twoFactorEnabledAt !== null, joinedAt: joinedAt.toISOString() }
}

async function findMember(db: DB, workspaceId: string, userId: string): Promise<MemberJson | undefined> {
	const row = await membersOf(db, workspaceId).select(memberColumns).where('members.userId', '=', userId).executeTakeFirst()
	return row && memberJson(row)
}

/** The members of a workspace: owner first, then admins, then agents, each by name. */
async function listMembers(db: DB, workspaceId: string, query: Pagination & { search?: string }) {
	let base = membersOf(db, workspaceId)
	const search = query.search
	if (search) base = base.where((eb) => eb.or([matches('users.name', search), matches('users.email', search)]))
	const [rows, count] = await Promise.all([
		base
			.select(memberColumns)
			.orderBy(sql`case ${sql.ref('members.role')} when 'owner' then 0 when 'admin' then 1 else 2 end`)
			.orderBy(sortableName('users.name'))
			.orderBy('users.id')
			.limit(query.limit)
			.offset(offsetOf(query))
			.execute(),
		base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
	])
	return { members: rows.map(memberJson), total: count.total }
}

/** The member `:userId` of the caller's workspace, or 404. */
async function requireTarget(db: DB, req: Request, { workspace }: Membership): Promise<MemberJson> {
	const { userId } = parseParams(req, memberParams, memberNotFound)
	const target = await findMember(db, workspace.id, userId)
	if (!target) throw memberNotFound()
	return target
}

/** Leaving: anyone but the owner, who must hand the workspace over first. */
async function leave(db: DB, realtime: Realtime, { workspace, role }: Membership, user: { id: string; name: string }) {
	if (role === 'owner') throw new HttpError(409, 'workspaces:errors.ownerCannotLeave')
	await removeFromWorkspace(db, realtime, workspace.id, user.id, (trx) => recordAudit(trx, workspace.id, user, 'member.left'))
}

/** Removes a member with their open conversations' assignments (api/assignment/release.ts), told to the inbox once done. */
async function removeFromWorkspace(db: DB, realtime: Realtime, workspaceId: string, userId: string, alongside: (trx: DB) => Promise<void>) {
	let released: InboxEvent[] = []
	await removeMember(db, workspaceId, userId, async (trx) => {
		await alongside(trx)
		await revokePersonalTokens(trx, workspaceId, userId)
		released = await releaseConversations(trx, workspaceId, userId)
	})
	void publishEvents(db, realtime, released)
}

/** Tells the workspace, then closes the removed user's connections: they reconnect without its channels. */
function announceRemoval(db: DB, realtime: Realtime, workspaceId: string, userId: string) {
	void publishWorkspaceEvent(db, realtime, workspaceId, 'member.removed', { userId }).then(() => realtime.terminateUserConnections(userId))
}

/**
 * Tells the workspace, then closes the member's connections: a subscription is checked only when it is made,
 * so they reconnect and are authorised afresh for their new role (and presence shows it).
 */
function announceRoleChange(db: DB, realtime: Realtime, workspaceId: string, userId: string) {
	void publishWorkspaceEvent(db, realtime, workspaceId, 'member.updated', { userId }).then(() => realtime.terminateUserConnections(userId))
}

/** Routes under `/v1/workspaces/:id` for members: the list, roles, removal, leaving, ownership, availability. */
export function memberRoutes({ db, realtime }: ApiContext): Router {
	const router = Router()

	router.get(
		'/:id/members',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const query = parseRequest(req, 'query', listQuery)
			const { members, total } = await listMembers(db, workspace.id, query)
			res.json({ members, page: query.page, limit: query.limit, total })
		}),
	)

	// Before `/:id/members/:userId`, which would take `me` for a malformed id.
	router.get(
		'/:id/members/me',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json(await findMember(db, workspace.id, req.user.id))
		}),
	)

	router.patch(
		'/:id/members/me',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			const { availability } = parseRequest(req, 'body', availabilityBody)
			// Their own choice: coming back no longer turns them online by itself. Online, they may take the queue's next.
			await db.transaction().execute(async (trx) => {
				await trx
					.updateTable('members')
					.set({ availability, offlineByPresence: false })
					.where('workspaceId', '=', workspace.id)
					.where('userId', '=', req.user.id)
					.execute()
				if (availability === 'online') await requestDrainIfWaiting(trx, workspace.id)
			})
			void publishWorkspaceEvent(db, realtime, workspace.id, 'member.updated', { userId: req.user.id })
			res.json(await findMember(db, workspace.id, req.user.id))
		}),
	)

	router.patch(
		'/:id/members/:userId',
		handler(async (req, res) => {
			const membership = await requireMember(db, req, managers)
			const target = await requireTarget(db, req, membership)
			const { role = target.role, capacity = target.capacity } = parseRequest(req, 'body', changeMemberBody)
			// The owner's role changes only by a transfer; their capacity like anyone's.
			if (target.role === 'owner' && role !== target.role) throw ownerProtected()
			if (role !== target.role || capacity !== target.capacity) {
				await db.transaction().execute(async (trx) => {
					await trx
						.updateTable('members')
						.set({ role, capacity })
						.where('workspaceId', '=', membership.workspace.id)
						.where('userId', '=', target.userId)
						.execute()
					// Room for more: the queue's next may be theirs.
					if (capacity !== target.capacity) await requestDrainIfWaiting(trx, membership.workspace.id)
					if (role === target.role) return
					await recordAudit(trx, membership.workspace.id, req.user, 'member.roleChanged', {
						member: target.name,
						memberId: target.userId,
						from: target.role,
						to: role,
					})
				})
			}
			if (role === target.role) void publishWorkspaceEvent(db, realtime, membership.workspace.id, 'member.updated', { userId: target.userId })
			else announceRoleChange(db, realtime, membership.workspace.id, target.userId)
			res.json({ ...target, role, capacity })
		}),
	)

	/**
	 * A member who lost their phone and their recovery codes: the owner turns their two-step sign-in off
	 * (an admin, an agent's), ends their sessions and mails them. Only for an account that is a member of
	 * this workspace alone: an owner of one workspace must not weaken an account other workspaces rely on.
	 */
	router.post(
		'/:id/members/:userId/two-factor/reset',
		handler(async (req, res) => {
			const membership = await requireMember(db, req, managers)
			const target = await requireTarget(db, req, membership)
			if (target.userId === req.user.id || target.role === 'owner') throw ownerProtected()
			if (membership.role === 'admin' && target.role !== 'agent') throw new HttpError(403, 'workspaces:errors.resetTwoFactorAdmins')
			if (!target.twoFactorEnabled) throw new HttpError(409, 'workspaces:errors.twoFactorNotOn', { values: { name: target.name } })
			const elsewhere = await db
				.selectFrom('members')
				.select('workspaceId')
				.where('userId', '=', target.userId)
				.where('workspaceId', '!=', membership.workspace.id)
				.limit(1)
				.executeTakeFirst()
			if (elsewhere) throw new HttpError(409, 'workspaces:errors.twoFactorResetElsewhere', { values: { name: target.name } })
			await db.transaction().execute(async (trx) => {
				await clearTwoFactor(trx, target.userId)
				await revokeAllSessions(trx, target.userId)
				await recordAudit(trx, membership.workspace.id, req.user, 'member.twoFactorReset', { member: target.name, memberId: target.userId })
				await queueMail(trx, { kind: 'twoFactorReset', userId: target.userId, workspaceId: membership.workspace.id, byUserId: req.user.id })
			})
			void realtime.terminateUserConnections(target.userId)
			res.json({ ...target, twoFactorEnabled: false })
		}),
	)

	router.delete(
		'/:id/members/:userId',
		handler(async (req, res) => {
			const membership = await requireMember(db, req)
			const target = await requireTarget(db, req, membership)
			if (target.userId === req.user.id) {
				await leave(db, realtime, membership, req.user)
				announceRemoval(db, realtime, membership.workspace.id, req.user.id)
				return res.status(204).end()
			}
			if (!managers.includes(membership.role)) throw new HttpError(403, 'errors.forbidden')
			if (target.role === 'owner') throw ownerProtected()
			await removeFromWorkspace(db, realtime, membership.workspace.id, target.userId, (trx) =>
				recordAudit(trx, membership.workspace.id, req.user, 'member.removed', { member: target.name, memberId: target.userId, role: target.role }),
			)
			announceRemoval(db, realtime, membership.workspace.id, target.userId)
			res.status(204).end()
		}),
	)

	router.post(
		'/:id/leave',
		handler(async (req, res) => {
			// Leaving needs no two-step sign-in: a member who will not turn it on may go.
			const membership = await requireMember(db, req, undefined, { twoFactor: 'optional' })
			await leave(db, realtime, membership, req.user)
			announceRemoval(db, realtime, membership.workspace.id, req.user.id)
			res.status(204).end()
		}),
	)

	router.post(
		'/:id/transfer-ownership',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, ownerOnly)
			const { userId } = parseRequest(req, 'body', transferOwnershipBody)
			const valid = memberParams.shape.userId.safeParse(userId)
			if (!valid.success) throw memberNotFound()
			if (userId === req.user.id) throw new HttpError(409, 'workspaces:errors.alreadyOwner')
			await db.transaction().execute(async (trx) => {
				// Serialises transfers of one workspace; the one-owner index would refuse the loser anyway.
				await trx.selectFrom('workspaces').select('id').where('id', '=', workspace.id).forUpdate().executeTakeFirstOrThrow()
				const target = await trx.selectFrom('members').select('role').where('workspaceId', '=', workspace.id).where('userId', '=', userId).executeTakeFirst()
				if (!target) throw memberNotFound()
				// Demote first: the unique index allows one owner at any moment, even inside a transaction.
				const demoted = await trx
					.updateTable('members')
					.set({ role: 'admin' })
					.where('workspaceId', '=', workspace.id)
					.where('userId', '=', req.user.id)
					.where('role', '=', 'owner')
					.executeTakeFirst()
				if (demoted.numUpdatedRows === 0n) throw new HttpError(403, 'errors.forbidden')
				await trx.updateTable('members').set({ role: 'owner' }).where('workspaceId', '=', workspace.id).where('userId', '=', userId).execute()
				const heir = await trx.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirstOrThrow()
				await recordAudit(trx, workspace.id, req.user, 'member.ownershipTransferred', { member: heir.name, memberId: userId })
			})
			const told = publishWorkspaceEvent(db, realtime, workspace.id, 'workspace.ownership-transferred', { fromUserId: req.user.id, toUserId: userId })
			// Both roles changed: both are authorised afresh, as after any role change.
			void told.then(() => Promise.all([realtime.terminateUserConnections(req.user.id), realtime.terminateUserConnections(userId)]))
			res.json(workspaceJson(workspace, 'admin'))
		}),
	)

	return router
}
