import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireUser, type SignedIn, type WorkspaceUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { canManage } from '#common/roles.ts'

/** Owners and admins only: an agent is sent back to the overview, as the API would answer 403. */
export async function requireWebhooksManager(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<SignedIn<WorkspaceUser>> {
	const signedIn = await requireUser(args)
	if (!canManage(signedIn.user.workspace.role)) {
		const t = await serverT(signedIn.locale)
		throw await redirectWithToast(`/${signedIn.locale}/dashboard`, { type: 'error', title: t('webhooks:forbidden') })
	}
	return signedIn
}
