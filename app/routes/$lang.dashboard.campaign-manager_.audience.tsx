import { type LoaderFunctionArgs } from '@remix-run/node'
import { previewAudience } from '#app/.server/campaigns.ts'
import { apiRefusal, requireUser } from '#app/.server/session.ts'

/**
 * The campaign form's live count: how many contacts the channel and labels of `?channelId=&labelsIn=&labelsOut=`
 * reach, and the first of them (nothing is sent nor kept). A refused audience (a label deleted
 * meanwhile) has no count; the form's own "count" button says why.
 */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const params = new URL(args.request.url).searchParams
	const body = {
		channelId: params.get('channelId') ?? '',
		labelsIn: params.getAll('labelsIn').slice(0, 50),
		labelsOut: params.getAll('labelsOut').slice(0, 50),
	}
	const audience = await previewAudience(api, user.workspace.id, body).catch(async (error: unknown) => {
		await apiRefusal(error, locale, args.request)
		return null
	})
	return { audience }
}

export type AudienceLoader = typeof loader
