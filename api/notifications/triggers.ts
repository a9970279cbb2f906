import { sql } from 'kysely'
import { type DB } from '#api/db/database.ts'
import { notify, type NotificationEvent } from './notify.ts'

/**
 * A campaign that ended (completed or failed), in the transaction that ended it: whoever started it
 * hears of it once, with what was sent and what failed.
 */
export async function notifyCampaignEnded(trx: DB, campaignId: string): Promise<NotificationEvent[]> {
	const campaign = await trx
		.selectFrom('campaigns')
		.select(['id', 'workspaceId', 'name', 'status', 'createdBy'])
		.select((eb) => [
			eb
				.selectFrom('campaignRecipients')
				.select(sql<number>`count(*) filter (where status in ('sent', 'delivered', 'read', 'replied'))::int`.as('sent'))
				.whereRef('campaignRecipients.campaignId', '=', 'campaigns.id')
				.as('sent'),
			eb
				.selectFrom('campaignRecipients')
				.select(sql<number>`count(*) filter (where status = 'failed')::int`.as('failed'))
				.whereRef('campaignRecipients.campaignId', '=', 'campaigns.id')
				.as('failed'),
		])
		.where('id', '=', campaignId)
		.executeTakeFirst()
	if (!campaign?.createdBy || (campaign.status !== 'completed' && campaign.status !== 'failed')) return []
	const member = await trx
		.selectFrom('members')
		.select('userId')
		.where('workspaceId', '=', campaign.workspaceId)
		.where('userId', '=', campaign.createdBy)
		.executeTakeFirst()
	if (!member) return []
	return notify(trx, [
		{
			workspaceId: campaign.workspaceId,
			userId: member.userId,
			kind: campaign.status === 'completed' ? 'campaignDone' : 'campaignFailed',
			campaignId: campaign.id,
			values: { campaign: campaign.name, sent: campaign.sent ?? 0, failed: campaign.failed ?? 0 },
			onceKey: `campaign:${campaign.id}`,
		},
	])
}

/**
 * A channel whose provider refused its credentials: its owners and admins hear of it once per
 * failing stretch (`failing_since`), in the transaction that marked it.
 */
export async function notifyChannelDisconnected(trx: DB, channelId: string): Promise<NotificationEvent[]> {
	const channel = await trx
		.selectFrom('channels')
		.select(['id', 'workspaceId', 'name', 'status', 'failingSince'])
		.where('id', '=', channelId)
		.executeTakeFirst()
	if (!channel || channel.status !== 'error' || !channel.failingSince) return []
	const managers = await trx
		.selectFrom('members')
		.select('userId')
		.where('workspaceId', '=', channel.workspaceId)
		.where('role', 'in', ['owner', 'admin'])
		.execute()
	return notify(
		trx,
		managers.map(({ userId }) => ({
			workspaceId: channel.workspaceId,
			userId,
			kind: 'channelDisconnected' as const,
			channelId: channel.id,
			values: { channel: channel.name },
			onceKey: `channel:${channel.id}:${channel.failingSince!.toISOString()}`,
		})),
	)
}
