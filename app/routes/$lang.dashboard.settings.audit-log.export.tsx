import { type LoaderFunctionArgs } from '@remix-run/node'
import { exportAuditLog } from '#app/.server/audit-log.ts'
import { streamCsv } from '#app/.server/exports.ts'
import { auditFilters, requireAuditReader } from './audit-log.server.ts'

/** The audit log as CSV, with the page's filters, streamed through from the API (which records nothing for reading it). */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireAuditReader(args)
	const filters = auditFilters(new URL(args.request.url).searchParams)
	return streamCsv(() => exportAuditLog(api, user.workspace.id, filters), {
		locale,
		request: args.request,
		to: `/${locale}/dashboard/settings/audit-log`,
		title: 'audit:loadFailed',
	})
}
