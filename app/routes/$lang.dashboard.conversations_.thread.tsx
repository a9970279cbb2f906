import { type LoaderFunctionArgs } from '@remix-run/node'
import { openedPart, type OpenedPart } from '#app/.server/inbox.ts'
import { signedInApi } from '#app/.server/session.ts'
import { serverT } from '#app/i18n/i18n.server.ts'
import { isUuid } from '#common/ids.ts'

/**
 * The open conversation's part of the inbox (`?conversation=`, `?before=`, `?templates`) in the
 * workspace the page shows (`?workspace=`), as JSON: what the inbox's clientLoader asks for when a
 * navigation changes only the open conversation, so that the list, the labels, the members and the
 * channels are not loaded again (issue 28, goal 4). The profile is not read: the API's own calls
 * check the session and the membership. Any refusal answers other than 200, and the page loads whole.
 */
export async function loader(args: LoaderFunctionArgs) {
	const { locale, api } = await signedInApi(args)
	const url = new URL(args.request.url)
	const workspaceId = url.searchParams.get('workspace') ?? ''
	if (!isUuid(workspaceId)) return Response.json({ message: (await serverT(locale))('forms.invalid'), field: 'workspace' }, { status: 400 })
	const part: ThreadPart = await openedPart(api, workspaceId, url, locale, args.request)
	return Response.json(part)
}

/** The answer, as the inbox's clientLoader reads it. */
export type ThreadPart = OpenedPart
