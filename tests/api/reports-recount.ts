import { sql, type Selectable } from 'kysely'
import { type ReportDaysTable } from '#api/db/schema.ts'
import { durationBounds, bucketCount } from '#api/reports/buckets.ts'
import { businessSeconds, hoursOf } from '#common/business-hours.ts'
import { todayIn } from '#api/reports/queries.ts'
import { every, none } from '#api/reports/rollup.ts'
import { testDb } from './harness.ts'

/**
 * The report days of a workspace counted again in TypeScript, straight from its facts, without
 * the roll-up's SQL: what `report_days` must equal after a refresh. Rows with nothing counted are
 * left out on both sides.
 */
export type DayRow = Omit<Selectable<ReportDaysTable>, 'workspaceId'>

const key = (row: Pick<DayRow, 'labelId' | 'day' | 'teamId' | 'channelId' | 'agentId'>) =>
	`${row.labelId} ${row.day} ${row.teamId} ${row.channelId} ${row.agentId}`

export async function recount(workspaceId: string): Promise<DayRow[]> {
	const db = testDb()
	const { timezone, businessHours } = await db
		.selectFrom('workspaces')
		.select(['timezone', 'businessHours'])
		.where('id', '=', workspaceId)
		.executeTakeFirstOrThrow()
	const dayOf = (date: Date) => todayIn(timezone, date)
	const hourOf = (date: Date) => Number(new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', hourCycle: 'h23' }).format(date))
	// PostgreSQL's width_bucket: how many bounds are at or below the value.
	const bucketOf = (seconds: number) => durationBounds.filter((bound) => bound <= seconds).length
	const channelHours = new Map(
		(await db.selectFrom('channels').select(['id', 'businessHours']).where('workspaceId', '=', workspaceId).execute()).map((channel) => [
			channel.id,
			channel.businessHours,
		]),
	)
	// Through common/business-hours.ts, the TypeScript the SQL function of migration 0037 must equal.
	const businessBucketOf = (channelId: string, from: Date, to: Date) =>
		bucketOf(businessSeconds(hoursOf(channelHours.get(channelId), businessHours), timezone, from, to))

	const conversations = await db
		.selectFrom('conversations')
		.select(['id', 'teamId', 'channelId', 'assigneeId', 'createdAt', 'firstResponseAt'])
		.where('workspaceId', '=', workspaceId)
		.execute()
	const byId = new Map(conversations.map((conversation) => [conversation.id, conversation]))
	const labels = await db.selectFrom('conversationLabels').select(['conversationId', 'labelId']).where('workspaceId', '=', workspaceId).execute()
	const labelsOf = (conversationId: string | null) => [none, ...labels.filter((label) => label.conversationId === conversationId).map((label) => label.labelId)]
	const messages = await db
		.selectFrom('messages')
		.select(['conversationId', 'channelId', 'direction', 'kind', 'senderId', 'createdAt', sql<string | null>`activity->>'key'`.as('activityKey')])
		.where('workspaceId', '=', workspaceId)
		.execute()
	const contacts = await db.selectFrom('contacts').select('createdAt').where('workspaceId', '=', workspaceId).execute()
	const recipients = await db
		.selectFrom('campaignRecipients')
		.innerJoin('campaigns', 'campaigns.id', 'campaignRecipients.campaignId')
		.select(['campaignRecipients.sentAt', 'campaignRecipients.status', 'campaigns.channelId'])
		.where('campaignRecipients.workspaceId', '=', workspaceId)
		.where('campaignRecipients.sentAt', 'is not', null)
		.execute()

	const rows = new Map<string, DayRow>()
	// A conversation's facts count under its current team.
	const teamOf = (conversationId: string | null) => (conversationId ? byId.get(conversationId)?.teamId : null) ?? none
	const add = (at: { conversationId: string | null; day: string; channelId: string; agentId: string }, change: (row: DayRow) => void) => {
		// Each fact also counts in its day's sums over every team, every channel, every agent, and each combination of them.
		const keys = labelsOf(at.conversationId).flatMap((labelId) =>
			[teamOf(at.conversationId), every].flatMap((teamId) =>
				[at.channelId, every].flatMap((channelId) => [at.agentId, every].map((agentId) => ({ labelId, day: at.day, teamId, channelId, agentId }))),
			),
		)
		for (const id of keys) {
			let row = rows.get(key(id))
			if (!row) {
				row = {
					...id,
					opened: 0,
					resolved: 0,
					messagesIn: 0,
					messagesOut: 0,
					firstResponses: 0,
					firstResponseBuckets: new Array<number>(bucketCount).fill(0),
					resolutionBuckets: new Array<number>(bucketCount).fill(0),
					firstResponseBusinessBuckets: new Array<number>(bucketCount).fill(0),
					resolutionBusinessBuckets: new Array<number>(bucketCount).fill(0),
					incomingHours: new Array<number>(24).fill(0),
					newContacts: 0,
					campaignSent: 0,
					campaignDelivered: 0,
				}
				rows.set(key(id), row)
			}
			change(row)
		}
	}

	for (const conversation of conversations) {
		add(
			{ conversationId: conversation.id, day: dayOf(conversation.createdAt), channelId: conversation.channelId, agentId: conversation.assigneeId ?? none },
			(row) => row.opened++,
		)
		const answered = conversation.firstResponseAt
		if (answered) {
			add({ conversationId: conversation.id, day: dayOf(answered), channelId: conversation.channelId, agentId: conversation.assigneeId ?? none }, (row) => {
				row.firstResponses++
				row.firstResponseBuckets[bucketOf((answered.getTime() - conversation.createdAt.getTime()) / 1000)]!++
				row.firstResponseBusinessBuckets[businessBucketOf(conversation.channelId, conversation.createdAt, answered)]!++
			})
		}
	}
	for (const message of messages) {
		const conversation = byId.get(message.conversationId)
		if (!conversation) continue
		const at = { conversationId: message.conversationId, day: dayOf(message.createdAt), channelId: message.channelId }
		if (message.kind === 'text' && message.direction === 'incoming') {
			add({ ...at, agentId: conversation.assigneeId ?? none }, (row) => {
				row.messagesIn++
				row.incomingHours[hourOf(message.createdAt)]!++
			})
		} else if (message.kind === 'text') {
			add({ ...at, agentId: message.senderId ?? none }, (row) => row.messagesOut++)
		} else if (message.kind === 'activity' && message.activityKey === 'activity.resolved') {
			add({ ...at, agentId: message.senderId ?? none }, (row) => {
				row.resolved++
				row.resolutionBuckets[bucketOf((message.createdAt.getTime() - conversation.createdAt.getTime()) / 1000)]!++
				row.resolutionBusinessBuckets[businessBucketOf(conversation.channelId, conversation.createdAt, message.createdAt)]!++
			})
		}
	}
	for (const contact of contacts) add({ conversationId: null, day: dayOf(contact.createdAt), channelId: none, agentId: none }, (row) => row.newContacts++)
	for (const recipient of recipients) {
		add({ conversationId: null, day: dayOf(recipient.sentAt!), channelId: recipient.channelId, agentId: none }, (row) => {
			row.campaignSent++
			if (['delivered', 'read', 'replied'].includes(recipient.status)) row.campaignDelivered++
		})
	}
	return [...rows.values()].sort((a, b) => key(a).localeCompare(key(b)))
}

/** What `report_days` holds for the workspace, in the same order and shape. */
export async function storedDays(workspaceId: string): Promise<DayRow[]> {
	const rows = await testDb()
		.selectFrom('reportDays')
		.select([
			'labelId',
			sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
			'teamId',
			'channelId',
			'agentId',
			'opened',
			'resolved',
			'messagesIn',
			'messagesOut',
			'firstResponses',
			'firstResponseBuckets',
			'resolutionBuckets',
			'firstResponseBusinessBuckets',
			'resolutionBusinessBuckets',
			'incomingHours',
			'newContacts',
			'campaignSent',
			'campaignDelivered',
		])
		.where('workspaceId', '=', workspaceId)
		.execute()
	return rows.sort((a, b) => key(a).localeCompare(key(b)))
}
