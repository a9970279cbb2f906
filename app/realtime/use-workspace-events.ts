import { useEffect } from 'react'
import { workspaceChannel, workspacePresenceChannel } from '#common/realtime.ts'
import { type RealtimeSession } from './config.ts'
import { listen } from './pusher.client.ts'
import { throttle } from './throttle.ts'
import { useRevalidateWhenIdle } from './use-revalidate-when-idle.ts'

// A burst of events (an import, a busy inbox) reloads the page's data once a second at most.
const revalidateIntervalMs = 1000

/**
 * Keeps the page's data live: any event on the workspace's channel, and a subscription renewed
 * after a dropped connection, revalidate the loaders (an event is a hint, never the data itself).
 * Also joins the workspace's presence channel, so the team can see who is online.
 */
export function useWorkspaceEvents(workspaceId: string | undefined, session: RealtimeSession) {
	const { userId } = session
	const revalidate = useRevalidateWhenIdle()
	// Loader data is new on every revalidation: depend on the values, not on the object.
	const { key, cluster, wsHost, wsPort, forceTLS } = session.config
	useEffect(() => {
		if (!workspaceId) return
		const current: RealtimeSession = { userId, config: { key, cluster, wsHost, wsPort, forceTLS } }
		const refresh = throttle(revalidate, revalidateIntervalMs)
		const leave = [
			listen(current, workspaceChannel(workspaceId), { onEvent: refresh, onResubscribed: refresh }),
			listen(current, workspacePresenceChannel(workspaceId), {}),
		]
		return () => {
			for (const stop of leave) stop()
			refresh.cancel()
		}
	}, [workspaceId, userId, key, cluster, wsHost, wsPort, forceTLS, revalidate])
}
