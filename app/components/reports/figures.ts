import { type ReportJson } from '#app/utils/reports.ts'
import { formatChange, formatCount, formatDuration, formatShare } from './format.ts'

export type FigureKey =
	| 'opened'
	| 'resolved'
	| 'openNow'
	| 'messagesIn'
	| 'messagesOut'
	| 'firstResponseMedian'
	| 'firstResponseP90'
	| 'resolutionMedian'
	| 'resolutionP90'
	| 'answeredWithinTarget'
	| 'queueWaitMedian'
	| 'queueWaitP90'
	| 'newContacts'
	| 'campaignSent'
	| 'campaignDelivered'

/** A figure card's words: its value, the previous period's, the change, and whether that change is good news. */
export type Figure = {
	key: FigureKey
	value: string | null
	previous: string | null
	change: string | null
	/** Up is good for counts of work done, down for waiting times; null where neither (messages, open now). */
	good: boolean | null
}

type Kind = 'count' | 'duration' | 'share'
type Better = 'more' | 'less' | null

/** The report's figures in the order the page shows them, formatted for `lang`. */
export function figuresOf(report: ReportJson, lang: string): Figure[] {
	const { figures } = report
	const format = (kind: Kind, value: number | null) =>
		value === null ? null : kind === 'count' ? formatCount(lang, value) : kind === 'duration' ? formatDuration(lang, value) : formatShare(lang, value)
	const figure = (key: FigureKey, kind: Kind, better: Better, value: number | null, previous: number | null | undefined): Figure => {
		const change = previous === undefined ? null : formatChange(lang, value, previous)
		const moved = value !== null && previous !== undefined && previous !== null && value !== previous
		return {
			key,
			value: format(kind, value),
			previous: previous === undefined ? null : format(kind, previous),
			change,
			good: better && moved ? (better === 'more') === value > previous : null,
		}
	}
	const { firstResponse: first, resolution, queueWait } = figures
	return [
		figure('opened', 'count', null, figures.opened.value, figures.opened.previous),
		figure('resolved', 'count', 'more', figures.resolved.value, figures.resolved.previous),
		figure('openNow', 'count', null, figures.openNow, undefined),
		figure('messagesIn', 'count', null, figures.messagesIn.value, figures.messagesIn.previous),
		figure('messagesOut', 'count', null, figures.messagesOut.value, figures.messagesOut.previous),
		figure('firstResponseMedian', 'duration', 'less', first.median, first.previousMedian),
		figure('firstResponseP90', 'duration', 'less', first.p90, first.previousP90),
		figure('resolutionMedian', 'duration', 'less', resolution.median, resolution.previousMedian),
		figure('resolutionP90', 'duration', 'less', resolution.p90, resolution.previousP90),
		figure('answeredWithinTarget', 'share', 'more', figures.answeredWithinTarget.value, figures.answeredWithinTarget.previous),
		figure('queueWaitMedian', 'duration', 'less', queueWait.median, queueWait.previousMedian),
		figure('queueWaitP90', 'duration', 'less', queueWait.p90, queueWait.previousP90),
		figure('newContacts', 'count', null, figures.newContacts.value, figures.newContacts.previous),
		figure('campaignSent', 'count', null, figures.campaignSent.value, figures.campaignSent.previous),
		figure('campaignDelivered', 'count', null, figures.campaignDelivered.value, figures.campaignDelivered.previous),
	]
}
