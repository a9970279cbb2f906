import { type LoaderFunctionArgs } from '@remix-run/node'
import { listCannedResponses } from '#app/.server/canned-responses.ts'
import { requireUser, rethrowApiError } from '#app/.server/session.ts'

/** The composer's `/` menu: the workspace's canned responses matching `?search=`, best first (the API orders them). */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const search = (new URL(args.request.url).searchParams.get('search') ?? '').slice(0, 100)
	const cannedResponses = await listCannedResponses(api, user.workspace.id, search).catch((error: unknown) => rethrowApiError(error, locale, args.request))
	// The search it answers, so that the menu knows a stale answer from this one's.
	return { cannedResponses: cannedResponses.slice(0, 8).map(({ id, shortCode, content }) => ({ id, shortCode, content })), search }
}

export type CannedLoader = typeof loader
