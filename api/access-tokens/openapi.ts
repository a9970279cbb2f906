import { z } from 'zod'
import { answerSchema, type ApiDocs } from '#api/http/openapi.ts'
import { workspaceParams } from '#api/workspaces/schemas.ts'
import { tokenKinds, tokenScopes } from '#common/access-tokens.ts'
import { type AccessTokenJson } from './queries.ts'
import { createTokenBody, renameTokenBody, tokenParams } from './schemas.ts'

const scope = z.enum(tokenScopes as [(typeof tokenScopes)[number], ...(typeof tokenScopes)[number][]])

const token = answerSchema<AccessTokenJson>()(
	z
		.object({
			id: z.string().uuid(),
			kind: z.enum(tokenKinds),
			name: z.string(),
			hint: z.string().openapi({ description: "The token's last four characters, to tell it apart in a list." }),
			scopes: z.array(scope),
			userId: z.string().uuid().openapi({ description: 'Personal: the member it acts as. Bot: its own user, the author of what it does.' }),
			createdBy: z.string().uuid().nullable(),
			createdByName: z.string().nullable(),
			expiresAt: z.string().datetime().nullable(),
			lastUsedAt: z.string().datetime().nullable().openapi({ description: 'Kept to the minute.' }),
			createdAt: z.string().datetime(),
		})
		.openapi('AccessToken'),
)

/** `/v1/workspaces/{id}/access-tokens` (router.ts): in a session only, never with a token. */
export function documentAccessTokens(docs: ApiDocs) {
	docs.add({
		method: 'get',
		path: '/',
		summary: 'The access tokens',
		description: "The caller's own personal tokens, and every bot token for owners and admins; live ones only. Not with an access token.",
		params: workspaceParams,
		responses: { 200: { description: 'The tokens, newest first.', schema: z.object({ tokens: z.array(token) }) } },
		errors: [403],
	})
	docs.add({
		method: 'post',
		path: '/',
		summary: 'Create an access token',
		description:
			'A personal token (any member: it acts as them, with their role) or a bot token (owners and admins: an integration identity, an admin limited by its scopes). `expiresInDays` 1 to 3650, absent: never. The secret is in this answer only. Not with an access token.',
		params: workspaceParams,
		body: createTokenBody,
		responses: { 201: { description: 'The token and its secret, shown once.', schema: z.object({ token, secret: z.string() }) } },
		errors: [403],
	})
	docs.add({
		method: 'patch',
		path: '/:tokenId',
		summary: 'Rename an access token',
		description:
			"Your own personal token, or (owners and admins) any bot token. A bot token's user is renamed with it: what it writes from now on, and the audit log, say the new name. Not with an access token.",
		params: tokenParams,
		body: renameTokenBody,
		responses: { 200: { description: 'The renamed token.', schema: z.object({ token }) } },
		errors: [403],
	})
	docs.add({
		method: 'delete',
		path: '/:tokenId',
		summary: 'Revoke an access token',
		description: 'Your own personal token, or (owners and admins) any bot token. Not with an access token.',
		params: tokenParams,
		responses: { 204: 'Revoked.' },
		errors: [403],
	})
}
