import { type Availability, type ChannelKind } from '#api/db/schema.ts'

/**
 * The dashboard's reports (issue 17) as `GET /v1/workspaces/{id}/reports` answers them. Days are
 * `YYYY-MM-DD` in the workspace's time zone, both ends included; durations are in seconds.
 * Everything but `openNow` is read from the daily roll-ups (api/reports/rollup.ts).
 */
export type ReportRange = { from: string; to: string }

/** A count in the range and in the period of the same length just before it. */
export type Change = { value: number; previous: number }

/** Durations of the range (median and 90th percentile, read from their histogram) and of the previous period. */
export type DurationFigure = {
	count: number
	median: number | null
	p90: number | null
	previousCount: number
	previousMedian: number | null
	previousP90: number | null
}

export type ReportPreset = 'today' | '7d' | '30d' | 'month' | 'custom'

export type ReportFilters = { channelId: string | null; agentId: string | null; labelId: string | null; teamId: string | null }

/** How durations are counted: calendar time, or only the time the business hours were open (the channel's own, else the workspace's). */
export const reportHours = ['calendar', 'business'] as const
export type ReportHours = (typeof reportHours)[number]

export type ReportJson = {
	timezone: string
	preset: ReportPreset
	range: ReportRange
	previous: ReportRange
	filters: ReportFilters
	/** The first-response target the `answeredWithinTarget` share is measured against, in seconds. */
	targetSeconds: number
	/** Whether every duration of the report (first response, resolution, the target's share) is in calendar time or in business hours; queue waits are always calendar time. */
	hours: ReportHours
	figures: {
		/** Conversations that began in the range. */
		opened: Change
		/** Times a conversation was resolved in the range (a conversation resolved twice counts twice). */
		resolved: Change
		/** Open now, live (not a roll-up); follows the filters. */
		openNow: number
		messagesIn: Change
		messagesOut: Change
		/** From a conversation's start to its first reply, counted on the day of that reply. */
		firstResponse: DurationFigure
		/** From a conversation's start to each time it was resolved. */
		resolution: DurationFigure
		/** The share (0 to 1) of first responses within `targetSeconds`; null when there were none. */
		answeredWithinTarget: { value: number | null; previous: number | null }
		/**
		 * How long conversations waited in a team's queue, counted on the day the wait ended (the
		 * conversation assigned): exact, from every wait, not a histogram. Follows the filters (the
		 * agent: conversations assigned to them now; the team: the queue's).
		 */
		queueWait: DurationFigure
		/** New contacts of the whole workspace (contacts belong to no channel, agent or label). */
		newContacts: Change
		/** Campaign messages sent in the range, and how many of them were delivered (or read, or answered). */
		campaignSent: Change
		campaignDelivered: Change
	}
	/** One entry per day of the range, in order. */
	daily: Array<{ day: string; opened: number; resolved: number; messagesIn: number; messagesOut: number; firstResponseMedian: number | null }>
	/**
	 * The same by week (Monday to Sunday, in order), each cut to the range: the first from `range.from`,
	 * the last to `range.to`. The dashboard draws a long range by week; the median is the week's own.
	 */
	weekly: Array<{ from: string; to: string; opened: number; resolved: number; messagesIn: number; messagesOut: number; firstResponseMedian: number | null }>
	/** Channels with any activity in the range (or the filtered one), busiest first. */
	channels: Array<{ channelId: string; name: string; kind: ChannelKind; opened: number; resolved: number; messagesIn: number; messagesOut: number }>
	/** Incoming messages by weekday (0 Monday … 6 Sunday) and hour (0 … 23), in the workspace's time zone. */
	heatmap: number[][]
	/**
	 * The members (an agent sees only their own row): conversations begun in the range that are
	 * assigned to them, their replies, the resolutions they made, the median first response of
	 * their conversations and the median time to the resolutions they made.
	 */
	agents: Array<{
		userId: string
		name: string
		availability: Availability
		assigned: number
		replied: number
		resolved: number
		firstResponseMedian: number | null
		/** Of the resolutions they made. */
		resolutionMedian: number | null
	}>
	/**
	 * The teams with any activity or queue wait in the range (or the filtered one), by name, then
	 * conversations of no team (`teamId` and `name` null). A conversation counts under its current
	 * team; its queue waits under the queue's team.
	 */
	teams: Array<{
		teamId: string | null
		name: string | null
		opened: number
		resolved: number
		firstResponseMedian: number | null
		resolutionMedian: number | null
		queueWaits: number
		queueWaitMedian: number | null
		queueWaitP90: number | null
	}>
}

/** The tables of the report, each exported as CSV (`GET …/reports/export?table=`). */
export const reportTables = ['daily', 'weekly', 'channels', 'agents', 'teams', 'heatmap'] as const
export type ReportTable = (typeof reportTables)[number]
