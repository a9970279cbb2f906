import { Router, type Request } from 'express'
import { type ApiContext } from '#api/context.ts'
import { recordAudit } from '#api/audit/record.ts'
import { requireUser } from '#api/http/authenticate.ts'
import { fieldError, HttpError } from '#api/http/errors.ts'
import { handler } from '#api/http/handler.ts'
import { parseRequest } from '#api/http/validate.ts'
import { managers, parseParams, requireMember } from '#api/workspaces/membership.ts'
import { canManage } from '#common/roles.ts'
import { createToken, findLiveToken, listTokens, renameToken, revokeToken, tokenJson, type AccessTokenJson } from './queries.ts'
import { createTokenBody, renameTokenBody, tokenParams } from './schemas.ts'

export type CreatedTokenJson = { token: AccessTokenJson; secret: string }

const tokenNotFound = () => new HttpError(404, 'integrations:tokens.errors.notFound')

/**
 * `/v1/workspaces/:id/access-tokens`: a member's own personal tokens, and the workspace's bot tokens
 * for owners and admins. Never reachable with a token (api/http/token-scopes.ts says `never`).
 */
export function accessTokensRouter({ db }: ApiContext): Router {
	const router = Router({ mergeParams: true })
	router.use(requireUser(db))

	router.get(
		'/',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req)
			res.json({ tokens: await listTokens(db, workspace.id, req.user.id, canManage(role)) })
		}),
	)

	router.post(
		'/',
		handler(async (req, res) => {
			const { workspace, role } = await requireMember(db, req)
			const body = parseRequest(req, 'body', createTokenBody)
			if (body.kind === 'bot' && !managers.includes(role)) throw fieldError(req, 403, 'kind', 'integrations:tokens.errors.botManagersOnly')
			const created = await db.transaction().execute(async (trx) => {
				const made = await createToken(trx, workspace.id, req.user, body)
				await recordAudit(trx, workspace.id, req.user, 'token.created', { token: body.name, kind: body.kind, scopes: made.row.scopes.join(' ') })
				return made
			})
			const answer: CreatedTokenJson = { token: tokenJson({ ...created.row, createdByName: req.user.name }), secret: created.secret }
			res.status(201).json(answer)
		}),
	)

	/** The live token `:tokenId` the caller may rename or revoke: their own personal one, or (owners and admins) a bot's. */
	async function tokenInHand(req: Request) {
		const { workspace, role } = await requireMember(db, req)
		const { tokenId } = parseParams(req, tokenParams, tokenNotFound)
		const token = await findLiveToken(db, workspace.id, tokenId)
		// Someone else's personal token is as unknown as one that does not exist.
		const mine = token?.kind === 'personal' && token.userId === req.user.id
		if (!token || (token.kind === 'personal' && !mine)) throw tokenNotFound()
		if (token.kind === 'bot' && !canManage(role)) throw new HttpError(403, 'errors.forbidden')
		return { workspace, token }
	}

	router.patch(
		'/:tokenId',
		handler(async (req: Request, res) => {
			const { workspace, token } = await tokenInHand(req)
			const { name } = parseRequest(req, 'body', renameTokenBody)
			const renamed = await db.transaction().execute(async (trx) => {
				const row = await renameToken(trx, token, name)
				if (name !== token.name) await recordAudit(trx, workspace.id, req.user, 'token.renamed', { from: token.name, to: name, kind: token.kind })
				return row
			})
			res.json({ token: tokenJson({ ...renamed, createdByName: token.createdByName }) })
		}),
	)

	router.delete(
		'/:tokenId',
		handler(async (req: Request, res) => {
			const { workspace, token } = await tokenInHand(req)
			await db.transaction().execute(async (trx) => {
				await revokeToken(trx, token.id)
				await recordAudit(trx, workspace.id, req.user, 'token.revoked', { token: token.name, kind: token.kind })
			})
			res.status(204).end()
		}),
	)

	return router
}
