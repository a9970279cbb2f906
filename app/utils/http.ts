import { data } from '@remix-run/node'

/** Merges several header sets into one; Set-Cookie and other repeatable headers are appended. */
export function combineHeaders(...sets: Array<HeadersInit | null | undefined>): Headers {
	const combined = new Headers()
	for (const set of sets) {
		if (!set) continue
		for (const [name, value] of new Headers(set).entries()) combined.append(name, value)
	}
	return combined
}

/** The fatal 404 of the specification: 'Page Not Found: {path}'. */
export function pageNotFound(request: Request): never {
	const path = new URL(request.url).pathname
	throw data({ message: `Page Not Found: ${path}`, path }, { status: 404 })
}

/**
 * The form a page was posted: a body that is no form (a malformed multipart, a type no form is sent
 * as) is a 400 with the error screen's translated words, not a 500.
 */
export async function formOf(request: Request, read: (request: Request) => Promise<FormData> = (posted) => posted.formData()): Promise<FormData> {
	try {
		return await read(request)
	} catch {
		throw data({ messageKey: 'error.badForm' }, { status: 400 })
	}
}
