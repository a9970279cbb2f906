import { useMatches } from '@remix-run/react'
import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react'
import { inboxChangedEvent, workspaceChannel, workspacePresenceChannel } from '#common/realtime.ts'
import { type RealtimeSession } from './config.ts'
import { createEventSequence, type WorkspaceEventEntry } from './event-sequence.ts'
import { listen, listenAsUser } from './pusher.client.ts'
import { throttle } from './throttle.ts'
import { useRevalidateWhenIdle } from './use-revalidate-when-idle.ts'

// A burst of events a page cannot merge (an import, a gap and its reload) reloads it once a second at most.
const revalidateIntervalMs = 1000

/**
 * The events the shell itself shows (the workspace's name, the member's role and menu, the count of
 * the member's teams' conversations): they reload the page. Any other event reloads a page only if one of its routes names it in its handle
 * (`handle.live`, prefixes of event names); a page that merges events into its data
 * (`useLiveData`) needs no reload for those.
 */
const shellEvents = ['workspace.', 'member.', 'team.']

export type RouteLive = { live?: readonly string[] }

type Listener = (entry: WorkspaceEventEntry) => void
/** `recent`: the last events handed on, in order, for a page whose new data was read while they came. */
export type WorkspaceEvents = { listen: (listener: Listener) => () => void; recent: readonly WorkspaceEventEntry[] }

export const WorkspaceEventsContext = createContext<WorkspaceEvents | null>(null)

// About a minute of a busy workspace (5 customer messages a second, three events each).
const recentKept = 1000

function createBus(): WorkspaceEvents & { emit: Listener } {
	const listeners = new Set<Listener>()
	const recent: WorkspaceEventEntry[] = []
	return {
		listen(listener) {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		recent,
		emit(entry) {
			recent.push(entry)
			if (recent.length > recentKept) recent.splice(0, recent.length - recentKept)
			listeners.forEach((listener) => listener(entry))
		},
	}
}

/**
 * Keeps the page live: the workspace channel's events, in their order (a gap or a dropped
 * connection reloads the page once), handed to the pages that merge them and reloading those that
 * name them. Also joins the workspace's presence channel, so the team can see who is online.
 * An agent who sees only their teams' conversations may not hear the workspace's channel: told on
 * their own that something they see changed, their page reloads its data (at most once a second).
 */
export function useWorkspaceEvents(workspaceId: string | undefined, session: RealtimeSession, ownTeamsOnly = false): WorkspaceEvents {
	const { userId } = session
	const revalidate = useRevalidateWhenIdle()
	const [bus] = useState(createBus)
	const interests = useRef<readonly string[]>(shellEvents)
	const named = useMatches()
		.flatMap((match) => (match.handle as RouteLive | undefined)?.live ?? [])
		.join(' ')
	useEffect(() => {
		interests.current = [...shellEvents, ...named.split(' ').filter(Boolean)]
	}, [named])
	// Loader data is new on every revalidation: depend on the values, not on the object.
	const { key, cluster, wsHost, wsPort, forceTLS } = session.config
	useEffect(() => {
		if (!workspaceId) return
		const current: RealtimeSession = { userId, config: { key, cluster, wsHost, wsPort, forceTLS } }
		const refresh = throttle(revalidate, revalidateIntervalMs)
		const sequence = createEventSequence({
			deliver(entry) {
				bus.emit(entry)
				if (interests.current.some((prefix) => entry.event.startsWith(prefix))) refresh()
			},
			gap: refresh,
		})
		const leave = [
			ownTeamsOnly
				? listenAsUser(current, inboxChangedEvent, (data) => {
						if ((data as { workspaceId?: unknown } | null)?.workspaceId === workspaceId) refresh()
					})
				: listen(current, workspaceChannel(workspaceId), {
						onEvent: (event, data) => sequence.receive({ event, data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {} }),
						onResubscribed: sequence.lost,
					}),
			listen(current, workspacePresenceChannel(workspaceId), {}),
		]
		return () => {
			for (const stop of leave) stop()
			sequence.stop()
			refresh.cancel()
		}
	}, [workspaceId, ownTeamsOnly, userId, key, cluster, wsHost, wsPort, forceTLS, revalidate, bus])
	return bus
}

/** What a page does with an event: nothing it shows changed, its data changed, or it must reload. */
export type Merged<T> = { kind: 'same' } | { kind: 'changed'; data: T } | { kind: 'reload' }

/**
 * A page's data from its loader, kept up to date by `merge` with each workspace event numbered above
 * `since` (the number the loader read before its data: what came after it is not in the data),
 * those that came while the data was on its way included. A number skipped, or an event `merge`
 * cannot settle, reloads the page, which starts it afresh. New loader data (a navigation, a reload)
 * replaces what was merged. `merge` is a module's function; what it needs of the page is `view`.
 */
export function useLiveData<T, V>(loaded: T, since: number | null, view: V, merge: Merge<T, V>): T {
	return useLiveState(loaded, since, view, merge).data
}

/**
 * useLiveData's data with the number of the last event merged into it (`last`; null without the
 * loader's), and whether it is `stale` (a reload is on its way): a page that keeps its data for a
 * later navigation keeps them with it (app/utils/inbox-navigation.ts).
 */
export function useLiveState<T, V>(loaded: T, since: number | null, view: V, merge: Merge<T, V>): { data: T; last: number | null; stale: boolean } {
	const events = useContext(WorkspaceEventsContext)
	const revalidate = useRevalidateWhenIdle()
	const [state, setState] = useState(() => start(loaded, since, view, events))
	let current = state
	if (state.loaded !== loaded) {
		current = start(loaded, since, view, events)
		setState(current)
	}
	const refresh = useMemo(() => throttle(revalidate, revalidateIntervalMs), [revalidate])
	useEffect(() => {
		if (current.stale) refresh()
	}, [current.stale, refresh])
	useEffect(() => refresh.cancel, [refresh])
	useEffect(() => events?.listen((entry) => setState((previous) => apply(previous, entry, merge))), [events, merge])
	return current

	function start(data: T, last: number | null, inView: V, bus: WorkspaceEvents | null): LiveState<T, V> {
		let begun: LiveState<T, V> = { loaded: data, data, last, view: inView, stale: false }
		for (const entry of bus?.recent ?? []) begun = apply(begun, entry, merge)
		return begun
	}
}

type Merge<T, V> = (data: T, view: V, entry: WorkspaceEventEntry) => Merged<T>
type LiveState<T, V> = { loaded: T; data: T; last: number | null; view: V; stale: boolean }

function apply<T, V>(state: LiveState<T, V>, entry: WorkspaceEventEntry, merge: Merge<T, V>): LiveState<T, V> {
	const seq = entry.data.seq as number
	if (state.stale || (state.last !== null && seq <= state.last)) return state
	// Without the loader's number, or with one skipped, what the data lacks is unknown.
	if (state.last === null || seq > state.last + 1) return { ...state, stale: true }
	const merged = merge(state.data, state.view, entry)
	if (merged.kind === 'reload') return { ...state, last: seq, stale: true }
	return { ...state, last: seq, data: merged.kind === 'changed' ? merged.data : state.data }
}
