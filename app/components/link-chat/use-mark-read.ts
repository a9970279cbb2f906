import { useEffect, useRef } from 'react'

/**
 * Tells the team their replies were read: whenever the page is visible (its tab in front, the
 * screen on) with `newestReplyId` on it, once per reply, by a post to `endpoint` (the page's
 * `read` route, with the visitor's cookie). A refusal (429) or a failure is tried again the next
 * time the page becomes visible or another reply arrives.
 */
export function useMarkRepliesRead(endpoint: string, newestReplyId: string | null) {
	const marked = useRef<string | null>(null)
	useEffect(() => {
		if (!newestReplyId) return
		const mark = () => {
			if (document.visibilityState !== 'visible' || marked.current === newestReplyId) return
			marked.current = newestReplyId
			const forget = () => {
				if (marked.current === newestReplyId) marked.current = null
			}
			void fetch(endpoint, { method: 'POST', body: new URLSearchParams({ upTo: newestReplyId }) }).then(
				(response) => (response.ok ? undefined : forget()),
				forget,
			)
		}
		mark()
		document.addEventListener('visibilitychange', mark)
		return () => document.removeEventListener('visibilitychange', mark)
	}, [endpoint, newestReplyId])
}
