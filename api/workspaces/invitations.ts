import crypto from 'node:crypto'
import { Router, type RequestHandler } from 'express'
import { sql } from 'kysely'
import { recordAudit } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { profileOf, workspaceJson } from '#api/auth/profile.ts'
import { type DB } from '#api/db/database.ts'
import { type Invitation, type InvitationMethod } from '#api/db/schema.ts'
import { HttpError } from '#api/http/errors.ts'
import { parseRequest } from '#api/http/validate.ts'
import { handler } from '#api/http/handler.ts'
import { consumeAll, createRateLimits, type RateLimit } from '#api/http/rate-limit.ts'
import { queueMail } from '#api/mail/jobs.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { invitationUrl } from './invitation-mail.ts'
import { findMembership, managers, parseParams, requireMember } from './membership.ts'
import { setCurrentWorkspace } from './queries.ts'
import { acceptInvitationBody, createInvitationBody, invitationCodeBody, invitationParams } from './schemas.ts'

const day = 24 * 60 * 60 * 1000

export type InvitationJson = {
	id: string
	code: string
	method: InvitationMethod
	email: string | null
	role: Invitation['role']
	expiresAt: string
	maxUses: number | null
	uses: number
	revoked: boolean
	createdAt: string
	createdByName: string | null
	url: string
}

/** 128 random bits, URL-safe: unguessable, and short enough to paste. */
function newInvitationCode(): string {
	return crypto.randomBytes(16).toString('base64url')
}

function invitationJson(invitation: Invitation & { createdByName: string | null }, url: string): InvitationJson {
	return {
		id: invitation.id,
		code: invitation.code,
		method: invitation.method,
		email: invitation.email,
		role: invitation.role,
		expiresAt: invitation.expiresAt.toISOString(),
		maxUses: invitation.maxUses,
		uses: invitation.uses,
		revoked: invitation.revokedAt !== null,
		createdAt: invitation.createdAt.toISOString(),
		createdByName: invitation.createdByName,
		url,
	}
}

/** What the log says of an invitation: its role, and whom it was mailed to (a link names nobody); never its code. */
function auditValuesOf(invitation: Invitation): Record<string, string> {
	return { role: invitation.role, method: invitation.method, ...(invitation.email ? { email: invitation.email } : {}) }
}

function requireVerified(user: { emailVerifiedAt: Date | null }) {
	if (!user.emailVerifiedAt) throw new HttpError(403, 'workspaces:errors.verifyToInvite')
}

function invitationNotFound() {
	return new HttpError(404, 'workspaces:errors.invitationNotFound')
}

/** Why an invitation cannot be used, each with its own status and words; nothing when it can. */
function assertUsable(invitation: Invitation | undefined, method: InvitationMethod): asserts invitation is Invitation {
	if (!invitation) throw new HttpError(404, 'workspaces:errors.invitationUnknown')
	if (invitation.method !== method) throw new HttpError(422, 'workspaces:errors.invitationMethodMismatch')
	if (invitation.revokedAt) throw new HttpError(410, 'workspaces:errors.invitationRevoked')
	if (invitation.expiresAt.getTime() <= Date.now()) throw new HttpError(410, 'workspaces:errors.invitationExpired')
	if (invitation.maxUses !== null && invitation.uses >= invitation.maxUses) throw new HttpError(410, 'workspaces:errors.invitationUsedUp')
}

/**
 * `POST /v1/workspaces/invitations/preview`: what the sign-up page and the confirmation page say
 * about an invitation (which workspace, who invited, which role); no session needed.
 */
export function previewInvitation({ db }: ApiContext): RequestHandler {
	return handler(async (req, res) => {
		const { code, method } = parseRequest(req, 'body', invitationCodeBody)
		const invitation = await db
			.selectFrom('invitations')
			.innerJoin('workspaces', 'workspaces.id', 'invitations.workspaceId')
			.leftJoin('users', 'users.id', 'invitations.createdBy')
			.selectAll('invitations')
			.select(['workspaces.name as workspaceName', 'users.name as inviterName'])
			.where('invitations.code', '=', code)
			.executeTakeFirst()
		assertUsable(invitation, method)
		res.json({
			workspaceName: invitation.workspaceName,
			inviterName: invitation.inviterName,
			role: invitation.role,
			expiresAt: invitation.expiresAt.toISOString(),
		})
	})
}

