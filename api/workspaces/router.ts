import { Router } from 'express'
import { requestDrainIfWaiting } from '#api/assignment/queue.ts'
import { recordAudit, recordSignIn } from '#api/audit/record.ts'
import { type ApiContext } from '#api/context.ts'
import { type DB } from '#api/db/database.ts'
import { type Realtime } from '#api/realtime/publisher.ts'
import { inboxChangedEvent } from '#common/realtime.ts'
import { profileOf, workspaceJson } from '#api/auth/profile.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { listQuery } from '#api/http/pagination.ts'
import { parseRequest } from '#api/http/validate.ts'
import { handler } from '#api/http/handler.ts'
import { lastEventNumber, publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { acceptInvitation, invitationRoutes, previewInvitation } from './invitations.ts'
import { memberRoutes } from './members.ts'
import { findMembership, managers, meetsTwoFactorRule, ownerOnly, requireMember, workspaceNotFound } from './membership.ts'
import { createWorkspace, deleteWorkspace, listUserWorkspaces, setCurrentWorkspace, workspaceOverview } from './queries.ts'
import { createWorkspaceBody, deleteWorkspaceBody, switchWorkspaceBody, updateWorkspaceBody, workspaceParams } from './schemas.ts'

/** `/v1/user`: what belongs to the signed-in user across workspaces. */
export function userRouter({ db }: ApiContext): Router {
	const router = Router()
	router.use(requireUser(db))

	router.get(
		'/workspaces',
		handler(async (req, res) => {
			const query = parseRequest(req, 'query', listQuery)
			const { rows, total } = await listUserWorkspaces(db, req.user.id, query)
			res.json({ workspaces: rows.map((row) => workspaceJson(row.workspace, row.role)), page: query.page, limit: query.limit, total })
		}),
	)
	return router
}

/** `/v1/workspaces`: workspaces, their members and invitations. Everything but the invitation preview needs a session. */
export function workspacesRouter(context: ApiContext): Router {
	const { db, realtime } = context
	const router = Router()
	router.post('/invitations/preview', previewInvitation(context))
	router.use(requireUser(db))

	router.post(
		'/',
		handler(async (req, res) => {
			const body = parseRequest(req, 'body', createWorkspaceBody)
			const workspace = await createWorkspace(db, req.user.id, {
				name: body.name,
				timezone: body.timezone ?? 'UTC',
				defaultLocale: body.defaultLocale ?? req.locale,
			})
			res.status(201).json(workspaceJson(workspace, 'owner'))
		}),
	)

	router.put(
		'/switch',
		handler(async (req, res) => {
			const { workspaceId } = parseRequest(req, 'body', switchWorkspaceBody)
			const valid = workspaceParams.safeParse({ id: workspaceId })
			const membership = valid.success ? await findMembership(db, req.user.id, valid.data.id) : undefined
			if (!membership) throw workspaceNotFound()
			const user = await db.transaction().execute(async (trx) => {
				const switched = await setCurrentWorkspace(trx, req.user.id, membership.workspace.id)
				if (req.user.currentWorkspaceId !== membership.workspace.id) await recordSignIn(trx, switched, membership.workspace.id, { via: 'switch' })
				return switched
			})
			res.json(await profileOf(db, user))
		}),
	)

	router.post('/invitations/accept', acceptInvitation(context))

	router.get(
		'/:id',
		handler(async (req, res) => {
			// Readable without two-step sign-in, so that a page can say the workspace requires it.
			const { workspace, role } = await requireMember(db, req, undefined, { twoFactor: 'optional' })
			res.json(workspaceJson(workspace, role))
		}),
	)

	router.patch(
		'/:id',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req, managers)
			const changes = parseRequest(req, 'body', updateWorkspaceBody)
			const requirement = changes.requireTwoFactor
			// Two-step sign-in is a person's to manage, never a token's.
			if (requirement !== undefined && (role !== 'owner' || req.accessToken))
				throw fieldError(req, 403, 'requireTwoFactor', 'workspaces:errors.twoFactorOwnerOnly')
			// The owner goes first: requiring what they do not have would lock them out of their own workspace.
			if (requirement === true && !meetsTwoFactorRule(req, { requireTwoFactor: true })) {
				throw fieldError(
					req,
					409,
					'requireTwoFactor',
					req.user.twoFactorEnabledAt ? 'workspaces:errors.twoFactorSession' : 'workspaces:errors.twoFactorOwnerFirst',
				)
			}
			const updated = Object.keys(changes).length
				? await db.transaction().execute(async (trx) => {
						const row = await trx
							.updateTable('workspaces')
							.set({ ...changes, updatedAt: new Date() })
							.where('id', '=', workspace.id)
							.returningAll()
							.executeTakeFirstOrThrow()
						// A default capacity changed: room may have appeared for what waits.
						if (changes.defaultCapacity !== undefined && changes.defaultCapacity !== workspace.defaultCapacity) await requestDrainIfWaiting(trx, workspace.id)
						if (requirement !== undefined && requirement !== workspace.requireTwoFactor) {
							await recordAudit(trx, workspace.id, req.user, requirement ? 'workspace.twoFactorRequired' : 'workspace.twoFactorOptional')
						}
						return row
					})
				: workspace
			if (updated !== workspace) {
				const told = publishWorkspaceEvent(db, realtime, workspace.id, 'workspace.updated')
				if (changes.agentsSeeOwnTeams !== undefined && changes.agentsSeeOwnTeams !== workspace.agentsSeeOwnTeams)
					void told.then(() => tellAgentsOfTheRule(db, realtime, workspace.id, changes.agentsSeeOwnTeams!))
			}
			res.json(workspaceJson(updated, role))
		}),
	)

	router.delete(
		'/:id',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, ownerOnly)
			const { confirmName } = parseRequest(req, 'body', deleteWorkspaceBody)
			if (confirmName !== workspace.name) {
				throw new HttpError(400, 'workspaces:errors.confirmNameMismatch', {
					details: { source: 'body', fields: { confirmName: [req.t('workspaces:errors.confirmNameMismatch')] } },
				})
			}
			await deleteWorkspace(db, workspace.id)
			void publishWorkspaceEvent(db, realtime, workspace.id, 'workspace.deleted')
			res.status(204).end()
		}),
	)

	router.get(
		'/:id/overview',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json(await workspaceOverview(db, workspace.id))
		}),
	)

	// A page reads it before its data: the channel's events above it are what the page has not seen.
	router.get(
		'/:id/events/last',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json({ seq: await lastEventNumber(db, workspace.id) })
		}),
	)

	router.use(memberRoutes(context))
	router.use(invitationRoutes(context))
	return router
}

/**
 * The rule "agents see only their teams' conversations" switched: on, the agents' connections close
 * and open again authorised under it (no workspace channel); off, the agents, who do not hear the
 * workspace's channel, are told on their own that their inbox changed, and their pages subscribe to it.
 */
async function tellAgentsOfTheRule(db: DB, realtime: Realtime, workspaceId: string, on: boolean) {
	const agents = await db.selectFrom('members').select('userId').where('workspaceId', '=', workspaceId).where('role', '=', 'agent').execute()
	await Promise.all(
		agents.map((agent) => (on ? realtime.terminateUserConnections(agent.userId) : realtime.notifyUser(agent.userId, inboxChangedEvent, { workspaceId }))),
	)
}
