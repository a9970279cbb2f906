import { type LoaderFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/.server/api.ts'
import { requireUser } from '#app/.server/session.ts'

// The API's answer headers that say what the file is and how a browser may treat it.
const passed = ['Content-Type', 'Content-Length', 'Content-Disposition', 'X-Content-Type-Options', 'Content-Security-Policy', 'Cache-Control']

/** A file of the inbox, streamed through from the API to a member of the current workspace (404 to anyone else). */
export async function loader(args: LoaderFunctionArgs) {
	const { user, api } = await requireUser(args)
	try {
		const answer = await api.stream(`/workspaces/${user.workspace.id}/attachments/${encodeURIComponent(args.params.attachmentId ?? '')}`)
		const headers = new Headers()
		for (const name of passed) {
			const value = answer.headers.get(name)
			if (value) headers.set(name, value)
		}
		return new Response(answer.body, { status: 200, headers })
	} catch (error) {
		if (!(error instanceof ApiError) || error.statusCode >= 500) throw error
		return new Response(error.message, { status: error.statusCode, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } })
	}
}
