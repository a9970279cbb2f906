import { type ReportJson } from '#app/utils/reports.ts'

/** A week's report as the API answers it, for the charts' tests. */
export function sampleReport(overrides: Partial<ReportJson> = {}): ReportJson {
	const days = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07', '2025-03-08', '2025-03-09']
	const heatmap = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0))
	heatmap[0]![9] = 12
	heatmap[4]![15] = 3
	return {
		timezone: 'Africa/Cairo',
		preset: '7d',
		range: { from: days[0]!, to: days[6]! },
		previous: { from: '2025-02-24', to: '2025-03-02' },
		filters: { channelId: null, agentId: null, labelId: null, teamId: null },
		targetSeconds: 300,
		hours: 'calendar',
		figures: {
			opened: { value: 42, previous: 35 },
			resolved: { value: 30, previous: 30 },
			openNow: 7,
			messagesIn: { value: 120, previous: 100 },
			messagesOut: { value: 95, previous: 0 },
			firstResponse: { count: 40, median: 240, p90: 3_900, previousCount: 30, previousMedian: 300, previousP90: 4_000 },
			resolution: { count: 30, median: 7_200, p90: 90_000, previousCount: 0, previousMedian: null, previousP90: null },
			answeredWithinTarget: { value: 0.6, previous: 0.5 },
			queueWait: { count: 12, median: 90, p90: 600, previousCount: 10, previousMedian: 120, previousP90: 900 },
			newContacts: { value: 9, previous: 12 },
			campaignSent: { value: 200, previous: 0 },
			campaignDelivered: { value: 180, previous: 0 },
		},
		daily: days.map((day, index) => ({
			day,
			opened: index + 3,
			resolved: index,
			messagesIn: 10 + index,
			messagesOut: 8 + index,
			firstResponseMedian: index === 2 ? null : 60 * (index + 1),
		})),
		// 2025-03-03 is a Monday: the week is whole.
		weekly: [{ from: days[0]!, to: days[6]!, opened: 42, resolved: 21, messagesIn: 91, messagesOut: 77, firstResponseMedian: 240 }],
		channels: [
			{ channelId: 'c1', name: 'Website', kind: 'link', opened: 30, resolved: 20, messagesIn: 90, messagesOut: 70 },
			{ channelId: 'c2', name: 'واتساب', kind: 'whatsapp', opened: 12, resolved: 10, messagesIn: 30, messagesOut: 25 },
		],
		heatmap,
		agents: [
			{ userId: 'u1', name: 'Olga Owner', availability: 'online', assigned: 20, replied: 50, resolved: 18, firstResponseMedian: 200, resolutionMedian: 5_400 },
		],
		teams: [
			{
				teamId: 't1',
				name: 'Billing',
				opened: 30,
				resolved: 20,
				firstResponseMedian: 180,
				resolutionMedian: 3_600,
				queueWaits: 12,
				queueWaitMedian: 90,
				queueWaitP90: 600,
			},
			{
				teamId: null,
				name: null,
				opened: 12,
				resolved: 10,
				firstResponseMedian: 400,
				resolutionMedian: 9_000,
				queueWaits: 0,
				queueWaitMedian: null,
				queueWaitP90: null,
			},
		],
		...overrides,
	}
}
