import { data, redirect, type AppLoadContext } from '@remix-run/node'
import { serverT } from '#app/i18n/i18n.server.ts'
import { combineHeaders } from '#app/utils/http.ts'
import { profileUnavailable } from '#app/utils/profile-outage.ts'
import { loginPath, redirectTarget } from '#app/utils/redirect.ts'
import { isAccessTokenString } from '#common/access-tokens.ts'
import { type Locale } from '#locales/languages.ts'
import { api, ApiError, errorDetail, type ApiClient, type UserJson, type WorkspaceJson } from './api.ts'
import { getProfile, type AuthResponse } from './auth.ts'
import { newUserCookie, tokenCookie } from './cookies.ts'
import { currentInvitation, forgetInvitation, invitationPath, joinInvitation } from './invitation.ts'
import { requireLocale } from './locale.ts'
import { redirectWithToast, type Toast } from './toast.ts'

export type { UserJson as User, WorkspaceJson as Workspace } from './api.ts'

type Args = { request: Request; params: { lang?: string }; context: AppLoadContext }

async function cookieToken(request: Request): Promise<string | null> {
	const token: unknown = await tokenCookie.parse(request.headers.get('Cookie'))
	return typeof token === 'string' && token ? token : null
}

/** The session token of the crm-token cookie; an access token there (`crm_…`) is for integrations, never a browser's session. */
export async function readToken(request: Request): Promise<string | null> {
	const token = await cookieToken(request)
	return token && !isAccessTokenString(token) ? token : null
}

/** Cookies that sign the browser in (crm-token, and crm-new-user after sign-up). */
export async function signInHeaders(token: string, options: { newUser?: boolean } = {}): Promise<Headers> {
	const headers = new Headers()
	headers.append('Set-Cookie', await tokenCookie.serialize(token))
	if (options.newUser) headers.append('Set-Cookie', await newUserCookie.serialize('1'))
	return headers
}

/** Cookies that sign the browser out. */
export async function signOutHeaders(): Promise<Headers> {
	const headers = new Headers()
	headers.append('Set-Cookie', await tokenCookie.serialize('', { maxAge: 0 }))
	headers.append('Set-Cookie', await newUserCookie.serialize('', { maxAge: 0 }))
	return headers
}

export const setupWorkspacePath = (locale: string) => `/${locale}/dashboard/settings/workspaces/setup-workspace`

// One profile call serves all of a page's loaders. They share the request's load context (each
// gets its own copy of the Request); an action reads afresh, since it runs before them and may
// change the user.
const profiles = new WeakMap<AppLoadContext, Promise<UserJson>>()

function fetchProfile(request: Request, context: AppLoadContext, client: ApiClient): Promise<UserJson> {
	if (request.method !== 'GET' && request.method !== 'HEAD') return getProfile(client)
	let profile = profiles.get(context)
	if (!profile) {
		profile = getProfile(client)
		profiles.set(context, profile)
	}
	return profile
}

/**
 * Signs the browser out after the API refused its token, with the specification's toast at the
 * top centre of the login page, which brings the user back to `returnTo` afterwards.
 */
export async function unauthorized(locale: Locale, returnTo?: string): Promise<Response> {
	const t = await serverT(locale)
	return redirectWithToast(
		returnTo ? loginPath(locale, returnTo) : `/${locale}/auth/login`,
		{ type: 'error', title: t('auth.unauthorized'), position: 'top-center' },
		{ headers: await signOutHeaders() },
	)
}

/** Rethrows an API failure, turning a 401 into signing out and a 503 into the error screen's. Use in a catch of any signed-in call. */
export async function rethrowApiError(error: unknown, locale: Locale, request: Request): Promise<never> {
	if (error instanceof ApiError && error.statusCode === 401) {
		const url = new URL(request.url)
		throw await unauthorized(locale, request.method === 'GET' ? url.pathname + url.search : undefined)
	}
	// The API's database away for a moment: the error screen's "we'll be right back" with the API's
	// translated words, not a 500 (a thrown error is one, whatever it says).
	if (error instanceof ApiError && error.statusCode === 503) throw data({ message: error.message }, { status: 503, headers: { 'Retry-After': '5' } })
	throw error
}

