import { ApiError, type ApiClient } from './api.ts'

// The API's answer headers that say what the file is and how a browser may treat it.
const passed = ['Content-Type', 'Content-Length', 'Content-Disposition', 'X-Content-Type-Options', 'Content-Security-Policy', 'Cache-Control']

/** The API's answer streamed on as it comes, with those of its headers `names` lists, beside `headers`. */
export function streamOn(answer: Response, names: readonly string[], headers = new Headers()): Response {
	for (const name of names) {
		const value = answer.headers.get(name)
		if (value) headers.set(name, value)
	}
	return new Response(answer.body, { status: 200, headers })
}

/** A file streamed through from the API with its headers; the API's refusal (404, translated) passed on as text. */
export async function streamAttachment(load: () => Promise<Response>): Promise<Response> {
	try {
		return streamOn(await load(), passed)
	} catch (error) {
		if (!(error instanceof ApiError) || error.statusCode >= 500) throw error
		return new Response(error.message, {
			status: error.statusCode,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' },
		})
	}
}

/** A file of a workspace's conversations, to stream on: the API answers members of that workspace only. */
export const workspaceAttachment = (api: ApiClient, workspaceId: string, attachmentId: string) =>
	api.stream(`/workspaces/${workspaceId}/attachments/${encodeURIComponent(attachmentId)}`)
