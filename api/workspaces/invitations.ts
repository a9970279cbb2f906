import crypto from 'node:crypto'
import { Router, type RequestHandler } from 'express'
import { sql } from 'kysely'
import { recordAudit } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { profileOf, workspaceJson } from '#api/auth/profile.ts'
import { type DB } from '#api/db/database.ts'
import { type Invitation, type InvitationMethod, type Workspace } from '#api/db/schema.ts'
import { HttpError } from '#api/http/errors.ts'
import { translatorFor } from '#api/http/i18n.ts'
import { parseRequest } from '#api/http/validate.ts'
import { workspaceChannel } from '#common/realtime.ts'
import { isLocale, languageOf, type Locale } from '#locales/languages.ts'
import { handler } from '#api/http/handler.ts'
import { findMembership, managers, parseParams, requireMember } from './membership.ts'
import { setCurrentWorkspace } from './queries.ts'
import { createInvitationBody, invitationCodeBody, invitationParams } from './schemas.ts'

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

/** The sign-up page that reads the invitation from its query (it also handles a signed-in visitor). */
export function invitationUrl(publicUrl: string, locale: Locale, invitation: Pick<Invitation, 'code' | 'method'>): string {
	const query = new URLSearchParams({ agent_invite_code: invitation.code, agent_invite_method: invitation.method })
	return `${publicUrl}/${locale}/auth/signup?${query}`
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

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** The invitation mail, in the invitee's language when they already have an account, else the workspace's. */
async function mailInvitation(
	{ db, config, mailer }: ApiContext,
	invitation: Invitation,
	workspace: Workspace,
	inviterName: string,
): Promise<void> {
	const to = invitation.email ?? ''
	const invitee = await db.selectFrom('users').select('locale').where('email', '=', to).executeTakeFirst()
	const locale = [invitee?.locale, workspace.defaultLocale].find(isLocale) ?? 'en-us'
	const language = languageOf(locale)
	const t = translatorFor(locale)
	const url = invitationUrl(config.PUBLIC_URL, locale, invitation)
	const values = {
		inviter: inviterName,
		workspace: workspace.name,
		date: new Intl.DateTimeFormat(language.tag, { dateStyle: 'long', timeZone: workspace.timezone }).format(invitation.expiresAt),
	}
	const lines = {
		greeting: t('workspaces:mail.invitation.greeting'),
		body: t(`workspaces:mail.invitation.body.${invitation.role}`, values),
		action: t('workspaces:mail.invitation.action'),
		expires: t('workspaces:mail.invitation.expires', values),
		ignore: t('workspaces:mail.invitation.ignore'),
	}
	const html = `<!doctype html><html lang="${language.tag}" dir="${language.dir}"><body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>${escapeHtml(lines.greeting)}</p>
<p>${escapeHtml(lines.body)}</p>
<p><a href="${escapeHtml(url)}" style="display: inline-block; padding: 10px 16px; border-radius: 6px; background: #18181b; color: #fff; text-decoration: none">${escapeHtml(lines.action)}</a></p>
<p style="color: #52525b">${escapeHtml(lines.expires)}<br>${escapeHtml(lines.ignore)}</p>
</body></html>`
	await mailer.send({
		to,
		locale,
		subject: t('workspaces:mail.invitation.subject', values),
		text: [lines.greeting, '', lines.body, '', `${lines.action}: ${url}`, '', lines.expires, lines.ignore].join('\n'),
		html,
	})
}

/** `POST /v1/workspaces/invitations/preview`: what the sign-up page says about an invitation; no session needed. */
export function previewInvitation({ db }: ApiContext): RequestHandler {
	return handler(async (req, res) => {
		const { code, method } = parseRequest(req, 'body', invitationCodeBody)
		const invitation = await db
			.selectFrom('invitations')
			.innerJoin('workspaces', 'workspaces.id', 'invitations.workspaceId')
			.selectAll('invitations')
			.select('workspaces.name as workspaceName')
			.where('invitations.code', '=', code)
			.executeTakeFirst()
		assertUsable(invitation, method)
		res.json({ workspaceName: invitation.workspaceName, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() })
	})
}

/**
 * `POST /v1/workspaces/invitations/accept`: joins the workspace with the invited role and makes
 * it current. A member already keeps their role, and does not use up the invitation.
 */
export function acceptInvitation({ db, realtime }: ApiContext): RequestHandler {
	return handler(async (req, res) => {
		const { code, method } = parseRequest(req, 'body', invitationCodeBody)
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
				await trx.updateTable('invitations').set((eb) => ({ uses: eb('uses', '+', 1) })).where('id', '=', invitation.id).execute()
				await recordAudit(trx, invitation.workspaceId, req.user, 'invitation.accepted', { role: invitation.role, method: invitation.method })
			}
			return { user: await setCurrentWorkspace(trx, req.user.id, invitation.workspaceId), workspaceId: invitation.workspaceId, joined }
		})
		if (joined) void realtime.publish(workspaceChannel(workspaceId), 'member.joined', { workspaceId, userId: user.id })
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

/** `/v1/workspaces/:id/invitations`: owners and admins invite, list and revoke. */
export function invitationRoutes(context: ApiContext): Router {
	const { db, config } = context
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
			const invitation = await db
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
			if (email) {
				try {
					await mailInvitation(context, invitation, workspace, req.user.name)
				} catch (error) {
					// An invitation nobody received would only confuse the list: undo it and say so.
					await db.deleteFrom('invitations').where('id', '=', invitation.id).execute()
					req.log.warn({ err: error }, 'invitation mail failed')
					throw new HttpError(502, 'workspaces:errors.mailFailed')
				}
			}
			// After the mail: an invitation undone because its mail failed was never made.
			await recordAudit(db, workspace.id, req.user, 'invitation.created', auditValuesOf(invitation))
			res.status(201).json(invitationJson({ ...invitation, createdByName: req.user.name }, invitationUrl(config.PUBLIC_URL, req.locale, invitation)))
		}),
	)

	router.delete(
		'/:id/invitations/:invitationId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { invitationId } = parseParams(req, invitationParams, invitationNotFound)
			const invitation = await db.transaction().execute(async (trx) => {
				const found = await trx.selectFrom('invitations').selectAll().where('id', '=', invitationId).where('workspaceId', '=', workspace.id).forUpdate().executeTakeFirst()
				// Revoking twice changes nothing, and says nothing more.
				if (found && !found.revokedAt) {
					await trx.updateTable('invitations').set({ revokedAt: sql<Date>`now()` }).where('id', '=', found.id).execute()
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
