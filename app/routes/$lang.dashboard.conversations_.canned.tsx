import { type LoaderFunctionArgs } from '@remix-run/node'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'

type CannedResponse = { id: string; shortCode: string; content: string }

/** The composer's `/` menu: the workspace's canned responses matching `?search=`, best first (the API orders them). */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const search = (new URL(args.request.url).searchParams.get('search') ?? '').slice(0, 100)
	const { cannedResponses } = await api
		.get<{ cannedResponses: CannedResponse[] }>(`/workspaces/${user.workspace.id}/canned-responses`, { search: search || undefined })
		.catch((error: unknown) => rethrowApiError(error, locale, args.request))
	// The search it answers, so that the menu knows a stale answer from this one's.
	return { cannedResponses: cannedResponses.slice(0, 8), search }
}

export type CannedLoader = typeof loader