/**
 * `POST /v1/workspaces/invitations/accept`: joins the workspace with the invited role and makes
 * it current (unless `makeCurrent: false` and the user has a workspace to stay in). A member
 * already keeps their role, and does not use up the invitation.
 */
export function acceptInvitation({ db, realtime }: ApiContext): RequestHandler {
	return handler(async (req, res) => {
		const { code, method, makeCurrent } = parseRequest(req, 'body', acceptInvitationBody)
		const { user, workspaceId, joined } = await db.transaction().execute(async (trx) => {
			// Locked so that the last use of a limited invitation goes to one person only.
			const invitation = await trx.selectFrom('invitations').selectAll().where('code', '=', code).forUpdate().executeTakeFirst()
			assertUsable(invitation, method)
			if (invitation.email !== null && invitation.email.toLowerCase() !== req.user.email.toLowerCase()) {
				throw new HttpError(403, 'workspaces:errors.invitationEmailMismatch')
			}
			const inserted = await trx
				.insertInto('members')
				.values({ workspaceId: invitation.workspaceId, userId: req.user.id, role: invitation.role })
				.onConflict((oc) => oc.columns(['workspaceId', 'userId']).doNothing())
				.executeTakeFirst()
			const joined = Boolean(inserted.numInsertedOrUpdatedRows)
			if (joined) {
				await trx
					.updateTable('invitations')
					.set((eb) => ({ uses: eb('uses', '+', 1) }))
					.where('id', '=', invitation.id)
					.execute()
				await recordAudit(trx, invitation.workspaceId, req.user, 'invitation.accepted', { role: invitation.role, method: invitation.method })
			}
			const stays = !makeCurrent && req.user.currentWorkspaceId !== null && (await findMembership(trx, req.user.id, req.user.currentWorkspaceId)) !== undefined
			const user = stays ? req.user : await setCurrentWorkspace(trx, req.user.id, invitation.workspaceId)
			return { user, workspaceId: invitation.workspaceId, joined }
		})
		if (joined) void publishWorkspaceEvent(db, realtime, workspaceId, 'member.joined', { userId: user.id })
		const membership = await findMembership(db, user.id, workspaceId)
		if (!membership) throw invitationNotFound()
		res.json({ user: await profileOf(db, user), workspace: workspaceJson(membership.workspace, membership.role) })
	})
}

async function listInvitations(db: DB, workspaceId: string) {
	return db
		.selectFrom('invitations')
		.leftJoin('users', 'users.id', 'invitations.createdBy')
		.selectAll('invitations')
		.select('users.name as createdByName')
		.where('invitations.workspaceId', '=', workspaceId)
		.orderBy('invitations.createdAt', 'desc')
		.orderBy('invitations.id')
		.execute()
}

const hour = 60 * 60

/**
 * How many invitations may be made and mailed: per workspace and per inviter (an owner or admin's
 * account taken over, or a workspace made to mail strangers), per recipient (one address is not
 * flooded from many workspaces), and how often one invitation may be mailed again.
 */
export const invitationLimitRules = {
	invitationWorkspace: { points: 100, seconds: 24 * hour },
	invitationInviter: { points: 30, seconds: hour },
	invitationRecipient: { points: 10, seconds: 24 * hour },
	resendInvitation: { points: 5, seconds: hour },
}

