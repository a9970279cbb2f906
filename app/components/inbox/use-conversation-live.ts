import { useCallback, useEffect, useRef, useState } from 'react'
import { conversationChannel, visitorChannel } from '#common/realtime.ts'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { listen, sendClientEvent } from '#app/realtime/pusher.client.ts'

type Agent = { userId: string; name: string }
type Seen = Agent & { until: number }

// A typing hint lasts a few seconds after the last key; a viewer is announced again well before they expire.
const typingForMs = 5_000
const typingEveryMs = 2_000
const viewingEveryMs = 20_000
const viewingForMs = 45_000

const isAgent = (data: unknown): data is Agent & Record<string, unknown> =>
	typeof data === 'object' && data !== null && typeof (data as Agent).userId === 'string' && typeof (data as Agent).name === 'string'

/** Agents seen lately, keyed by user id, forgotten when their time is up. */
function useExpiring() {
	const [seen, setSeen] = useState<Record<string, Seen>>({})
	const add = useCallback((agent: Agent, forMs: number) => setSeen((current) => ({ ...current, [agent.userId]: { ...agent, until: Date.now() + forMs } })), [])
	const remove = useCallback((userId: string) => setSeen(({ [userId]: _gone, ...rest }) => rest), [])
	const clear = useCallback(() => setSeen({}), [])
	useEffect(() => {
		const timer = setInterval(() => {
			setSeen((current) => {
				const now = Date.now()
				const kept = Object.values(current).filter((entry) => entry.until > now)
				return kept.length === Object.keys(current).length ? current : Object.fromEntries(kept.map((entry) => [entry.userId, entry]))
			})
		}, 1000)
		return () => clearInterval(timer)
	}, [])
	return { seen: Object.values(seen), add, remove, clear }
}

/**
 * What the agents of an open conversation tell each other with client events on
 * `private-conversation-{id}` (who is viewing it, who is typing), and what the visitor's channel
 * `private-visitor-{id}` says of the customer typing. `typed(kind)` announces this agent typing: to the
 * other agents, and to the customer for a reply (never for a private note).
 */
export function useConversationLive(session: RealtimeSession | null, conversationId: string | null, me: Agent) {
	const viewers = useExpiring()
	const typing = useExpiring()
	const [customerTyping, setCustomerTyping] = useState(false)
	const lastTyped = useRef(0)
	const { userId, name } = me

	useEffect(() => {
		if (!session?.config.key || !conversationId) return
		const agents = conversationChannel(conversationId)
		const visitor = visitorChannel(conversationId)
		const announce = (extra: Record<string, unknown> = {}) => void sendClientEvent(agents, 'client-viewing', { userId, name, ...extra })
		let customerTimer: ReturnType<typeof setTimeout> | undefined
		const leave = [
			listen(session, agents, {
				onEvent(event, data) {
					if (!isAgent(data) || data.userId === userId) return
					if (event === 'client-typing') typing.add(data, typingForMs)
					if (event !== 'client-viewing') return
					if (data.leaving) return viewers.remove(data.userId)
					viewers.add(data, viewingForMs)
					// A newcomer learns at once who is already here.
					if (data.hello) announce()
				},
				// Subscribed (again, after a dropped connection): say hello, and whoever is here answers.
				onSubscribed: () => announce({ hello: true }),
			}),
			listen(session, visitor, {
				onEvent(event, data) {
					// Agents' typing reaches us on the agents' channel too; here only the customer's counts.
					const said = (typeof data === 'object' && data !== null ? data : {}) as { typing?: unknown; from?: unknown }
					if (event !== 'client-typing' || said.from === 'agent' || isAgent(data)) return
					const stopped = said.typing === false
					clearTimeout(customerTimer)
					setCustomerTyping(!stopped)
					if (!stopped) customerTimer = setTimeout(() => setCustomerTyping(false), typingForMs)
				},
			}),
		]
		const again = setInterval(() => announce(), viewingEveryMs)
		return () => {
			clearInterval(again)
			clearTimeout(customerTimer)
			announce({ leaving: true })
			for (const stop of leave) stop()
			viewers.clear()
			typing.clear()
			setCustomerTyping(false)
		}
		// The session's config is new on every revalidation: its values decide.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [session?.config.key, session?.config.wsHost, session?.config.wsPort, session?.userId, conversationId, userId, name])

	const typed = useCallback(
		(kind: 'text' | 'note') => {
			if (!conversationId || Date.now() - lastTyped.current < typingEveryMs) return
			lastTyped.current = Date.now()
			void sendClientEvent(conversationChannel(conversationId), 'client-typing', { userId, name, kind })
			if (kind === 'text') void sendClientEvent(visitorChannel(conversationId), 'client-typing', { typing: true, from: 'agent' })
		},
		[conversationId, userId, name],
	)

	return { viewers: viewers.seen, typing: typing.seen, customerTyping, typed }
}
