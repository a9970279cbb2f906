import { type LoaderFunctionArgs } from '@remix-run/node'
import { exportRecipients } from '#app/.server/campaigns.ts'
import { streamCsv } from '#app/.server/exports.ts'
import { requireUser } from '#app/.server/session.ts'

/** A campaign's recipients (of the status filter, if any) as CSV, streamed through from the API. */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const url = new URL(args.request.url)
	const campaignId = url.searchParams.get('campaign') ?? ''
	const status = url.searchParams.get('status') || undefined
	return streamCsv(() => exportRecipients(api, user.workspace.id, campaignId, { status }), {
		locale,
		request: args.request,
		to: `/${locale}/dashboard/campaign-manager?campaign=${encodeURIComponent(campaignId)}`,
		title: 'campaigns.exportFailed',
	})
}
