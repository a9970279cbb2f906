import { type LoaderFunctionArgs } from '@remix-run/node'
import { refusalToast, requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { reportApiQuery, reportQuery, reportSearch, reportTableNames } from '#app/utils/reports.ts'

/** One table of the reports (`?table=daily|channels|agents|heatmap` and the page's query) as CSV, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const params = new URL(args.request.url).searchParams
	const query = reportQuery(params)
	const table = reportTableNames.find((name) => name === params.get('table')) ?? 'daily'
	const answer = await api
		.stream(`/workspaces/${user.workspace.id}/reports/export`, { table, ...reportApiQuery(query) }, 'text/csv')
		.catch(async (error: unknown) => {
			const t = await serverT(locale)
			throw await refusalToast(error, { locale, request: args.request, to: `/${locale}/dashboard${reportSearch(query)}`, title: t('reports:exportFailed') })
		})
	const headers = new Headers({ 'Cache-Control': 'no-store' })
	for (const name of ['Content-Type', 'Content-Disposition']) {
		const value = answer.headers.get(name)
		if (value) headers.set(name, value)
	}
	return new Response(answer.body, { status: 200, headers })
}
