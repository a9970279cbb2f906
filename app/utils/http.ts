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
