import { useCallback, useEffect, useRef, useState } from 'react'
import { conversationChannel, visitorChannel, workspacePresenceChannel } from '#common/realtime.ts'
import { type RealtimeSession } from '#app/realtime/config.ts'
import { listen, presenceMemberInfo, sendClientEvent } from '#app/realtime/pusher.client.ts'

type Agent = { userId: string; name: string }
type Seen = Agent & { until: number }

// A typing hint lasts a few seconds after the last key; a viewer is announced again well before they expire.
const typingForMs = 5_000
const typingEveryMs = 2_000
const viewingEveryMs = 20_000
const viewingForMs = 45_000

const fields = (data: unknown) => (typeof data === 'object' && data !== null ? data : {}) as { hello?: unknown; leaving?: unknown; typing?: unknown; from?: unknown }

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
 *
 * Who sent an event is the `user_id` the realtime server stamps on it, never what its data says (anyone
 * on the channel could write any name there); the name is the one the app signed into the workspace's
 * presence channel, or the page's member list while presence is still arriving.
 */
export function useConversationLive(session: RealtimeSession | null, workspaceId: string, conversationId: string | null, me: Agent, members: Agent[]) {
	const viewers = useExpiring()
	const typing = useExpiring()
	const [customerTyping, setCustomerTyping] = useState(false)
	const lastTyped = useRef(0)
	const { userId } = me
	// Read when an event arrives: a revalidation's new list must not resubscribe.
	const membersRef = useRef(members)
	useEffect(() => {
		membersRef.current = members
	}, [members])

	useEffect(() => {
		if (!session?.config.key || !conversationId) return
		const agents = conversationChannel(conversationId)
		const visitor = visitorChannel(conversationId)
		const presence = workspacePresenceChannel(workspaceId)
		const agentOf = (sender: string | undefined): Agent | undefined => {
			if (sender === undefined || sender === userId) return undefined
			const info = presenceMemberInfo(presence, sender) as { name?: unknown } | undefined
			const name = typeof info?.name === 'string' ? info.name : membersRef.current.find((member) => member.userId === sender)?.name
			// Someone who is not (or no longer) a member of the workspace is nobody to show.
			return name === undefined ? undefined : { userId: sender, name }
		}
		const announce = (extra: Record<string, unknown> = {}) => void sendClientEvent(agents, 'client-viewing', extra)
		let customerTimer: ReturnType<typeof setTimeout> | undefined
		const leave = [
			listen(session, agents, {
				onEvent(event, data, sender) {
					const agent = agentOf(sender)
					if (!agent) return
					const said = fields(data)
					if (event === 'client-typing') typing.add(agent, typingForMs)
					if (event !== 'client-viewing') return
					if (said.leaving) return viewers.remove(agent.userId)
					viewers.add(agent, viewingForMs)
					// A newcomer learns at once who is already here.
					if (said.hello) announce()
				},
				// Subscribed (again, after a dropped connection): say hello, and whoever is here answers.
				onSubscribed: () => announce({ hello: true }),
			}),
			listen(session, visitor, {
				onEvent(event, data, sender) {
					// Agents' typing reaches us on the agents' channel too; here only the customer's counts, and a
					// customer is nobody the server vouches for (agents are signed in, and say so for the visitor's page).
					const said = fields(data)
					if (event !== 'client-typing' || sender !== undefined || said.from === 'agent') return
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
	}, [session?.config.key, session?.config.wsHost, session?.config.wsPort, session?.userId, workspaceId, conversationId, userId])

	const typed = useCallback(
		(kind: 'text' | 'note') => {
			if (!conversationId || Date.now() - lastTyped.current < typingEveryMs) return
			lastTyped.current = Date.now()
			void sendClientEvent(conversationChannel(conversationId), 'client-typing', { kind })
			if (kind === 'text') void sendClientEvent(visitorChannel(conversationId), 'client-typing', { typing: true, from: 'agent' })
		},
		[conversationId],
	)

	return { viewers: viewers.seen, typing: typing.seen, customerTyping, typed }
}