/**
 * A list for a page: what the API answers or, when it refuses (a bad page number) or fails, the
 * empty list and an error toast saying why (docs/specification.txt, section 8: 'Failed to load workspaces.' with the
 * server's detail or 'An unexpected error occurred.'). A 401 still signs the user out.
 */
export async function listOrToast<T>(
	load: Promise<T>,
	empty: T,
	options: { locale: Locale; request: Request; title: string },
): Promise<{ list: T; failure: Toast | null }> {
	try {
		return { list: await load, failure: null }
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 401) await rethrowApiError(error, options.locale, options.request)
		const t = await serverT(options.locale)
		const description = error instanceof ApiError ? errorDetail(error) : t('error.unexpected')
		// The same id for the same page, so a revalidation does not raise it twice.
		return { list: empty, failure: { id: `${options.title}${new URL(options.request.url).search}`, type: 'error', title: options.title, description } }
	}
}

/**
 * An API refusal the user can act on (a 4xx but 401): returned to be shown. A 401 signs out;
 * anything else is a bug and goes on to the error screen.
 */
export async function apiRefusal(error: unknown, locale: Locale, request: Request): Promise<ApiError> {
	if (!(error instanceof ApiError) || error.statusCode === 401 || error.statusCode >= 500) return rethrowApiError(error, locale, request)
	return error
}

/**
 * An action's answer when the API failed: back to `to` with an error toast that says why, whatever
 * the status (a 5xx the user can retry is no crash). A 401 signs out; what is no API answer is rethrown.
 */
export async function refusalToast(error: unknown, options: { locale: Locale; request: Request; to: string; title: string }) {
	if (!(error instanceof ApiError) || error.statusCode === 401) return rethrowApiError(error, options.locale, options.request)
	return redirectWithToast(options.to, { type: 'error', title: options.title, description: errorDetail(error) })
}

export type SignedIn<U extends UserJson = UserJson> = { user: U; token: string; locale: Locale; api: ApiClient }
/** A user whose current workspace is known (what most dashboard pages need). */
export type WorkspaceUser = UserJson & { workspace: WorkspaceJson }

/**
 * The profile, or null when the API could not answer it (a 5xx or no answer at all): the
 * specification only logs that failure. A 401 signs the user out. `databaseAway`: the API said 503,
 * its database is away for a moment (api/http/errors.ts).
 */
async function profileOrOutage(
	{ request, context }: Args,
	client: ApiClient,
	locale: Locale,
): Promise<{ user: UserJson } | { user: null; databaseAway: boolean }> {
	try {
		return { user: await fetchProfile(request, context, client) }
	} catch (error) {
		if (error instanceof ApiError && error.statusCode < 500) return rethrowApiError(error, locale, request)
		console.error('Profile fetch failed:', error instanceof Error ? error.message : error)
		return { user: null, databaseAway: error instanceof ApiError && error.statusCode === 503 }
	}
}

/** The visitor's locale, token and API client; a visitor without a session goes to the login page, which brings them back. */
async function signedInClient({ request, params, context }: Args) {
	const locale = await requireLocale(request, params)
	const token = await readToken(request)
	const url = new URL(request.url)
	// A cookie holding an access token is signed out, as one the API refused.
	if (!token && isAccessTokenString((await cookieToken(request)) ?? '')) throw await unauthorized(locale, url.pathname + url.search)
	if (!token) throw redirect(loginPath(locale, url.pathname + url.search))
	return { locale, token, client: api(request, context, params, token) }
}

/**
 * A signed-in visitor's locale and API client, with no profile read: for a part of a page whose API
 * calls name their workspace, so that the API alone accepts the session and the membership (the
 * inbox's thread route). Whatever it refuses, the page loads whole, where `requireUser` decides.
 */
export async function signedInApi(args: Args): Promise<{ locale: Locale; api: ApiClient }> {
	const { locale, client } = await signedInClient(args)
	return { locale, api: client }
}

/** The user's current workspace requires two-step sign-in and they have not turned it on: its API answers 403. */
export function twoFactorMissing(user: UserJson): boolean {
	return Boolean(user.workspace?.requireTwoFactor && !user.twoFactorEnabled)
}

/** Where a member goes to turn on two-step sign-in that their workspace requires. */
export const twoFactorSetupPath = (locale: string) => `/${locale}/dashboard/profile#two-factor`

