import { type LoaderFunctionArgs } from '@remix-run/node'
import { streamCsv } from '#app/.server/exports.ts'
import { exportReport } from '#app/.server/reports.ts'
import { requireUser } from '#app/.server/session.ts'
import { reportApiQuery, reportQuery, reportSearch, reportTableNames } from '#app/utils/reports.ts'

/** One table of the reports (`?table=daily|weekly|channels|agents|teams|heatmap|satisfaction` and the page's query) as CSV, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const params = new URL(args.request.url).searchParams
	const query = reportQuery(params)
	// The satisfaction surveys' table is read apart from the roll-ups' (api/reports/satisfaction.ts).
	const table = [...reportTableNames, 'satisfaction'].find((name) => name === params.get('table')) ?? 'daily'
	return streamCsv(() => exportReport(api, user.workspace.id, table, reportApiQuery(query)), {
		locale,
		request: args.request,
		to: `/${locale}/dashboard${reportSearch(query)}`,
		title: 'reports:exportFailed',
	})
}
