import { type LoaderFunctionArgs } from '@remix-run/node'
import { refusalToast } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { auditFilters, requireAuditReader } from './audit-log.server.ts'

/** The audit log as CSV, with the page's filters, streamed through from the API (which records nothing for reading it). */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireAuditReader(args)
	const filters = auditFilters(new URL(args.request.url).searchParams)
	const answer = await api.stream(`/workspaces/${user.workspace.id}/audit-log/export`, filters, 'text/csv').catch(async (error: unknown) => {
		const t = await serverT(locale)
		throw await refusalToast(error, { locale, request: args.request, to: `/${locale}/dashboard/settings/audit-log`, title: t('audit:loadFailed') })
	})
	const headers = new Headers({ 'Cache-Control': 'no-store' })
	for (const name of ['Content-Type', 'Content-Disposition']) {
		const value = answer.headers.get(name)
		if (value) headers.set(name, value)
	}
	return new Response(answer.body, { status: 200, headers })
}