/** `/v1/workspaces/:id/invitations`: owners and admins invite, list, mail again and revoke. */
export function invitationRoutes(context: ApiContext): Router {
	const { db, config } = context
	const limits = createRateLimits(db, invitationLimitRules)
	const router = Router()

	router.get(
		'/:id/invitations',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const invitations = await listInvitations(db, workspace.id)
			res.json({ invitations: invitations.map((invitation) => invitationJson(invitation, invitationUrl(config.PUBLIC_URL, req.locale, invitation))) })
		}),
	)

	router.post(
		'/:id/invitations',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createInvitationBody)
			const email = body.method === 'email' ? (body.email ?? null) : null
			// Only a proven address sends mail in the product's name: an account made a minute ago with any e-mail does not.
			if (email) requireVerified(req.user)
			await consumeAll([
				[limits.invitationWorkspace, workspace.id],
				[limits.invitationInviter, req.user.id],
				...(email ? [[limits.invitationRecipient, email.toLowerCase()] as [RateLimit, string]] : []),
			])
			if (email) {
				const member = await db
					.selectFrom('members')
					.innerJoin('users', 'users.id', 'members.userId')
					.select('users.id')
					.where('members.workspaceId', '=', workspace.id)
					.where('users.email', '=', email)
					.executeTakeFirst()
				if (member) throw new HttpError(409, 'workspaces:errors.alreadyMember', { values: { email } })
			}
			// The invitation, its mail (sent by the job queue, retried while SMTP refuses) and its log line: all or nothing.
			const invitation = await db.transaction().execute(async (trx) => {
				const created = await trx
					.insertInto('invitations')
					.values({
						workspaceId: workspace.id,
						code: newInvitationCode(),
						method: body.method,
						email,
						role: body.role,
						expiresAt: new Date(Date.now() + body.expiresInDays * day),
						// A mailed invitation is for one person unless said otherwise.
						maxUses: body.maxUses ?? (email ? 1 : null),
						createdBy: req.user.id,
					})
					.returningAll()
					.executeTakeFirstOrThrow()
				if (email) await queueMail(trx, { kind: 'invitation', invitationId: created.id })
				await recordAudit(trx, workspace.id, req.user, 'invitation.created', auditValuesOf(created))
				return created
			})
			res.status(201).json(invitationJson({ ...invitation, createdByName: req.user.name }, invitationUrl(config.PUBLIC_URL, req.locale, invitation)))
		}),
	)

	router.post(
		'/:id/invitations/:invitationId/resend',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { invitationId } = parseParams(req, invitationParams, invitationNotFound)
			const invitation = await db
				.selectFrom('invitations')
				.selectAll()
				.where('id', '=', invitationId)
				.where('workspaceId', '=', workspace.id)
				.executeTakeFirst()
			if (!invitation) throw invitationNotFound()
			if (invitation.method !== 'email' || !invitation.email) throw new HttpError(422, 'workspaces:errors.invitationNotMailed')
			if (invitation.revokedAt || invitation.expiresAt.getTime() <= Date.now() || (invitation.maxUses !== null && invitation.uses >= invitation.maxUses)) {
				throw new HttpError(410, 'workspaces:errors.invitationNotResendable')
			}
			requireVerified(req.user)
			await consumeAll([
				[limits.resendInvitation, invitation.id],
				[limits.invitationInviter, req.user.id],
				[limits.invitationRecipient, invitation.email.toLowerCase()],
			])
			// A mail still waiting for SMTP is tried again now, not queued twice (api/mail/jobs.ts).
			await queueMail(db, { kind: 'invitation', invitationId: invitation.id })
			res.status(202).json({ message: req.t('workspaces:messages.invitationResent', { email: invitation.email }) })
		}),
	)

	router.delete(
		'/:id/invitations/:invitationId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { invitationId } = parseParams(req, invitationParams, invitationNotFound)
			const invitation = await db.transaction().execute(async (trx) => {
				const found = await trx
					.selectFrom('invitations')
					.selectAll()
					.where('id', '=', invitationId)
					.where('workspaceId', '=', workspace.id)
					.forUpdate()
					.executeTakeFirst()
				// Revoking twice changes nothing, and says nothing more.
				if (found && !found.revokedAt) {
					await trx
						.updateTable('invitations')
						.set({ revokedAt: sql<Date>`now()` })
						.where('id', '=', found.id)
						.execute()
					await recordAudit(trx, workspace.id, req.user, 'invitation.revoked', auditValuesOf(found))
				}
				return found
			})
			if (!invitation) throw invitationNotFound()
			res.status(204).end()
		}),
	)

	return router
}
