import { type ConversationJson, type ConversationListJson, type ConversationViewJson, type MessageJson, type MessagePageJson } from '#app/.server/api.ts'
import { dateTimeFormat } from './intl.ts'

/** A conversation and a message as the API answers them. */
export type Conversation = ConversationJson
export type Message = MessageJson
export type AttachmentJson = MessageJson['attachments'][number]
export type ConversationStatus = Conversation['status']
export type Priority = Conversation['priority']

export type ConversationPage = ConversationListJson
export type MessagePage = MessagePageJson
/** One open conversation as the inbox reads it: with a page of its thread and its contact's other conversations. */
export type ConversationView = ConversationViewJson

export const statuses = ['open', 'pending', 'snoozed', 'resolved'] as const satisfies readonly ConversationStatus[]
export const priorities = ['none', 'low', 'medium', 'high', 'urgent'] as const satisfies readonly Priority[]
export const sorts = ['activity', 'created', 'priority'] as const
export const snoozePresets = ['hour', 'tomorrow', 'week'] as const
export type SnoozePreset = (typeof snoozePresets)[number]

const pick = <T extends string>(values: readonly T[], value: string | null, fallback: T): T => values.find((candidate) => candidate === value) ?? fallback

/** The list's tab, filters and order, read from the URL; unknown values fall back to the defaults. */
export function inboxQuery(params: URLSearchParams) {
	const assignee = params.get('assignee') ?? ''
	const team = params.get('team') ?? ''
	return {
		status: pick([...statuses, 'all'] as const, params.get('status'), 'open'),
		assignee: assignee === 'me' || assignee === 'unassigned' || /^[0-9a-f-]{36}$/.test(assignee) ? assignee : 'all',
		/** `mine`: the reader's teams; a team's id; empty: any team. */
		team: team === 'mine' || /^[0-9a-f-]{36}$/.test(team) ? team : '',
		channelId: params.get('channelId') ?? '',
		labelId: params.get('labelId') ?? '',
		priority: pick(['', ...priorities] as const, params.get('priority'), ''),
		search: (params.get('search') ?? '').slice(0, 200),
		sort: pick(sorts, params.get('sort'), 'activity'),
		after: params.get('after') ?? '',
	}
}

export type InboxQuery = ReturnType<typeof inboxQuery>

/** The selected conversation (`?conversation=1024`), or null. */
export function selectedNumber(params: URLSearchParams): number | null {
	const value = params.get('conversation') ?? ''
	return /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null
}

/** `?key=value` of the current URL with `changes` applied (null removes); the list's links keep the filters. */
export function withParams(pathname: string, search: string, changes: Record<string, string | number | null>): string {
	const params = new URLSearchParams(search)
	for (const [name, value] of Object.entries(changes)) {
		if (value === null || value === '') params.delete(name)
		else params.set(name, String(value))
	}
	const query = params.toString()
	return `${pathname}${query ? `?${query}` : ''}`
}

/** The wall time `local` (`2026-11-24T09:00`) in `timeZone`, as an instant. */
export function zonedTime(local: string, timeZone: string): Date | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
	if (!match) return null
	const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
	const asUtc = Date.UTC(year, month - 1, day, hour, minute)
	// The zone's offset at that moment, found by formatting; twice, in case the first guess crossed a change of offset.
	let instant = asUtc - offsetOf(asUtc, timeZone)
	instant = asUtc - offsetOf(instant, timeZone)
	return Number.isNaN(instant) ? null : new Date(instant)
}

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function offsetOf(instant: number, timeZone: string): number {
	const parts = Object.fromEntries(
		dateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		})
			.formatToParts(new Date(instant))
			.map((part) => [part.type, part.value]),
	)
	const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second))
	return wall - (instant - (instant % 1000))
}

/** The calendar day of `instant` in `timeZone` (`2026-11-24`): messages are grouped by it. */
export function dayOf(instant: Date, timeZone: string): string {
	return dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant)
}

/** When a snooze preset ends: in an hour, tomorrow at 9:00 or next Monday at 9:00, in the workspace's time zone. */
export function snoozeUntil(preset: SnoozePreset, timeZone: string, now = new Date()): Date {
	if (preset === 'hour') return new Date(now.getTime() + 60 * 60 * 1000)
	const today = dayOf(now, timeZone)
	const [year, month, day] = today.split('-').map(Number) as [number, number, number]
	const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay()
	const ahead = preset === 'tomorrow' ? 1 : (8 - weekday) % 7 || 7
	const target = new Date(Date.UTC(year, month - 1, day + ahead))
	return zonedTime(`${target.toISOString().slice(0, 10)}T09:00`, timeZone)!
}

/** A thread's messages by day (in the workspace's zone), oldest first. */
export function byDay(messages: Message[], timeZone: string): Array<{ day: string; messages: Message[] }> {
	const days: Array<{ day: string; messages: Message[] }> = []
	for (const message of messages) {
		const day = dayOf(new Date(message.createdAt), timeZone)
		const last = days.at(-1)
		if (last?.day === day) last.messages.push(message)
		else days.push({ day, messages: [message] })
	}
	return days
}

/** The `@word` or `/word` being typed just before the caret, for the mention and canned-response menus. */
export function tokenBeforeCaret(text: string, caret: number, trigger: '@' | '/'): { start: number; query: string } | null {
	const before = text.slice(0, caret)
	const pattern = trigger === '/' ? /(?:^|\n)\/([\p{L}\p{M}\p{N}_-]*)$/u : /(?:^|\s)@([\p{L}\p{M}\p{N}_.-]*)$/u
	const match = pattern.exec(before)
	if (!match) return null
	return { start: caret - match[1]!.length - 1, query: match[1]! }
}

/** Storage key of a conversation's draft. */
export const draftKey = (workspaceId: string, number: number) => `inbox-draft:${workspaceId}:${number}`
