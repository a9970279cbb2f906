import { useCallback, useEffect, useRef, useState } from 'react'
import { conversationPresenceChannel, visitorChannel } from '#common/realtime.ts'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { listen, sendClientEvent, type PresenceMember } from '#app/realtime/pusher.client.ts'

type Agent = { userId: string; name: string }
type Seen = Agent & { until: number }

// A typing hint lasts a few seconds after the last key.
const typingForMs = 5_000
const typingEveryMs = 2_000

const fields = (data: unknown) => (typeof data === 'object' && data !== null ? data : {}) as { typing?: unknown; from?: unknown }

/** The name the app signed into the presence channel for a member (`user_info.name`), if any. */
function nameOf(member: PresenceMember): string | undefined {
	const { name } = (typeof member.info === 'object' && member.info !== null ? member.info : {}) as { name?: unknown }
	return typeof name === 'string' ? name : undefined
}

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
 * Who else is on an open conversation: the members of its presence channel `presence-conversation-{id}` are the
 * agents viewing it, and its `client-typing` events say who is typing; the visitor's channel `private-visitor-{id}`
 * says when the customer is. `typed(kind)` announces this agent typing: to the other agents, and to the customer for
 * a reply (never for a private note).
 *
 * Who sent a typing event is the `user_id` the realtime server stamps on it (every Pusher-protocol server does on
 * presence channels), never what its data says (anyone on the channel could write any name there); its name is the
 * one the app signed for that member when they joined. A sender who is not a member is nobody to show.
 */
export function useConversationLive(session: RealtimeSession | null, conversationId: string | null, me: Agent) {
	const [viewers, setViewers] = useState<Agent[]>([])
	const typing = useExpiring()
	const [customerTyping, setCustomerTyping] = useState(false)
	const lastTyped = useRef(0)
	const { userId } = me

	useEffect(() => {
		if (!session?.config.key || !conversationId) return
		const agents = conversationPresenceChannel(conversationId)
		const visitor = visitorChannel(conversationId)
		// The other members now, by user id: their names, for the typing events that follow.
		let here = new Map<string, string>()
		let customerTimer: ReturnType<typeof setTimeout> | undefined
		const leave = [
			listen(session, agents, {
				onMembers(members) {
					const before = here
					here = new Map()
					for (const member of members) {
						const name = nameOf(member)
						if (member.id !== userId && name !== undefined) here.set(member.id, name)
					}
					setViewers([...here].map(([id, name]) => ({ userId: id, name })))
					// Whoever left stopped typing too.
					for (const id of before.keys()) if (!here.has(id)) typing.remove(id)
				},
				onEvent(event, _data, sender) {
					const name = sender === undefined ? undefined : here.get(sender)
					if (event === 'client-typing' && sender !== undefined && name !== undefined) typing.add({ userId: sender, name }, typingForMs)
				},
			}),
			listen(session, visitor, {
				onEvent(event, data, sender) {
					// Agents' typing reaches us on the agents' channel; here only the customer's counts. A customer is nobody
					// the server vouches for, and agents say so for the visitor's page (not every server stamps them here).
					const said = fields(data)
					if (event !== 'client-typing' || sender !== undefined || said.from === 'agent') return
					const stopped = said.typing === false
					clearTimeout(customerTimer)
					setCustomerTyping(!stopped)
					if (!stopped) customerTimer = setTimeout(() => setCustomerTyping(false), typingForMs)
				},
			}),
		]
		return () => {
			clearTimeout(customerTimer)
			// Leaving the channel is what tells the others this agent is no longer viewing.
			for (const stop of leave) stop()
			setViewers([])
			typing.clear()
			setCustomerTyping(false)
		}
		// The session's config is new on every revalidation: its values decide.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [session?.config.key, session?.config.wsHost, session?.config.wsPort, session?.userId, conversationId, userId])

	const typed = useCallback(
		(kind: 'text' | 'note') => {
			if (!conversationId || Date.now() - lastTyped.current < typingEveryMs) return
			lastTyped.current = Date.now()
			void sendClientEvent(conversationPresenceChannel(conversationId), 'client-typing', { kind })
			if (kind === 'text') void sendClientEvent(visitorChannel(conversationId), 'client-typing', { typing: true, from: 'agent' })
		},
		[conversationId],
	)

	return { viewers, typing: typing.seen, customerTyping, typed }
}
