import { type LoaderFunctionArgs } from '@remix-run/node'
import { streamAttachment, workspaceAttachment } from '#app/.server/attachments.ts'
import { requireUser } from '#app/.server/session.ts'

/** A file of the inbox, streamed through from the API to a member of the current workspace (404 to anyone else). */
export async function loader(args: LoaderFunctionArgs) {
	const { user, api } = await requireUser(args)
	return streamAttachment(() => workspaceAttachment(api, user.workspace.id, args.params.attachmentId ?? ''))
}
