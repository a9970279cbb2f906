import { createCookie } from '@remix-run/node'
import { serverT } from '#app/i18n/i18n.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { type Locale } from '#locales/languages.ts'
import { ApiError, type ApiClient, type UserJson, type WorkspaceJson } from './api.ts'
import { secure } from './cookies.ts'
import { redirectWithToast } from './toast.ts'

/** An agent invitation the visitor arrived with (docs/specification.txt, section 3). */
export type Invitation = { code: string; method: 'link' | 'email' }

/** Kept while the visitor signs up or signs in, so the invitation survives without JavaScript. */
export const invitationCookie = createCookie('crm-agent-invitation', {
	path: '/',
	sameSite: 'lax',
	httpOnly: true,
	secure,
	maxAge: 7 * 24 * 60 * 60,
})

function fromParams(params: URLSearchParams | undefined): Invitation | null {
	const code = params?.get('agent_invite_code')?.trim()
	const method = params?.get('agent_invite_method')
	if (!code || code.length > 200) return null
	return { code, method: method === 'email' ? 'email' : 'link' }
}

/** The invitation in the URL itself or in its URL-decoded `redirect` parameter (docs/specification.txt, section 2). */
export function invitationInUrl(url: URL): Invitation | null {
	const target = url.searchParams.get('redirect')
	const inRedirect = target && URL.canParse(target, url.origin) ? new URL(target, url.origin).searchParams : undefined
	return fromParams(url.searchParams) ?? fromParams(inRedirect)
}

/** The invitation of this request: from its URL, else the one kept in the cookie. */
export async function currentInvitation(request: Request): Promise<{ invitation: Invitation | null; fromUrl: boolean }> {
	const inUrl = invitationInUrl(new URL(request.url))
	if (inUrl) return { invitation: inUrl, fromUrl: true }
	const stored: unknown = await invitationCookie.parse(request.headers.get('Cookie'))
	const kept = stored && typeof stored === 'object' ? fromParams(new URLSearchParams(stored as Record<string, string>)) : null
	return { invitation: kept, fromUrl: false }
}

export async function keepInvitation(invitation: Invitation): Promise<Headers> {
	return new Headers({ 'Set-Cookie': await invitationCookie.serialize({ agent_invite_code: invitation.code, agent_invite_method: invitation.method }) })
}

export async function forgetInvitation(): Promise<Headers> {
	return new Headers({ 'Set-Cookie': await invitationCookie.serialize('', { maxAge: 0 }) })
}

/**
 * The page where a signed-in user sees which workspace invites them, and who, and joins only by
 * pressing Join: opening a link never makes anyone a member of anything.
 */
export function invitationPath(locale: string, invitation: Invitation): string {
	const query = new URLSearchParams({ agent_invite_code: invitation.code, agent_invite_method: invitation.method })
	return `/${locale}/dashboard/invitations/accept?${query}`
}

export type InvitationPreview = { workspaceName: string; inviterName: string | null; role: string; expiresAt: string }

/** What the auth pages and the confirmation page say about the invitation: where it leads, or why it cannot (with the API's status). */
export async function previewInvitation(
	client: ApiClient,
	invitation: Invitation,
): Promise<{ preview: InvitationPreview; problem: null; status: 200 } | { preview: null; problem: string; status: number }> {
	try {
		return { preview: await client.post<InvitationPreview>('/workspaces/invitations/preview', invitation), problem: null, status: 200 }
	} catch (error) {
		if (error instanceof ApiError && error.statusCode < 500) return { preview: null, problem: error.message, status: error.statusCode }
		throw error
	}
}

/** Joins the invitation's workspace; with `makeCurrent: false` the user stays in the current one. The answer: the user and the workspace. */
export const acceptInvitation = (client: ApiClient, invitation: Invitation, options: { makeCurrent?: boolean } = {}) =>
	client.post<{ user: UserJson; workspace: WorkspaceJson }>('/workspaces/invitations/accept', { ...invitation, ...options })

/**
 * For the sign-up and sign-in pages: what the pending invitation leads to (or why it cannot), and
 * the header that keeps a valid one from the URL (or drops an invalid one).
 */
export async function invitationNotice(request: Request, client: ApiClient) {
	const { invitation, fromUrl } = await currentInvitation(request)
	if (!invitation) return { notice: null, headers: undefined }
	const notice = await previewInvitation(client, invitation)
	const headers = notice.problem ? await forgetInvitation() : fromUrl ? await keepInvitation(invitation) : undefined
	return { notice, headers }
}

/**
 * Joins the invited workspace with a signed-in client and lands in it; the kept invitation is
 * cleared either way. An invitation that cannot be used says why, and the user goes `otherwise`.
 * Only for the post of a form that named the workspace (the sign-up form's notice).
 */
export async function joinInvitation(
	client: ApiClient,
	invitation: Invitation,
	options: { locale: Locale; otherwise: string; headers?: HeadersInit },
): Promise<Response> {
	const t = await serverT(options.locale)
	const headers = combineHeaders(options.headers, await forgetInvitation())
	try {
		const { workspace } = await acceptInvitation(client, invitation)
		return redirectWithToast(`/${options.locale}/dashboard`, { type: 'success', title: t('invitations.joined', { workspace: workspace.name }) }, { headers })
	} catch (error) {
		if (!(error instanceof ApiError) || error.statusCode >= 500 || error.statusCode === 401) throw error
		return redirectWithToast(options.otherwise, { type: 'error', title: t('invitations.failed'), description: error.message }, { headers })
	}
}
