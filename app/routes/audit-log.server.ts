import { type LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '#app/.server/session.ts'
import { redirectWithToast } from '#app/.server/toast.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { canManage } from '#common/roles.ts'

/** The audit log's filters as the page's GET form sends them; empty means any, and the API checks the rest. */
export function auditFilters(params: URLSearchParams) {
	return {
		actorId: params.get('actorId') ?? '',
		kind: params.get('kind') ?? '',
		from: params.get('from') ?? '',
		to: params.get('to') ?? '',
	}
}

export type AuditFilters = ReturnType<typeof auditFilters>

/** Owners and admins only: an agent is sent back to the overview, as the API would answer 403. */
export async function requireAuditReader(args: LoaderFunctionArgs) {
	const signedIn = await requireUser(args)
	if (!canManage(signedIn.user.workspace.role)) {
		const t = await serverT(signedIn.locale)
		throw await redirectWithToast(`/${signedIn.locale}/dashboard`, { type: 'error', title: t('audit:forbidden') })
	}
	return signedIn
}
