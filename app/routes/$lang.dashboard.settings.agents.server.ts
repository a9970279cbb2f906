import { parseWithZod } from '@conform-to/zod'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { type ApiClient, type InvitationJson, type MemberJson } from '#app/.server/api.ts'
import { apiFailure, confirmedDeletion, postedOf, replyInvalid, replyWithApiError, type Posted } from '#app/.server/forms.ts'
import { createInvitation, resendInvitation, revokeInvitation } from '#app/.server/invitations.ts'
import { setCapacity } from '#app/.server/members.ts'
import { requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { formOf } from '#app/utils/http.ts'
import { canManage } from '#common/roles.ts'
import { type Locale } from '#locales/languages.ts'
import { inviteSchema } from './$lang.dashboard.settings.agents.schema.ts'

/** Owners and admins only: anyone else is sent back to the overview. */
export async function requireManager(args: LoaderFunctionArgs | ActionFunctionArgs) {
	const signedIn = await requireUser(args)
	if (!canManage(signedIn.user.workspace.role)) {
		const t = await serverT(signedIn.locale)
		throw await redirectWithToast(`/${signedIn.locale}/dashboard`, { type: 'error', title: t('agents.forbidden') })
	}
	return signedIn
}

/** What each of the page's forms is given, and the workspace. */
type AgentsPost = Posted & { workspaceId: string }

/** The invitations page's action: a row's buttons and the capacity forms name their intent, the invitation form none. */
export async function agentsAction(args: ActionFunctionArgs) {
	const { request } = args
	const { user, locale, api } = await requireManager(args)
	const formData = await formOf(request)
	const posted: AgentsPost = {
		...(await postedOf(request, formData, { locale, api }, `/${locale}/dashboard/settings/agents`)),
		workspaceId: user.workspace.id,
	}
	switch (formData.get('intent')) {
		case 'capacity':
			return saveCapacity(api, posted.workspaceId, formData, { locale, request, here: pageOf(request, posted.here) })
		case 'resend':
			return resend(posted)
		case 'revoke':
			return revoke(posted)
		default:
			return invite(posted)
	}
}

const invitationIdOf = (formData: FormData) => String(formData.get('invitationId') ?? '')

/** A failed resend is said beside its button (or above the list, where its row is gone), whatever the status. */
async function resend({ api, workspaceId, formData, locale, request, here }: AgentsPost) {
	const invitationId = invitationIdOf(formData)
	let answer: { message: string }
	try {
		answer = await resendInvitation(api, workspaceId, invitationId)
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		return data({ resendRefused: { invitationId, message } }, { status })
	}
	return redirectWithToast(here, { type: 'success', title: answer.message })
}

/** Revoking is the list's confirmed deletion: a refusal stays in its confirmation. */
function revoke({ api, workspaceId, formData, locale, request, here, t }: AgentsPost) {
	return confirmedDeletion(() => revokeInvitation(api, workspaceId, invitationIdOf(formData)), { locale, request, here, done: t('agents.revoked') })
}

async function invite({ api, workspaceId, formData, signedIn, here, t }: AgentsPost) {
	const submission = parseWithZod(formData, { schema: inviteSchema })
	if (submission.status !== 'success') return replyInvalid(submission)
	let invitation: InvitationJson
	try {
		invitation = await createInvitation(api, workspaceId, submission.value)
	} catch (error) {
		return replyWithApiError(submission, error, { signedIn })
	}
	const title = invitation.method === 'email' ? t('agents.sent', { email: invitation.email ?? '' }) : t('agents.created')
	return redirectWithToast(`${here}?created=${invitation.id}`, { type: 'success', title })
}

/** The page of members the form was on, and nothing else of the address (an open confirmation). */
export function pageOf(request: Request, here: string) {
	const page = new URL(request.url).searchParams.get('page')
	return page ? `${here}?page=${encodeURIComponent(page)}` : here
}

/** A member's capacity: empty for the workspace's default; what the API refuses is said beside the field, as typed. */
export async function saveCapacity(
	api: ApiClient,
	workspaceId: string,
	formData: FormData,
	{ locale, request, here }: { locale: Locale; request: Request; here: string },
) {
	const t = await serverT(locale)
	const userId = String(formData.get('userId') ?? '')
	const value = String(formData.get('capacity') ?? '').trim()
	const capacity = value === '' ? null : Number(value)
	const refuse = (message: string, status: number) => data({ capacityRefused: { userId, value, message } }, { status })
	if (capacity !== null && !Number.isFinite(capacity)) return refuse(t('forms.number'), 400)
	let member: MemberJson
	try {
		member = await setCapacity(api, workspaceId, userId, capacity)
	} catch (error) {
		const { message, status } = await apiFailure(error, locale, request)
		return refuse(message, status)
	}
	const title =
		member.capacity === null ? t('capacity.savedDefault', { name: member.name }) : t('capacity.saved', { name: member.name, count: member.capacity })
	return redirectWithToast(here, { type: 'success', title })
}
