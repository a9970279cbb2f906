import { useEffect } from 'react'

const counted = /^\(\d+\+?\) /

/** The tab's title with the unread count first ("(3) Conversations · CRM"), kept when a page changes its title. */
export function useUnreadTitle(unread: number) {
	useEffect(() => {
		const apply = () => {
			const bare = document.title.replace(counted, '')
			const wanted = unread > 0 ? `(${unread}) ${bare}` : bare
			if (document.title !== wanted) document.title = wanted
		}
		apply()
		// Each page sets its own title (Remix's <Meta>), on navigation and when its data changes.
		const observer = new MutationObserver(apply)
		observer.observe(document.head, { childList: true, subtree: true, characterData: true })
		return () => {
			observer.disconnect()
			document.title = document.title.replace(counted, '')
		}
	}, [unread])
}
