import { type LoaderFunctionArgs } from '@remix-run/node'
import { refusalToast, requireUser } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'

/** A campaign's recipients (of the status filter, if any) as CSV, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const campaignId = url.searchParams.get('campaign') ?? ''
	const status = url.searchParams.get('status') || undefined
	const answer = await api
		.stream(`/workspaces/${user.workspace.id}/campaigns/${encodeURIComponent(campaignId)}/recipients`, { status, format: 'csv' }, 'text/csv')
		.catch(async (error: unknown) => {
			const t = await serverT(locale)
			throw await refusalToast(error, {
				locale,
				request: args.request,
				to: `/${locale}/dashboard/campaign-manager?campaign=${encodeURIComponent(campaignId)}`,
				title: t('campaigns.exportFailed'),
			})
		})
	const headers = new Headers({ 'Cache-Control': 'no-store' })
	for (const name of ['Content-Type', 'Content-Disposition']) {
		const value = answer.headers.get(name)
		if (value) headers.set(name, value)
	}
	return new Response(answer.body, { status: 200, headers })
}