/**
 * Every protected loader and action starts here. A visitor goes to the login page (which brings
 * them back); a user without a workspace goes to setup-workspace unless `workspace: 'optional'`; a
 * member of a workspace that requires two-step sign-in, without it, goes to set it up.
 * When the profile cannot be had, the page answers 503 inside the shell (`profileUnavailable`).
 */
export async function requireUser(args: Args, options?: { workspace?: 'required'; twoFactor?: 'optional' }): Promise<SignedIn<WorkspaceUser>>
export async function requireUser(args: Args, options: { workspace: 'optional' }): Promise<SignedIn>
export async function requireUser(args: Args, options: { workspace?: 'required' | 'optional'; twoFactor?: 'optional' } = {}): Promise<SignedIn> {
	const { locale, token, client } = await signedInClient(args)
	const profile = await profileOrOutage(args, client, locale)
	if (!profile.user) throw data({ ...profileUnavailable, databaseAway: profile.databaseAway }, { status: 503 })
	const { user } = profile
	if ((options.workspace ?? 'required') === 'required') {
		if (!user.workspace) throw redirect(setupWorkspacePath(locale))
		// The workspace's owner requires two-step sign-in: its pages wait until the member has turned it on
		// (but for `twoFactor: 'optional'`, the pages that list, switch and create workspaces).
		if (options.twoFactor !== 'optional' && twoFactorMissing(user)) throw redirect(twoFactorSetupPath(locale))
	}
	return { user, token, locale, api: client }
}

/**
 * The protected layout's user. Unlike `requireUser`, a profile that cannot be had is no error: the
 * shell renders with what it has (no name, no workspace) and the page inside says why.
 */
export async function userForShell(args: Args): Promise<{ user: UserJson | null; locale: Locale; api: ApiClient }> {
	const { locale, client } = await signedInClient(args)
	return { user: (await profileOrOutage(args, client, locale)).user, locale, api: client }
}

/** Where a signed-in user goes instead of an auth page, or after signing in (docs/specification.txt, section 2). */
export function homeOf(user: UserJson, redirectParam: unknown, locale: Locale, context: AppLoadContext): string {
	if (!user.workspace) return setupWorkspacePath(locale)
	return redirectTarget(redirectParam, { locale, allowedHosts: context.config.ALLOWED_REDIRECT_HOSTS })
}

/**
 * Auth pages are for visitors: a signed-in user is sent on (docs/specification.txt, section 2). A token the API no longer
 * accepts is dropped, and the page shows.
 */
export async function requireVisitor({ request, params, context }: Args): Promise<Locale> {
	const locale = await requireLocale(request, params)
	const token = await readToken(request)
	if (!token) return locale
	const url = new URL(request.url)
	try {
		const client = api(request, context, params, token)
		const user = await fetchProfile(request, context, client)
		// An invitation opened while signed in is shown to be confirmed, never accepted by the GET: any site
		// could link here and enrol its visitors in a workspace of its choosing. Its URL carries it from now on.
		const { invitation } = await currentInvitation(request)
		if (invitation) throw redirect(invitationPath(locale, invitation), { headers: await forgetInvitation() })
		throw redirect(homeOf(user, url.searchParams.get('redirect'), locale, context))
	} catch (error) {
		if (error instanceof ApiError && error.statusCode === 401) {
			throw redirect(url.pathname + url.search, { headers: await signOutHeaders() })
		}
		throw error
	}
}

/**
 * After login or sign-up: keeps the session in the cookies and moves on to where the user belongs
 * (docs/specification.txt, section 2). With a pending invitation, a new account made by the sign-up form that named its
 * workspace joins it in that same post; an existing account signing in confirms on the invitation's page.
 */
export async function completeSignIn(
	{ request, params, context }: Args,
	auth: AuthResponse,
	options: { locale: Locale; redirect?: string; newUser?: boolean },
): Promise<Response> {
	const headers = await signInHeaders(auth.access_token, options)
	const home = homeOf(auth.user, options.redirect, options.locale, context)
	const { invitation } = await currentInvitation(request)
	if (!invitation) return redirect(home, { headers })
	if (options.newUser) return joinInvitation(api(request, context, params, auth.access_token), invitation, { locale: options.locale, otherwise: home, headers })
	return redirect(invitationPath(options.locale, invitation), { headers: combineHeaders(headers, await forgetInvitation()) })
}
