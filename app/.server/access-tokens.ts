import { data } from '@remix-run/node'
import { parseWithZod } from '@conform-to/zod'
import { scopesOf, tokenFormSchema, tokenRenameSchema } from '#app/components/access-tokens/schema.ts'
import { ApiError, type AccessTokenJson, type ApiClient, type CreatedTokenJson } from './api.ts'
import { confirmedDeletion, replyInvalid, replyWithApiError, type Posted } from './forms.ts'
import { refusalToast } from './session.ts'
import { redirectWithToast } from './toast.ts'

export type { AccessTokenJson }

// A workspace's access tokens, as the API answers them (api/access-tokens/router.ts).
const tokensOf = (workspaceId: string) => `/workspaces/${workspaceId}/access-tokens`

export const listAccessTokens = (api: ApiClient, workspaceId: string) =>
	api.get<{ tokens: AccessTokenJson[] }>(tokensOf(workspaceId)).then((answer) => answer.tokens)

/** The intents of the token forms (the integrations page's bot tokens, the profile's personal ones). */
export const isTokenIntent = (intent: unknown) => intent === 'token-create' || intent === 'token-revoke' || intent === 'token-rename'

/** The listed token a page's `?revoke=` (or `?rename=`) names; none when it is unknown or already gone. */
export function tokenAsked(request: Request, param: 'revoke' | 'rename', tokens: AccessTokenJson[] | null): string | null {
	const asked = new URL(request.url).searchParams.get(param)
	return tokens?.find((token) => token.id === asked)?.id ?? null
}

/**
 * A token form's post: a revocation confirmed on the page (`?revoke=`), back to `here` with a toast, a
 * token already gone counting as revoked; a new name (`?rename=`); a creation, answered in place with
 * the secret, which the page shows this once (no redirect: a reload must not show it again).
 */
export async function tokenAction(posted: Posted, workspaceId: string) {
	const { api, formData, here, t, locale, request, signedIn } = posted
	if (formData.get('intent') === 'token-rename') return renameToken(posted, workspaceId)
	if (formData.get('intent') === 'token-revoke') {
		const name = String(formData.get('name') ?? '')
		const revoke = () => api.delete(`${tokensOf(workspaceId)}/${encodeURIComponent(String(formData.get('tokenId') ?? ''))}`)
		return confirmedDeletion(revoke, { locale, request, here, done: t('integrations:tokens.revoked', { name }), goneIsDone: true })
	}
	const submission = parseWithZod(formData, { schema: tokenFormSchema })
	const intent = { intent: 'token-create' as const }
	if (submission.status !== 'success') return replyInvalid(submission, { with: intent })
	const { kind, name, expiresInDays } = submission.value
	try {
		const created = await api.post<CreatedTokenJson>(tokensOf(workspaceId), { kind, name, scopes: scopesOf(submission.value), expiresInDays })
		return data({ ...intent, result: submission.reply({ resetForm: true }), created: { name: created.token.name, secret: created.secret } })
	} catch (error) {
		// The API's scopes are the form's areas together: said above the form.
		return replyWithApiError(submission, error, { signedIn, with: intent, fieldOf: (path) => (path.startsWith('scopes') ? '' : path) })
	}
}

/** A token's new name: back to `here` with a toast; refused, the form again with the name kept and why beside it; a token gone, said in a toast. */
async function renameToken({ api, formData, here, t, locale, request, signedIn }: Posted, workspaceId: string) {
	const submission = parseWithZod(formData, { schema: tokenRenameSchema })
	const intent = { intent: 'token-rename' as const }
	if (submission.status !== 'success') return replyInvalid(submission, { with: intent })
	const { tokenId, name } = submission.value
	try {
		await api.patch(`${tokensOf(workspaceId)}/${encodeURIComponent(tokenId)}`, { name })
	} catch (error) {
		// Revoked meanwhile (or never there): no form is left to say it beside.
		if (error instanceof ApiError && error.statusCode === 404)
			return refusalToast(error, { locale, request, to: here, title: t('integrations:tokens.renameFailed') })
		return replyWithApiError(submission, error, { signedIn, with: intent })
	}
	return redirectWithToast(here, { type: 'success', title: t('integrations:tokens.renamed', { name }) })
}
