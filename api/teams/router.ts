import { Router, type Request } from 'express'
import { type ApiContext } from '#api/context.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError, refusedAsTaken } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { publishWorkspaceEvent } from '#api/realtime/workspace-events.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { createTeam, deleteTeam, replaceMembers, updateTeam } from './actions.ts'
import { findTeam, listTeams, strangers, teamNameConstraint } from './queries.ts'
import { createTeamBody, teamMembersBody, teamParams, updateTeamBody } from './schemas.ts'

export function teamNotFound() {
	return new HttpError(404, 'workspaces:errors.teamNotFound')
}

/** A name another team of the workspace has (in any case: names are citext) is a 409 beside the name field. */
const refusedName = (req: Request, name: string) => refusedAsTaken(req, teamNameConstraint, 'name', 'workspaces:errors.teamNameTaken', { name })

/** `/v1/workspaces/:id/teams`: everyone reads, owners and admins write. */
export function teamsRouter({ db, realtime }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	async function requireTeam(req: Request, workspaceId: string) {
		const { teamId } = parseParams(req, teamParams, teamNotFound)
		const team = await findTeam(db, workspaceId, teamId)
		if (!team) throw teamNotFound()
		return team
	}

	/** Members of a team must be members of its workspace: anyone else is a 422 beside the members field. */
	async function requireMembers(req: Request, workspaceId: string, userIds: readonly string[]) {
		if ((await strangers(db, workspaceId, userIds)).length > 0) throw fieldError(req, 422, 'userIds', 'workspaces:errors.teamMemberUnknown')
	}

	function announce(workspaceId: string, event: 'team.created' | 'team.updated' | 'team.deleted', teamId: string) {
		void publishWorkspaceEvent(db, realtime, workspaceId, event, { teamId })
	}

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json({ teams: await listTeams(db, workspace.id) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const body = parseRequest(req, 'body', createTeamBody)
			await requireMembers(req, workspace.id, body.userIds)
			const teamId = await createTeam(db, workspace.id, body).catch(refusedName(req, body.name))
			announce(workspace.id, 'team.created', teamId)
			res.status(201).json(await findTeam(db, workspace.id, teamId))
		}),
	)

	router.get(
		'/:teamId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req)
			res.json(await requireTeam(req, workspace.id))
		}),
	)

	router.patch(
		'/:teamId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const team = await requireTeam(req, workspace.id)
			const changes = parseRequest(req, 'body', updateTeamBody)
			if (Object.keys(changes).length === 0) return res.json(team)
			// Deleted by someone else in between.
			if (!(await updateTeam(db, workspace.id, team.id, changes).catch(refusedName(req, changes.name ?? team.name)))) throw teamNotFound()
			announce(workspace.id, 'team.updated', team.id)
			res.json(await findTeam(db, workspace.id, team.id))
		}),
	)

	router.put(
		'/:teamId/members',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const team = await requireTeam(req, workspace.id)
			const { userIds } = parseRequest(req, 'body', teamMembersBody)
			await requireMembers(req, workspace.id, userIds)
			await replaceMembers(db, workspace.id, team.id, userIds)
			announce(workspace.id, 'team.updated', team.id)
			res.json(await findTeam(db, workspace.id, team.id))
		}),
	)

	router.delete(
		'/:teamId',
		handler(async (req, res) => {
			const { workspace } = await requireMember(db, req, managers)
			const { teamId } = parseParams(req, teamParams, teamNotFound)
			if (!(await deleteTeam(db, workspace.id, teamId))) throw teamNotFound()
			announce(workspace.id, 'team.deleted', teamId)
			res.status(204).end()
		}),
	)

	return router
}
