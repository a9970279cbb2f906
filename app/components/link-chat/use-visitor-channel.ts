import { useCallback, useEffect, useRef, useState } from 'react'
import { throttle, type Throttled } from '#app/realtime/throttle.ts'
import { useRevalidateWhenIdle } from '#app/realtime/use-revalidate-when-idle.ts'
import { visitorChannel, type RealtimeBrowserConfig } from '#common/realtime.ts'

// An agent who stopped typing without saying so (closed the tab) is no longer shown after this.
const typingShownMs = 5_000
const typingEveryMs = 2_000

/**
 * The visitor's live thread on `private-visitor-{conversationId}`, signed by the page's own
 * `realtime-auth` route with the visitor's cookie: the page revalidates on `message.created`,
 * `message.updated` and `survey.changed` (and after a dropped connection), shows the team's `client-typing`, and sends
 * its own. pusher-js loads after the page, and only once there is a conversation to listen to.
 */
export function useVisitorChannel(options: { config: RealtimeBrowserConfig; authEndpoint: string; conversationId: string | null }) {
	const { config, authEndpoint, conversationId } = options
	// The visitor's own message posts a form: its event waits for that navigation instead of aborting it.
	const revalidate = useRevalidateWhenIdle()
	const sendTypingRef = useRef<Throttled | null>(null)
	const [teamTyping, setTeamTyping] = useState(false)

	useEffect(() => {
		if (!config.key || !conversationId) return
		const key = config.key
		let stopped = false
		let disconnect = () => {}
		let typingTimer: ReturnType<typeof setTimeout> | undefined
		void import('pusher-js').then(({ default: Pusher }) => {
			if (stopped) return
			const pusher = new Pusher(key, {
				cluster: config.cluster,
				forceTLS: config.forceTLS,
				...(config.wsHost === null ? {} : { wsHost: config.wsHost, wsPort: config.wsPort ?? undefined, wssPort: config.wsPort ?? undefined }),
				enabledTransports: ['ws', 'wss'],
				enableStats: false,
				channelAuthorization: { endpoint: authEndpoint, transport: 'ajax' },
			})
			disconnect = () => pusher.disconnect()
			const channel = pusher.subscribe(visitorChannel(conversationId))
			let subscribedBefore = false
			channel.bind('pusher:subscription_succeeded', () => {
				// Subscribed again after a dropped connection: replies may have come meanwhile.
				if (subscribedBefore) revalidate()
				subscribedBefore = true
				sendTypingRef.current ??= throttle(() => channel.trigger('client-typing', { typing: true, from: 'visitor' }), typingEveryMs)
			})
			const changed = () => {
				setTeamTyping(false)
				revalidate()
			}
			channel.bind('message.created', changed)
			channel.bind('message.updated', changed)
			// The survey's form shows once the team resolves the conversation, and goes once it is answered or ended.
			channel.bind('survey.changed', () => revalidate())
			channel.bind('client-typing', (data: { typing?: boolean } | undefined) => {
				clearTimeout(typingTimer)
				const typing = data?.typing !== false
				setTeamTyping(typing)
				if (typing) typingTimer = setTimeout(() => setTeamTyping(false), typingShownMs)
			})
		})
		return () => {
			stopped = true
			clearTimeout(typingTimer)
			sendTypingRef.current?.cancel()
			sendTypingRef.current = null
			setTeamTyping(false)
			disconnect()
		}
	}, [config.key, config.cluster, config.forceTLS, config.wsHost, config.wsPort, authEndpoint, conversationId, revalidate])

	const typing = useCallback(() => sendTypingRef.current?.(), [])

	return { teamTyping, typing }
}
