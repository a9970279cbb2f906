import { AsyncLocalStorage } from 'node:async_hooks'
import { type Request } from 'express'

type PageReads = { written: boolean; reads: Map<string, Promise<unknown>> }
const pageScope = new AsyncLocalStorage<PageReads>()

/**
 * Runs one page request of the web app, whose several in-process API calls then read what
 * authenticates them (the token's session, a membership) once. Never across page requests.
 */
export function readingOncePerPage<T>(run: () => T): T {
	return pageScope.run({ written: false, reads: new Map() }, run)
}

/**
 * `read()` shared by the API reads of one page request (see `readingOncePerPage`), by `key`.
 * Outside a page, and from the page's first write on (it may change the user), every call reads.
 */
export function readOncePerPage<T>(req: Request, key: string, read: () => Promise<T>): Promise<T> {
	const page = pageScope.getStore()
	if (page && req.method !== 'GET' && req.method !== 'HEAD') page.written = true
	if (!page || page.written) return read()
	let shared = page.reads.get(key) as Promise<T> | undefined
	if (!shared) {
		shared = read()
		page.reads.set(key, shared)
	}
	return shared
}
