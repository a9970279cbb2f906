/**
 * A client navigation in the inbox that changes only the open conversation (a row clicked, older
 * messages, WhatsApp's templates) loads only that, from the thread route
 * (app/routes/$lang.dashboard.conversations_.thread.tsx): the list, its counts, the labels, the
 * members and the channels stay as the page has them, merged with the workspace's events as they
 * came (issue 28, goal 4). One that changes only the pane shown on a phone loads nothing. Any other
 * (another list, a reload after an action or asked for) loads the whole page.
 */

// What the open conversation's part reads; `pane` is what a phone shows of it, loaded or not.
const threadParams = new Set(['conversation', 'before', 'templates'])
const viewParams = new Set(['pane'])

function keyOf(url: URL, kept: (name: string) => boolean): string {
	const params = new URLSearchParams([...url.searchParams].filter(([name]) => kept(name)))
	params.sort()
	return `${url.pathname}?${params.toString()}`
}

export type InboxNavigation = 'page' | 'thread' | 'none'

/** What loading `next` asks of the server, the page showing what was loaded for `shown`. */
export function inboxNavigation(shown: URL, next: URL): InboxNavigation {
	// The same address again is a reload: after an action, or when the page asks for one.
	if (shown.href === next.href) return 'page'
	const list = (url: URL) => keyOf(url, (name) => !threadParams.has(name) && !viewParams.has(name))
	if (list(shown) !== list(next)) return 'page'
	const thread = (url: URL) => keyOf(url, (name) => threadParams.has(name))
	return thread(shown) === thread(next) ? 'none' : 'thread'
}

/** The thread route's address for the inbox's address `next`, in the workspace the page shows. */
export function threadAddress(next: URL, workspaceId: string): string {
	const params = new URLSearchParams(next.search)
	params.set('workspace', workspaceId)
	return `${next.pathname}/thread?${params.toString()}`
}
