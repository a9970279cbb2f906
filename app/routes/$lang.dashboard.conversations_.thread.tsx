import { type LoaderFunctionArgs } from '@remix-run/node'
import { openedPart, type OpenedPart } from '#app/.server/inbox.ts'
import { requireUser } from '#app/.server/session.ts'

/**
 * The open conversation's part of the inbox (`?conversation=`, `?before=`, `?templates`), as JSON:
 * what the inbox's clientLoader asks for when a navigation changes only the open conversation, so
 * that the list, the labels, the members and the channels are not loaded again (issue 28, goal 4).
 */
export async function loader(args: LoaderFunctionArgs) {
	const { user, locale, api } = await requireUser(args)
	const part: ThreadPart = { workspaceId: user.workspace.id, ...(await openedPart(api, user.workspace.id, new URL(args.request.url), locale, args.request)) }
	return Response.json(part)
}

/** The answer: the part, and the workspace it is of (the user's current one, which another tab may have switched). */
export type ThreadPart = OpenedPart & { workspaceId: string }
